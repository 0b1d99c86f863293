// The claims ledger in a real ConfigMap of the real apiserver: created on the first claim, compare-and-swap against
// a second process writing the same ConfigMap, a confirm that reads another process's claim, releases that empty it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreTypes } from '../client/resource-type.ts';
import { systemClock } from '../core/clock.ts';
import { ClaimsLedger } from './claims-ledger.ts';
import { configMapLedgerDocument } from './configmap-ledger-document.ts';
import { deleteNamespace, eventually, freshNamespace, liveCluster } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';

describe('ClaimsLedger in a ConfigMap against the real apiserver', () => {
  let cluster: LiveCluster;
  let namespace: string;

  beforeAll(async () => {
    cluster = await liveCluster();
    namespace = await freshNamespace(cluster, 'claims-ledger');
  });

  afterAll(async () => {
    await deleteNamespace(cluster, namespace);
  });

  it('keeps the claims of two processes writing one ConfigMap at once, and a release by either removes them', async () => {
    const ref = { namespace, name: 'create-claims', labels: { 'app.kubernetes.io/managed-by': 'claims-ledger-int' } };
    const one = new ClaimsLedger({ document: configMapLedgerDocument(cluster.client, ref), clock: systemClock }, { lingerMs: 5, releaseLingerMs: 50 });
    const two = new ClaimsLedger({ document: configMapLedgerDocument(cluster.client, ref), clock: systemClock }, { lingerMs: 5, releaseLingerMs: 50 });

    const claims = await Promise.all([
      ...Array.from({ length: 20 }, (_, i) => one.claim(`uid-one-${i}`, `one/topic-${i}`)),
      ...Array.from({ length: 20 }, (_, i) => two.claim(`uid-two-${i}`, `two/topic-${i}`)),
    ]);

    expect(claims.every((recorded) => recorded)).toBe(true);
    const stored = await cluster.client.get(coreTypes.configMap, { namespace, name: 'create-claims' });
    expect(Object.keys(stored.data ?? {})).toHaveLength(40);
    expect(stored.data?.['uid-two-7']).toBe('two/topic-7');
    expect(stored.metadata?.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'claims-ledger-int' });
    await expect(one.confirm('uid-two-7', 'two/topic-7')).resolves.toBe(true);
    await expect(one.confirm('uid-two-7', 'two/topic-8')).resolves.toBe(false);

    for (let i = 0; i < 20; i++) one.release(`uid-one-${i}`);
    one.release('uid-two-7'); // another process's claim, seen by confirm
    for (let i = 0; i < 20; i++) if (i !== 7) two.release(`uid-two-${i}`);
    await eventually(async () => Object.keys((await cluster.client.get(coreTypes.configMap, { namespace, name: 'create-claims' })).data ?? {}).length === 0, 10_000, 'every claim released');
  });
});
