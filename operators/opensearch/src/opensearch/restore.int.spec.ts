import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenSearchError } from './errors.ts';
import { planRestore, restoreBody } from './restore-plan.ts';
import { progressOf, recognise } from './restore-progress.ts';
import type { TargetObservation } from './restore-progress.ts';
import type { OpenSearchFixture } from './test-support.int.ts';
import { openSearchFixture, request } from './test-support.int.ts';
import { tenancyFor } from './tenancy.ts';

// The restore's reads and its one write against the real node: the snapshot's index list, the restore call with a
// rename, the recovery API's answer for restored shards (type SNAPSHOT, its source) as parsed here, and OpenSearch's
// answer to a second restore onto the restored index (what the reconciler must tell apart from its own restore).
describe('a restore against the real node (path.repo is testenv snapshotDir)', () => {
  let fx: OpenSearchFixture;
  let folder: string;
  let prefix: string;
  let repository: string;
  const os = (method: string, path: string, body?: unknown) => request(fx.url, fx.admin, method, path, body);

  beforeAll(async () => {
    fx = await openSearchFixture();
    prefix = `int-${fx.suffix}-`;
    repository = `int-${fx.suffix}-restore`;
    folder = join((await ensureTestEnv(['opensearch'])).opensearch.snapshotDir, `int-${fx.suffix}-restore`);
    await fx.api.putRepository(repository, { type: 'fs', settings: { location: folder } });
    await os('PUT', `/${prefix}logs`, { settings: { 'index.number_of_shards': 2, 'index.number_of_replicas': 0 } });
    for (let i = 0; i < 4; i++) await os('POST', `/${prefix}logs/_doc?refresh=true`, { n: i });
    const taken = await os('PUT', `/_snapshot/${repository}/snap?wait_for_completion=true`, { indices: `${prefix}logs`, include_global_state: false });
    expect(taken.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await os('DELETE', `/${prefix}*`);
    await os('DELETE', `/_snapshot/${repository}/snap`);
    await fx.api.deleteRepository(repository);
    rmSync(folder, { recursive: true, force: true });
    await fx.api.close();
  });

  it('restores with a rename, reads the restored shards as this snapshot\u2019s, and gets a 500 for a second restore onto them', async () => {
    const snapshot = await fx.api.getSnapshot(repository, 'snap');
    expect(snapshot).toMatchObject({ state: 'SUCCESS', indices: [`${prefix}logs`] });
    const tenancy = tenancyFor({ indexPrefix: prefix }, 'int');
    if (!tenancy.ok || snapshot === undefined) throw new Error('no tenancy or snapshot');
    const plan = planRestore(tenancy.tenancy, snapshot, { indices: [`${prefix}l*`], renamePattern: `${prefix}(.+)`, renameReplacement: `${prefix}restored-$1` });
    if (plan.kind !== 'restore') throw new Error(plan.message);
    expect(plan.targets).toEqual([{ source: `${prefix}logs`, target: `${prefix}restored-logs` }]);

    const spec = { indices: [`${prefix}l*`], renamePattern: `${prefix}(.+)`, renameReplacement: `${prefix}restored-$1`, indexSettings: { 'index.number_of_replicas': 0 } };
    await fx.api.restoreSnapshot(repository, 'snap', restoreBody(plan.targets, spec));
    const target = `${prefix}restored-logs`;
    const observe = async (): Promise<TargetObservation[]> => {
      const exists = (await fx.api.getIndex(target)) !== undefined;
      const recovery = exists ? (await fx.api.recovery([target])).find((r) => r.index === target) : undefined;
      return [{ target, exists, health: exists ? await fx.api.indexHealth(target) : undefined, recovery }];
    };
    // The restore call returns once the index is in the cluster state: it exists at once.
    expect((await observe())[0]?.exists).toBe(true);
    let observed = await observe();
    for (let i = 0; i < 120 && !(progressOf(observed).kind === 'progress' && (progressOf(observed) as { done: boolean }).done); i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      observed = await observe();
    }
    expect(progressOf(observed)).toEqual({ kind: 'progress', done: true, shardsTotal: 2, shardsDone: 2, stalled: [] });
    expect(observed[0]?.recovery?.shards).toEqual([
      expect.objectContaining({ primary: true, type: 'SNAPSHOT', stage: 'DONE', snapshot: { repository, snapshot: 'snap', index: `${prefix}logs` } }),
      expect.objectContaining({ primary: true, type: 'SNAPSHOT', stage: 'DONE', snapshot: { repository, snapshot: 'snap', index: `${prefix}logs` } }),
    ]);
    expect(recognise(observed, { repository, snapshot: 'snap' })).toEqual({ kind: 'ours' });
    expect(recognise(observed, { repository, snapshot: 'another' })).toEqual({ kind: 'foreign', foreign: [target] });
    // The original, made by hand, is never taken for a restore of this snapshot.
    const original = `${prefix}logs`;
    const originalRecovery = (await fx.api.recovery([original])).find((r) => r.index === original);
    expect(recognise([{ target: original, exists: true, recovery: originalRecovery }], { repository, snapshot: 'snap' })).toEqual({ kind: 'foreign', foreign: [original] });

    const second = await fx.api.restoreSnapshot(repository, 'snap', restoreBody(plan.targets, spec)).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(second).toBeInstanceOf(OpenSearchError);
    expect(second).toMatchObject({ status: 500, message: expect.stringContaining('already exists') as string });
    expect(((await os('GET', `/${target}/_count`)).body as { count: number }).count).toBe(4);
  });
});
