// "A real image upgrade": a RedisReplication with storage moves from one Redis image to another through the
// operator's rollout (replicas replaced one at a time by the StatefulSet, the primary role handed over with a
// switchover before the old primary is replaced) while a client writes without pause through the Service's ClusterIP
// (kube-proxy, the EndpointSlice) and confirms each write with `WAIT 1`. Every acknowledged write must be on the
// primary and the replicas afterwards; the time without a writable primary is measured and printed, not asserted.
//
// On testenv the two images are ONE image under two tags: the node cannot pull and Debian serves only Redis 7.0, so
// the target is a second tag of the node's Redis image (`upgradeImages()`): a changed `spec.image`, so a new Pod
// template and a real rollout with switchovers, but not a new Redis version (the test checks that the image id is
// the same, so it says no more than it does). On an existing cluster it is a real upgrade, redis:7.0 → redis:7.2.
import type { V1Pod } from '@kubernetes/client-node';
import { eventsOnceSeen, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes } from '@domain-operators/reconcile';
import type { KubeEvent } from '@domain-operators/reconcile';
import type { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  replicationReady,
  cluster,
  command,
  connectTo,
  deleteNamespace,
  eventually,
  freshNamespace,
  getReplication,
  memberPods,
  objectNames,
  operatorPassword,
  redisReplications,
  secretValue,
  upgradeImages,
} from './fixtures.ts';
import type { Cluster, RedisReplication, UpgradeImages } from './fixtures.ts';

const NAME = 'orders';
let c: Cluster;
let ns = '';
let operator: OperatorProcess | undefined;
let images: UpgradeImages;
let password = '';

/** The RedisReplication once Ready at its generation with every member linked. */
function readyReplication(timeoutMs?: number): Promise<RedisReplication> {
  return replicationReady(c, ns, NAME, timeoutMs);
}

function redisStatus(pod: V1Pod): { image: string | undefined; imageID: string | undefined } {
  const status = pod.status?.containerStatuses?.find((s) => s.name === 'redis');
  return { image: pod.spec?.containers.find((x) => x.name === 'redis')?.image, imageID: status?.imageID };
}

/** What the writer saw: the keys a replica acknowledged, and when no write got through. */
interface WriterReport {
  readonly acknowledged: string[];
  /** Writes the primary took that no replica acknowledged within 1 s (not promised to survive). */
  unacknowledged: number;
  /** Attempts that failed (connection refused or reset, READONLY, timeout), by the error's first word. */
  readonly failures: Map<string, number>;
  /** Sum of the windows between the last write that got through before a failure and the next one that did. */
  unwritableMs: number;
  longestUnwritableMs: number;
}

/**
 * Writes `<prefix>:<n>` for n = 0, 1, … through `host` (the Service's ClusterIP), each followed by `WAIT 1 1000`,
 * until `signal` aborts, as a client that reconnects (after 50 ms) whenever a command fails. Each key is tried once.
 */
async function write(host: string, secret: string, prefix: string, signal: AbortSignal): Promise<WriterReport> {
  const report: WriterReport = { acknowledged: [], unacknowledged: 0, failures: new Map(), unwritableMs: 0, longestUnwritableMs: 0 };
  let redis: Redis | undefined;
  let lastWrite = Date.now();
  let failing = false;
  for (let n = 0; !signal.aborted; n++) {
    const key = `${prefix}:${n}`;
    try {
      redis ??= await connectTo(host, secret, 'default', 5_000);
      await redis.set(key, String(n));
      const now = Date.now();
      if (failing) {
        report.unwritableMs += now - lastWrite;
        report.longestUnwritableMs = Math.max(report.longestUnwritableMs, now - lastWrite);
        failing = false;
      }
      lastWrite = now;
      if (Number(await redis.call('WAIT', '1', '1000')) >= 1) report.acknowledged.push(key);
      else report.unacknowledged++;
    } catch (err) {
      failing = true;
      const kind = (err instanceof Error ? err.message : String(err)).split(/[\s:]/)[0] ?? '?';
      report.failures.set(kind, (report.failures.get(kind) ?? 0) + 1);
      redis?.disconnect();
      redis = undefined;
      await sleep(50);
    }
  }
  redis?.disconnect();
  if (failing) report.unwritableMs += Date.now() - lastWrite;
  return report;
}

/** The keys of `keys` that `pod` does not hold (MGET in chunks). */
async function missing(pod: V1Pod, keys: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < keys.length; i += 1_000) {
    const chunk = keys.slice(i, i + 1_000);
    const values = (await command(pod, password, ['MGET', ...chunk])) as (string | null)[];
    chunk.forEach((key, j) => {
      if (values[j] === null || values[j] === undefined) out.push(key);
    });
  }
  return out;
}

