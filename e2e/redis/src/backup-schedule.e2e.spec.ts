// Backup schedules on the real node (issue #17): RedisReplication.spec.backup every minute with retention maxCount 2
// and deletionPolicy Delete, against testenv's real S3 server (versitygw). Checked independently of the operator:
// the RedisBackups it creates (owned by the replication, one per minute, named by the slot), that at least three
// succeed and then exactly two of them remain with their objects in the bucket while the pruned ones' objects are
// gone, that a hand-made RedisBackup of the same replication and its object are untouched, and that nothing new is
// created once the schedule is suspended.
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { setTimeout as sleep } from 'node:timers/promises';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, cluster, deleteNamespace, eventually, freshNamespace, redisImage, redisReplications, replicationReady } from './fixtures.ts';
import type { Cluster } from './fixtures.ts';

/** What the suite writes and reads of a RedisBackup (written out: e2e suites do not import the operator). */
type RedisBackup = CustomResourceObject<
  {
    replicationRef: { name: string };
    destination: { s3: { endpoint: string; bucket: string; prefix?: string; forcePathStyle?: boolean; credentialsSecretRef: { name: string } } };
    deletionPolicy?: 'Retain' | 'Delete';
  },
  { phase?: string; location?: string; sha256?: string; conditions?: Condition[] }
>;

/** `status.backup` of a RedisReplication. */
interface ScheduleStatus {
  readonly lastScheduleTime?: string;
  readonly lastBackup?: string;
  readonly lastSuccessfulTime?: string;
  readonly nextScheduleTime?: string;
  readonly active?: number;
  readonly retained?: number;
  readonly message?: string;
}

const backupType = resourceType<RedisBackup>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisBackup', plural: 'redisbackups', namespaced: true });
const NAME = 'cache';
const SCHEDULE_LABEL = 'redis.domain-operators.io/backup-schedule';
const SLOT_ANNOTATION = 'redis.domain-operators.io/scheduled-at';

let c: Cluster;
let ns = '';
let operator: OperatorProcess | undefined;
let s3Client: S3Client;
let destination: RedisBackup['spec']['destination'];
const bucket = `e2e-schedules-${randomBytes(3).toString('hex')}`;

/** Every RedisBackup of the namespace, by name. */
async function backups(): Promise<Map<string, RedisBackup>> {
  const list = await c.client.list(backupType, { namespace: ns });
  return new Map(list.items.map((b) => [b.metadata.name ?? '', b]));
}

const isScheduled = (b: RedisBackup): boolean => b.metadata.labels?.[SCHEDULE_LABEL] === NAME;

async function scheduleStatus(): Promise<ScheduleStatus | undefined> {
  const rr = await c.client.get(redisReplications.type, { namespace: ns, name: NAME });
  return (rr.status as { backup?: ScheduleStatus } | undefined)?.backup;
}

async function objectExists(location: string | undefined): Promise<boolean> {
  const prefix = `s3://${bucket}/`;
  if (location?.startsWith(prefix) !== true) throw new Error(`unexpected location ${String(location)}`);
  try {
    await s3Client.send(new HeadObjectCommand({ Bucket: bucket, Key: location.slice(prefix.length) }));
    return true;
  } catch (err) {
    if ((err as { name?: string }).name === 'NotFound') return false;
    throw err;
  }
}

