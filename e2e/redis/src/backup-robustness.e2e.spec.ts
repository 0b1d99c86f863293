// RedisBackup under stress on the real node (issue #17): a replication holding about 288 MiB of incompressible
// values, so that a backup streams for seconds. (a) The operator container is SIGKILLed while a backup is Running:
// a poller HEADs the backup's final key the whole time and must only ever see "absent" or the one complete object
// (its size and ETag never change, and its SHA-256 read back at the end equals status.sha256); the backup ends
// Succeeded (or Failed with a reason) after the kubelet restarts the operator, and no incomplete multipart upload is
// left under the key. (b) A writer does SET + WAIT 1 through the primary Service every few ms during a backup: no
// write may fail and every one must be acknowledged by a replica; the worst latency is logged, not asserted.
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import type { V1Pod } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, cluster, connect, connectTo, deleteNamespace, eventually, freshNamespace, memberPods, objectNames, operatorPassword, redisImage, redisReplications, replicationReady, secretValue } from './fixtures.ts';
import type { Cluster } from './fixtures.ts';

/** What the suite writes and reads of a RedisBackup (written out: e2e suites do not import the operator). */
type RedisBackup = CustomResourceObject<
  {
    replicationRef: { name: string };
    destination: { s3: { endpoint: string; bucket: string; prefix?: string; forcePathStyle?: boolean; credentialsSecretRef: { name: string } } };
  },
  { phase?: string; member?: string; sizeBytes?: number; sha256?: string; location?: string; startTime?: string; completionTime?: string; conditions?: Condition[] }
>;

const backupType = resourceType<RedisBackup>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisBackup', plural: 'redisbackups', namespaced: true });
const NAME = 'big';
/** 2,304 values of 128 KiB of random bytes: about 288 MiB that LZF cannot shrink. */
const VALUES = 2_304;
const VALUE_BYTES = 128 * 1024;

let c: Cluster;
let ns = '';
let operator: OperatorProcess | undefined;
let s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
let s3Client: S3Client;
let password = '';
const bucket = `e2e-backup-robust-${randomBytes(3).toString('hex')}`;

async function primaryPod(): Promise<V1Pod> {
  const rr = await replicationReady(c, ns, NAME);
  const pod = (await memberPods(c, ns, NAME)).find((p) => p.metadata?.name === rr.status?.primary);
  if (pod === undefined) throw new Error('no primary Pod');
  return pod;
}

function getBackup(name: string): Promise<RedisBackup> {
  return c.client.get(backupType, { namespace: ns, name });
}

async function createBackup(name: string): Promise<void> {
  await c.client.create(backupType, {
    apiVersion: API_VERSION,
    kind: 'RedisBackup',
    metadata: { namespace: ns, name },
    spec: { replicationRef: { name: NAME }, destination: { s3: { endpoint: s3.endpoint, bucket, prefix: 'robust', forcePathStyle: true, credentialsSecretRef: { name: 's3-creds' } } } },
  });
}

async function finished(name: string, timeoutMs = 300_000): Promise<RedisBackup> {
  return eventually(
    async () => {
      const b = await getBackup(name);
      return b.status?.phase === 'Succeeded' || b.status?.phase === 'Failed' ? b : undefined;
    },
    timeoutMs,
    `RedisBackup ${name} finished`,
  );
}

/** What one HEAD of the final key saw: absent, or an object of this size and ETag. */
type Sighting = { readonly at: number; readonly present: false } | { readonly at: number; readonly present: true; readonly size: number; readonly etag: string };

/** HEADs `key` every 50 ms until `signal` aborts, appending to `seen`; resolves with it. Any answer but 200 or 404 rejects. */
async function watchKey(key: string, signal: AbortSignal, seen: Sighting[]): Promise<Sighting[]> {
  while (!signal.aborted) {
    const at = Date.now();
    try {
      const head = await s3Client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      seen.push({ at, present: true, size: head.ContentLength ?? -1, etag: head.ETag ?? '' });
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 404) throw err;
      seen.push({ at, present: false });
    }
    await sleep(50);
  }
  return seen;
}

