// Restore into a new RedisReplication on the real node (issue #17): keys written with WAIT 1 are backed up to
// testenv's S3 server (versitygw) by a RedisBackup; a new RedisReplication restored from it starts its first member
// from the object after the operator's agent (an init container of the operator image) checked its SHA-256; so do
// the replicas, in parallel, and they join it by a partial resynchronisation, with no member replaced or restarted
// afterwards (no rollout). Checked independently: every member Pod, reached with its own ioredis client, holds exactly
// those keys and values; status says where the data came from and how many keys the primary had. A corrupted object
// (other bytes under a new key, restored with the original digest) is refused with RestoreVerificationFailed and
// redis-server never starts in that member. The restore cannot be changed once the RedisReplication exists. The
// namespace enforces Pod Security `restricted`, so the restore container passes that admission too.
import { randomBytes } from 'node:crypto';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { eventsOnceSeen, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isNotFound, resourceType } from '@domain-operators/reconcile';
import type { Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, cluster, command, connect, deleteNamespace, eventually, freshNamespace, getReplication, kinds, memberPods, operatorPassword, redisImage, redisReplications, replicationReady } from './fixtures.ts';
import type { Cluster } from './fixtures.ts';

/** What the suite writes and reads of a RedisBackup (written out: e2e suites do not import the operator). */
type RedisBackup = CustomResourceObject<
  {
    replicationRef: { name: string };
    destination: { s3?: { endpoint: string; bucket: string; prefix?: string; forcePathStyle?: boolean; credentialsSecretRef: { name: string } }; volume?: { claimName: string; path?: string } };
  },
  { phase?: string; sha256?: string; location?: string; sizeBytes?: number; conditions?: Condition[] }
>;
/** `spec.restore` and the restore's status fields, as users write and read them. */
interface Restore {
  backupRef?: { name: string };
  s3?: { endpoint: string; bucket: string; key: string; forcePathStyle?: boolean; credentialsSecretRef: { name: string }; sha256: string };
}
type RestoredReplication = CustomResourceObject<{ replicas: number; image?: string; restore?: Restore }, { conditions?: Condition[]; restoredFrom?: string; restoredKeys?: number; readyReplicas?: number }>;

const backupType = resourceType<RedisBackup>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisBackup', plural: 'redisbackups', namespaced: true });
const restoredType = resourceType<RestoredReplication>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisReplication', plural: 'redisreplications', namespaced: true });
const KEYS = 300;

let c: Cluster;
let ns = '';
let operator: OperatorProcess | undefined;
let s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
let s3Client: S3Client;
let backup: RedisBackup;
const bucket = `e2e-restore-${randomBytes(3).toString('hex')}`;

function expected(i: number): string {
  return `value-${i}-${'x'.repeat(i % 17)}`;
}

async function primaryOf(name: string): Promise<V1Pod> {
  const rr = await replicationReady(c, ns, name, 180_000);
  const pod = (await memberPods(c, ns, name)).find((p) => p.metadata?.name === rr.status?.primary);
  if (pod === undefined) throw new Error(`no primary Pod of ${name}`);
  return pod;
}

/** Every member of `name` (an independent client to each Pod) holds exactly the KEYS keys and their values. */
async function holdsExactlyTheKeys(name: string, replicas: number): Promise<void> {
  const password = await operatorPassword(c, ns, name);
  const pods = await memberPods(c, ns, name);
  expect(pods.map((p) => p.metadata?.name)).toEqual(Array.from({ length: replicas }, (_, i) => `${name}-${i}`));
  const names = Array.from({ length: KEYS }, (_, i) => `k:${i}`);
  for (const pod of pods) {
    const redis = await connect(pod, password);
    try {
      expect(await redis.dbsize(), pod.metadata?.name).toBe(KEYS);
      expect(await redis.mget(...names), pod.metadata?.name).toEqual(names.map((_, i) => expected(i)));
    } finally {
      redis.disconnect();
    }
  }
}

async function restored(name: string, replicas: number, restore: Restore): Promise<void> {
  await c.client.create(restoredType, { apiVersion: API_VERSION, kind: 'RedisReplication', metadata: { namespace: ns, name }, spec: { replicas, image: await redisImage(), restore } });
}