describe.skipIf(targetsExistingCluster())('RedisReplication backup schedule on the real node', () => {
  beforeAll(async () => {
    c = await cluster();
    const s3 = (await ensureTestEnv(['s3'])).s3;
    s3Client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));
    destination = { s3: { endpoint: s3.endpoint, bucket, prefix: 'scheduled', forcePathStyle: true, credentialsSecretRef: { name: 's3-creds' } } };
    ns = await freshNamespace(c, 'e2e-redis-schedule');
    operator = await startOperator({ system: 'redis', values: { watchNamespaces: [ns] } });
    await c.client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: ns, name: 's3-creds' }, stringData: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await c.client.create(redisReplications.type, { apiVersion: API_VERSION, kind: 'RedisReplication', metadata: { namespace: ns, name: NAME }, spec: { replicas: 2, image: await redisImage() } });
    await replicationReady(c, ns, NAME, 180_000);
  });

  afterAll(async () => {
    // Deleting the replication deletes its scheduled backups (owned); their finalizers need the operator running.
    if (ns !== '') {
      await c.client.delete(redisReplications.type, { namespace: ns, name: NAME }).catch(() => undefined);
      await eventually(async () => [...(await backups()).values()].every((b) => !isScheduled(b)), 60_000, 'scheduled backups gone').catch(() => undefined);
    }
    await operator?.stop();
    if (ns !== '') await deleteNamespace(c, ns);
    s3Client.destroy();
  });

  it('every minute keeps the newest two of its own backups and their objects, never touching a hand-made one; suspended it takes none', async () => {
    // A hand-made backup of the same replication, before the schedule exists.
    await c.client.create(backupType, { apiVersion: API_VERSION, kind: 'RedisBackup', metadata: { namespace: ns, name: 'by-hand' }, spec: { replicationRef: { name: NAME }, destination } });
    const byHand = await eventually(async () => ((await backups()).get('by-hand')?.status?.phase === 'Succeeded' ? (await backups()).get('by-hand') : undefined), 120_000, 'the hand-made backup Succeeded');

    await c.client.patch(
      redisReplications.type,
      { namespace: ns, name: NAME },
      { type: 'merge', body: { spec: { backup: { schedule: '* * * * *', destination, deletionPolicy: 'Delete', retention: { maxCount: 2 } } } } },
    );

    // Watch the scheduled backups as they come and go: at least three must be created and succeed.
    const succeeded = new Map<string, RedisBackup>();
    const seen = new Set<string>();
    await eventually(
      async () => {
        for (const b of (await backups()).values()) {
          if (!isScheduled(b)) continue;
          seen.add(b.metadata.name ?? '');
          expect(b.status?.phase, `${b.metadata.name ?? ''}: ${JSON.stringify(b.status?.conditions)}`).not.toBe('Failed');
          if (b.status?.phase === 'Succeeded') succeeded.set(b.metadata.name ?? '', b);
        }
        return succeeded.size >= 3;
      },
      200_000,
      'three scheduled backups Succeeded',
    );

    // Each is owned by the replication (controller), named and annotated by its slot, created soon after it.
    const owner = await c.client.get(redisReplications.type, { namespace: ns, name: NAME });
    const lags: number[] = [];
    for (const b of succeeded.values()) {
      expect(b.metadata.ownerReferences).toEqual([expect.objectContaining({ kind: 'RedisReplication', name: NAME, uid: owner.metadata.uid, controller: true })]);
      const slot = b.metadata.annotations?.[SLOT_ANNOTATION] ?? '';
      expect(new Date(slot).getUTCSeconds()).toBe(0);
      expect(b.metadata.name).toBe(`${NAME}-${slot.replace(/[-:T]/g, '').slice(0, 12)}`);
      lags.push(new Date(b.metadata.creationTimestamp ?? 0).getTime() - new Date(slot).getTime());
    }
    console.info(`[backup-schedule] scheduled backups seen: ${[...seen].sort().join(', ')}; creation after slot (ms): ${lags.join(', ')}`);
    // The slots after the first are taken on time (the first slot may be the one before the schedule was added).
    expect(lags.sort((a, b) => a - b)[1]).toBeLessThan(15_000);

    // Retention: exactly two of the schedule's own remain (the newest), with their objects; the pruned ones' objects
    // are gone with them (deletionPolicy Delete); the hand-made backup and its object are untouched.
    const remaining = await eventually(
      async () => {
        const own = [...(await backups()).values()].filter(isScheduled);
        return own.length === 2 && own.every((b) => b.metadata.deletionTimestamp === undefined && b.status?.phase === 'Succeeded') ? own : undefined;
      },
      90_000,
      'exactly two scheduled backups remain',
    );
    const newestTwo = [...succeeded.keys()].sort().slice(-2);
    const remainingNames = remaining.map((b) => b.metadata.name ?? '').sort();
    // A fourth may have been taken meanwhile: the two that remain are the newest.
    expect((remainingNames[1] ?? '') >= (newestTwo[1] ?? '~')).toBe(true);
    for (const b of remaining) expect(await objectExists(b.status?.location)).toBe(true);
    const pruned = [...succeeded.values()].filter((b) => !remainingNames.includes(b.metadata.name ?? ''));
    expect(pruned.length).toBeGreaterThanOrEqual(1);
    for (const b of pruned) expect(await eventually(async () => !(await objectExists(b.status?.location)), 30_000, `object of ${b.metadata.name ?? ''} deleted`)).toBe(true);
    const handMadeNow = (await backups()).get('by-hand');
    expect(handMadeNow?.metadata.uid).toBe(byHand.metadata.uid);
    expect(await objectExists(handMadeNow?.status?.location)).toBe(true);
    const status = await scheduleStatus();
    expect(status).toMatchObject({ retained: 2 });
    expect(remainingNames).toContain(status?.lastBackup);
    expect(new Date(status?.nextScheduleTime ?? 0).getTime()).toBeGreaterThan(Date.now() - 5_000);

    // Suspend: across the next slot, no backup is created.
    await c.client.patch(redisReplications.type, { namespace: ns, name: NAME }, { type: 'merge', body: { spec: { backup: { suspend: true } } } });
    await eventually(async () => (await scheduleStatus())?.message?.startsWith('suspended') === true, 30_000, 'the schedule reports suspended');
    // A backup created just before the suspend took effect may still finish; the set is read once it has settled.
    await eventually(async () => [...(await backups()).values()].filter(isScheduled).every((b) => b.status?.phase === 'Succeeded' && b.metadata.deletionTimestamp === undefined), 60_000, 'no active scheduled backup');
    const before = [...(await backups()).keys()].sort();
    const untilAfterNextSlot = 60_000 - (Date.now() % 60_000) + 8_000;
    await sleep(untilAfterNextSlot);
    expect([...(await backups()).keys()].sort()).toEqual(before);
    expect((await scheduleStatus())?.nextScheduleTime).toBeUndefined();
  });
});