/** SHA-256 and size of the object under `key`, read as a stream. */
async function storedDigest(key: string): Promise<{ sha256: string; size: number }> {
  const object = await s3Client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of object.Body as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { sha256: hash.digest('hex'), size };
}

function keyOf(backup: RedisBackup): string {
  const location = backup.status?.location ?? '';
  expect(location.startsWith(`s3://${bucket}/`), location).toBe(true);
  return location.slice(`s3://${bucket}/`.length);
}

function seconds(backup: RedisBackup): number {
  return (Date.parse(backup.status?.completionTime ?? '') - Date.parse(backup.status?.startTime ?? '')) / 1000;
}

describe.skipIf(targetsExistingCluster())('RedisBackup robustness on the real node', () => {
  beforeAll(async () => {
    c = await cluster();
    s3 = (await ensureTestEnv(['s3'])).s3;
    s3Client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));
    ns = await freshNamespace(c, 'e2e-redis-backup-robust');
    operator = await startOperator({ system: 'redis', values: { watchNamespaces: [ns] } });
    await c.client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: ns, name: 's3-creds' }, stringData: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await c.client.create(redisReplications.type, { apiVersion: API_VERSION, kind: 'RedisReplication', metadata: { namespace: ns, name: NAME }, spec: { replicas: 2, image: await redisImage() } });
    await replicationReady(c, ns, NAME, 180_000);
    password = await operatorPassword(c, ns, NAME);

    const redis = await connect(await primaryPod(), password);
    try {
      for (let i = 0; i < VALUES; i += 64) {
        const pipeline = redis.pipeline();
        for (let j = i; j < Math.min(i + 64, VALUES); j++) pipeline.set(`big:${j}`, randomBytes(VALUE_BYTES));
        await pipeline.exec();
      }
      expect(await redis.dbsize()).toBe(VALUES);
      expect(await redis.call('WAIT', '1', '60000')).toBe(1);
    } finally {
      redis.disconnect();
    }
  }, 600_000);

  afterAll(async () => {
    await operator?.stop();
    if (ns !== '') await deleteNamespace(c, ns);
    s3Client.destroy();
  });

  it('keeps serving acknowledged writes through the primary Service while a large backup streams', async () => {
    const service = await c.client.get(coreTypes.service, { namespace: ns, name: objectNames(NAME).primary });
    const host = service.spec?.clusterIP ?? '';
    const secret = secretValue(await c.client.get(coreTypes.secret, { namespace: ns, name: objectNames(NAME).authSecret }), 'password');
    const writer = await connectTo(host, secret, 'default', 10_000);
    const failures: string[] = [];
    let writes = 0;
    let unacknowledged = 0;
    let maxLatencyMs = 0;
    const latencies: number[] = [];
    const stop = new AbortController();
    const writing = (async () => {
      for (let n = 0; !stop.signal.aborted; n++) {
        const started = performance.now();
        try {
          await writer.set(`during:${n}`, String(n));
          if (Number(await writer.call('WAIT', '1', '2000')) < 1) unacknowledged++;
          writes++;
        } catch (err) {
          failures.push(err instanceof Error ? err.message : String(err));
        }
        const latency = performance.now() - started;
        latencies.push(latency);
        maxLatencyMs = Math.max(maxLatencyMs, latency);
        await sleep(5);
      }
    })();
    try {
      await sleep(1_000);
      await createBackup('during-writes');
      const backup = await finished('during-writes');
      await sleep(1_000);
      stop.abort();
      await writing;
      expect(backup.status?.phase, JSON.stringify(backup.status?.conditions)).toBe('Succeeded');
      expect(backup.status?.sizeBytes).toBeGreaterThan(VALUES * VALUE_BYTES);
      const sorted = [...latencies].sort((a, b) => a - b);
      const p99 = sorted[Math.floor(sorted.length * 0.99)] ?? 0;
      console.log(
        `writes during a ${backup.status?.sizeBytes ?? 0}-byte backup (${seconds(backup)} s, from ${backup.status?.member ?? '?'}): ${writes} SET+WAIT 1 through the primary Service, ` +
          `${failures.length} failed, ${unacknowledged} unacknowledged; latency p50 ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${maxLatencyMs.toFixed(1)} ms`,
      );
      expect(failures).toEqual([]);
      expect(unacknowledged).toBe(0);
      expect(writes).toBeGreaterThan(0);
    } finally {
      stop.abort();
      await writing;
      writer.disconnect();
    }
  }, 600_000);

  it('leaves no half object under the final key when the operator is SIGKILLed mid-backup, and ends cleanly after the restart', async () => {
    await createBackup('killed');
    const running = await eventually(
      async () => {
        const b = await getBackup('killed');
        return b.status?.phase === 'Running' && b.status.location !== undefined ? b : undefined;
      },
      120_000,
      'RedisBackup killed Running',
    );
    const key = keyOf(running);
    const stop = new AbortController();
    const seen: Sighting[] = [];
    const watching = watchKey(key, stop.signal, seen);
    try {
      // Kill once bytes flow: the multipart upload exists (Redis first waits repl-diskless-sync-delay, then streams).
      await eventually(
        async () => ((await s3Client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }))).Uploads?.length ?? 0) > 0,
        60_000,
        'a multipart upload under the key',
      );
      const exit = await operator?.kill('SIGKILL');
      const killedAt = Date.now();
      expect(exit).toMatchObject({ signal: 'SIGKILL' });
      // Nothing can have changed the status since: the kill happened while the backup ran.
      const atKill = await getBackup('killed');
      expect(atKill.status?.phase).toBe('Running');
      const uploadsAtKill = await s3Client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
      // What the crash left: an incomplete upload, and nothing under the key itself.
      expect(uploadsAtKill.Uploads?.length).toBe(1);
      expect(seen.every((x) => !x.present)).toBe(true);
      await operator?.restart();
      const restartedMs = Date.now() - killedAt;
      const done = await finished('killed');
      stop.abort();
      const sightings = await watching;
      const ready = done.status?.conditions?.find((x) => x.type === 'Ready');
      console.log(
        `operator SIGKILLed mid-backup (${uploadsAtKill.Uploads?.length ?? 0} incomplete upload(s) under the key at the kill), Ready again after ${restartedMs} ms; ` +
          `the backup ended ${done.status?.phase ?? '?'} (${ready?.reason ?? '?'}: ${ready?.message ?? ''}) ${Date.now() - killedAt} ms after the kill; ${sightings.length} HEADs of the key`,
      );
      expect(keyOf(done)).toBe(key);
      if (done.status?.phase === 'Failed') {
        // A clean failure names its reason and leaves nothing under the key.
        expect(ready?.reason).toMatch(/^[A-Z][A-Za-z]+$/);
        expect(sightings.every((s) => !s.present)).toBe(true);
      } else {
        expect(done.status?.phase).toBe('Succeeded');
        const stored = await storedDigest(key);
        expect(stored).toEqual({ sha256: done.status?.sha256, size: done.status?.sizeBytes });
        // Every sighting of an object is the one complete object, and once there it stays.
        const present = sightings.filter((s) => s.present);
        const first = sightings.findIndex((s) => s.present);
        expect(first === -1 || sightings.slice(first).every((s) => s.present)).toBe(true);
        const head = await s3Client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        for (const s of present) expect({ size: s.size, etag: s.etag }).toEqual({ size: stored.size, etag: head.ETag });
      }
      expect(sightings.length).toBeGreaterThan(10);
      expect(sightings.some((s) => !s.present)).toBe(true);
      const uploads = await s3Client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }));
      expect(uploads.Uploads ?? []).toEqual([]);
      // Exactly one object for this backup: no second key was taken after the restart.
      const objects = await s3Client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `robust/${ns}/${NAME}/` }));
      const earlier = keyOf(await getBackup('during-writes'));
      const mine = (objects.Contents ?? []).filter((o) => o.Key !== earlier);
      expect(mine.map((o) => o.Key)).toEqual(done.status?.phase === 'Succeeded' ? [key] : []);
    } finally {
      stop.abort();
      await watching.catch(() => undefined);
    }
  }, 600_000);
});