describe.skipIf(targetsExistingCluster())('restore into a new RedisReplication on the real node', () => {
  beforeAll(async () => {
    c = await cluster();
    s3 = (await ensureTestEnv(['s3'])).s3;
    s3Client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));
    ns = await freshNamespace(c, 'e2e-redis-restore');
    // The members, their restore init container included, must pass Pod Security `restricted` admission.
    await c.client.patch(coreTypes.namespace, { namespace: undefined, name: ns }, { type: 'merge', body: { metadata: { labels: { 'pod-security.kubernetes.io/enforce': 'restricted' } } } });
    operator = await startOperator({ system: 'redis', values: { watchNamespaces: [ns] } });
    await c.client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: ns, name: 's3-creds' }, stringData: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await c.client.create(redisReplications.type, { apiVersion: API_VERSION, kind: 'RedisReplication', metadata: { namespace: ns, name: 'source' }, spec: { replicas: 2, image: await redisImage() } });
    const primary = await primaryOf('source');
    const password = await operatorPassword(c, ns, 'source');
    for (let i = 0; i < KEYS; i += 50) {
      await command(primary, password, ['MSET', ...Array.from({ length: 50 }, (_, j) => [`k:${i + j}`, expected(i + j)]).flat()]);
    }
    expect(await command(primary, password, ['WAIT', '1', '10000'])).toBe(1);
    await c.client.create(backupType, {
      apiVersion: API_VERSION,
      kind: 'RedisBackup',
      metadata: { namespace: ns, name: 'snap' },
      spec: { replicationRef: { name: 'source' }, destination: { s3: { endpoint: s3.endpoint, bucket, prefix: 'redis', forcePathStyle: true, credentialsSecretRef: { name: 's3-creds' } } } },
    });
    backup = await eventually(
      async () => {
        const b = await c.client.get(backupType, { namespace: ns, name: 'snap' });
        return b.status?.phase === 'Succeeded' || b.status?.phase === 'Failed' ? b : undefined;
      },
      180_000,
      'RedisBackup snap finished',
    );
    expect(backup.status?.phase, JSON.stringify(backup.status?.conditions)).toBe('Succeeded');
  }, 420_000);

  afterAll(async () => {
    await operator?.stop();
    if (ns !== '') await deleteNamespace(c, ns);
    s3Client.destroy();
  });

  it('restores a Succeeded RedisBackup: every member of the new replication holds exactly its keys and values', async () => {
    await restored('copy', 3, { backupRef: { name: 'snap' } });
    // The members as they were when the restore was recorded: none is replaced or restarted afterwards (no rollout).
    const atRestore = await eventually(
      async () => ((await c.client.get(restoredType, { namespace: ns, name: 'copy' })).status?.restoredFrom === undefined ? undefined : memberPods(c, ns, 'copy')),
      180_000,
      'status.restoredFrom of copy',
    );
    const primary = await primaryOf('copy');
    const rr = await c.client.get(restoredType, { namespace: ns, name: 'copy' });
    expect(rr.status?.restoredFrom).toBe(backup.status?.location);
    expect(rr.status?.restoredKeys).toBe(KEYS);
    await holdsExactlyTheKeys('copy', 3);
    const now = await memberPods(c, ns, 'copy');
    expect(now.map((p) => p.metadata?.uid)).toEqual(atRestore.map((p) => p.metadata?.uid));
    for (const pod of now) expect(pod.status?.containerStatuses?.find((s) => s.name === 'redis')?.restartCount, pod.metadata?.name).toBe(0);
    // Every member restored the object itself: the replicas joined ordinal 0 by a partial resynchronisation.
    expect(primary.metadata?.name).toBe('copy-0');
    const stats = await command(primary, await operatorPassword(c, ns, 'copy'), ['INFO', 'stats']);
    expect(String(stats)).toMatch(/\r\nsync_full:0\r\n/);
    expect(String(stats)).toMatch(/\r\nsync_partial_ok:2\r\n/);
    // The plan is gone: a member recreated from now on starts from its own data or its primary, never the backup again.
    const plan = await c.client.get(coreTypes.configMap, { namespace: ns, name: 'copy-restore' }).then(
      () => 'still there',
      (err: unknown) => (isNotFound(err) ? 'gone' : String(err)),
    );
    expect(plan).toBe('gone');
    // Nothing restores into a running replication: the restore cannot be changed or removed.
    const change = c.client.patch(restoredType, { namespace: ns, name: 'copy' }, { type: 'merge', body: { spec: { restore: null } } });
    await expect(change).rejects.toThrow(/restore is accepted only when the RedisReplication is created/);
  }, 300_000);

  it('restores a RedisBackup written into a volume claim (the claim mounted read-only by the restoring member)', async () => {
    await c.client.create(kinds.persistentVolumeClaim, {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { namespace: ns, name: 'backups' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', resources: { requests: { storage: '256Mi' } } },
    });
    await c.client.create(backupType, {
      apiVersion: API_VERSION,
      kind: 'RedisBackup',
      metadata: { namespace: ns, name: 'snap-volume' },
      spec: { replicationRef: { name: 'source' }, destination: { volume: { claimName: 'backups', path: '/redis' } } },
    });
    const onVolume = await eventually(
      async () => {
        const b = await c.client.get(backupType, { namespace: ns, name: 'snap-volume' });
        return b.status?.phase === 'Succeeded' || b.status?.phase === 'Failed' ? b : undefined;
      },
      180_000,
      'RedisBackup snap-volume finished',
    );
    expect(onVolume.status?.phase, JSON.stringify(onVolume.status?.conditions)).toBe('Succeeded');
    expect(onVolume.status?.location?.startsWith('pvc://backups/')).toBe(true);
    await restored('copy-volume', 2, { backupRef: { name: 'snap-volume' } });
    await primaryOf('copy-volume');
    const rr = await c.client.get(restoredType, { namespace: ns, name: 'copy-volume' });
    expect(rr.status?.restoredFrom).toBe(onVolume.status?.location);
    expect(rr.status?.restoredKeys).toBe(KEYS);
    await holdsExactlyTheKeys('copy-volume', 2);
    // Once restored, the members no longer mount the source claim (the restore parts left the Pod template).
    for (const pod of await memberPods(c, ns, 'copy-volume')) expect(pod.spec?.volumes?.map((v) => v.name)).not.toContain('restore-source');
  }, 400_000);

  it('refuses a corrupted object with RestoreVerificationFailed, and redis-server never starts on it', async () => {
    const location = backup.status?.location ?? '';
    const object = await s3Client.send(new GetObjectCommand({ Bucket: bucket, Key: location.slice(`s3://${bucket}/`.length) }));
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? new Uint8Array());
    bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] ?? 0) ^ 0xff;
    const key = `redis/corrupted/${randomBytes(4).toString('hex')}.rdb`;
    await s3Client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: bytes }));
    await restored('bad', 2, { s3: { endpoint: s3.endpoint, bucket, key, forcePathStyle: true, credentialsSecretRef: { name: 's3-creds' }, sha256: backup.status?.sha256 ?? '' } });

    const rr = await eventually(
      async () => {
        const r = await c.client.get(restoredType, { namespace: ns, name: 'bad' });
        return r.status?.conditions?.find((x) => x.type === 'Ready')?.reason === 'RestoreVerificationFailed' ? r : undefined;
      },
      120_000,
      'Ready=False RestoreVerificationFailed',
    );
    const ready = rr.status?.conditions?.find((x) => x.type === 'Ready');
    expect(ready?.status).toBe('False');
    expect(ready?.message).toContain(backup.status?.sha256);
    expect(rr.status?.restoredFrom).toBeUndefined();
    // Every member restores and checks the same digest, so Ready names the first to fail; wait until each has.
    const restoreExit = (p: V1Pod): number | undefined => {
      const init = p.status?.initContainerStatuses?.find((s) => s.name === 'restore');
      return (init?.state?.terminated ?? init?.lastState?.terminated)?.exitCode;
    };
    const pods = await eventually(
      async () => {
        const all = await Promise.all(['bad-0', 'bad-1'].map((name) => c.client.get(coreTypes.pod, { namespace: ns, name })));
        return all.every((p) => restoreExit(p) !== undefined) ? all : undefined;
      },
      120_000,
      'the restore container of every member exited',
    );
    for (const pod of pods) {
      expect(restoreExit(pod), pod.metadata?.name).toBe(1);
      const redis = pod.status?.containerStatuses?.find((s) => s.name === 'redis');
      expect(redis?.state?.running).toBeUndefined();
      expect(redis?.state?.terminated).toBeUndefined();
      expect(redis?.lastState?.terminated).toBeUndefined();
      expect(redis?.restartCount ?? 0).toBe(0);
    }
    // The other member waits: no topology is decided, nothing is labelled primary.
    expect((await memberPods(c, ns, 'bad')).filter((p) => p.metadata?.labels?.['redis.domain-operators.io/role'] === 'primary')).toEqual([]);
    const events = (await eventsOnceSeen(c.client, ns, (e) => e.regarding.name === 'bad' && e.reason === 'RestoreVerificationFailed', { what: 'a RestoreVerificationFailed Event' })).filter((e) => e.regarding.name === 'bad');
    expect(events.map((e) => e.reason)).toContain('RestoreVerificationFailed');
    const everything = JSON.stringify({ status: rr.status, events, pods: pods.map((p) => p.status), log: await operator?.logTail(2_000) });
    expect(everything).not.toContain(s3.secretAccessKey);
    expect((await getReplication(c, ns, 'bad')).status?.conditions?.find((x) => x.type === 'Ready')?.reason).toBe('RestoreVerificationFailed');
  }, 200_000);
});