beforeAll(async () => {
  c = await cluster();
  images = await upgradeImages();
  operator = await startOperator({ system: 'redis' });
  ns = await freshNamespace(c, 'redis-upgrade');
  await c.client.create(redisReplications.type, {
    apiVersion: redisReplications.apiVersion,
    kind: redisReplications.kind,
    metadata: { name: NAME, namespace: ns },
    spec: { replicas: 3, image: images.from, storage: { size: '64Mi' }, failover: { enabled: true, downAfterMilliseconds: 5000 } },
  });
  await readyReplication();
  password = await operatorPassword(c, ns, NAME);
});

afterAll(async () => {
  await operator?.stop();
  if (ns !== '') await deleteNamespace(c, ns);
});

describe('image upgrade', () => {
  it('moves every member to the new image through switchovers, keeping every write acknowledged by WAIT 1 before and during the rollout', async () => {
    const before = await memberPods(c, ns, NAME);
    expect(before.map((p) => redisStatus(p).image)).toEqual([images.from, images.from, images.from]);
    const imageIdBefore = redisStatus(before[0] ?? {}).imageID;
    const uids = new Set(before.map((p) => p.metadata?.uid ?? ''));
    const primaryBefore = (await getReplication(c, ns, NAME)).status?.primary ?? '';
    const service = await c.client.get(coreTypes.service, { namespace: ns, name: objectNames(NAME).primary });
    const defaultPassword = secretValue(await c.client.get(coreTypes.secret, { namespace: ns, name: objectNames(NAME).authSecret }), 'password');

    const stop = new AbortController();
    const writing = write(service.spec?.clusterIP ?? '', defaultPassword, 'w', stop.signal);
    let report: WriterReport;
    let rolledAfter: number;
    try {
      await sleep(3_000); // acknowledged writes before the rollout
      const started = Date.now();
      await c.client.patch(redisReplications.type, { namespace: ns, name: NAME }, { type: 'merge', body: { spec: { image: images.to } } });
      await eventually(async () => {
        const pods = await memberPods(c, ns, NAME);
        return pods.length === 3 && pods.every((p) => !uids.has(p.metadata?.uid ?? '') && redisStatus(p).image === images.to && p.status?.containerStatuses?.[0]?.ready === true);
      }, 240_000, `every member replaced and running ${images.to}`);
      await readyReplication();
      rolledAfter = Date.now() - started;
      await sleep(2_000); // acknowledged writes after the rollout, on the final primary
    } finally {
      stop.abort();
      report = await writing;
    }

    const rr = await readyReplication();
    const pods = await memberPods(c, ns, NAME);
    const primary = pods.find((p) => p.metadata?.name === rr.status?.primary);
    if (primary === undefined) throw new Error('no primary Pod');
    expect(report.acknowledged.length).toBeGreaterThan(100);
    expect(await missing(primary, report.acknowledged)).toEqual([]);
    expect(Number(await command(primary, password, ['WAIT', '2', '5000']))).toBe(2);
    for (const replica of pods.filter((p) => p !== primary)) expect(await missing(replica, report.acknowledged)).toEqual([]);

    const rolling = (e: KubeEvent): boolean => e.reason === 'Switchover' && e.action === 'RollingUpdate';
    const events = await eventsOnceSeen(c.client, ns, rolling, { what: 'a Switchover Event of the upgrade' });
    const switchovers = events.filter(rolling);
    expect(switchovers.length).toBeGreaterThanOrEqual(1);
    expect(events.filter((e) => e.reason === 'FailoverStarted')).toEqual([]);
    // Say what was upgraded: on testenv the same image under a second tag (same image id), else a new version.
    if (images.sameContent) expect(redisStatus(primary).imageID).toBe(imageIdBefore);
    else expect(redisStatus(primary).imageID).not.toBe(imageIdBefore);

    console.info(
      [
        `image rollout ${images.from} → ${images.to}${images.sameContent ? ' (the same image under a second tag: same Redis 7.0, a new Pod template)' : ''}:`,
        `every member replaced and Ready after ${(rolledAfter / 1000).toFixed(1)} s; primary ${primaryBefore} before, ${primary.metadata?.name ?? ''} after; ${switchovers.length} switchover(s);`,
        `${report.acknowledged.length} writes acknowledged by WAIT 1, all kept; ${report.unacknowledged} taken without an acknowledgement;`,
        `no writable primary for ${(report.unwritableMs / 1000).toFixed(2)} s in all (longest window ${(report.longestUnwritableMs / 1000).toFixed(2)} s);`,
        `failed attempts: ${[...report.failures].map(([kind, count]) => `${kind} ×${count}`).join(', ') || 'none'}`,
      ].join(' '),
    );
  });
});
