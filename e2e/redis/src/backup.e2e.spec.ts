// RedisBackup on the real node (issue #17): the operator, a Pod of its chart, takes a snapshot over the network from
// a member container (a linked replica) and streams it to testenv's real S3 server (versitygw). Checked
// independently: the object read back with the AWS SDK has the SHA-256 and size in status, a fresh redis-server
// loads it with exactly the keys written with WAIT 1, the primary took writes without an error while the backup ran,
// and wrong credentials fail the backup with AccessDenied and no secret in status, Events or the operator's log.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, eventType, resourceType } from '@domain-operators/reconcile';
import type { Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import type { V1Pod } from '@kubernetes/client-node';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, cluster, command, deleteNamespace, eventually, freshNamespace, memberPods, operatorPassword, redisImage, redisReplications, replicationReady } from './fixtures.ts';
import type { Cluster } from './fixtures.ts';

/** What the suite writes and reads of a RedisBackup (written out: e2e suites do not import the operator). */
type RedisBackup = CustomResourceObject<
  {
    replicationRef: { name: string };
    source?: 'PreferReplica' | 'Primary';
    destination: { s3: { endpoint: string; bucket: string; prefix?: string; region?: string; forcePathStyle?: boolean; credentialsSecretRef: { name: string } } };
  },
  { phase?: string; member?: string; sizeBytes?: number; sha256?: string; location?: string; replicationOffset?: number; conditions?: Condition[] }
>;

const backupType = resourceType<RedisBackup>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisBackup', plural: 'redisbackups', namespaced: true });
const NAME = 'cache';
const KEYS = 500;

let c: Cluster;
let ns = '';
let operator: OperatorProcess | undefined;
let s3: { endpoint: string; region: string; accessKeyId: string; secretAccessKey: string };
let s3Client: S3Client;
let password = '';
const bucket = `e2e-backups-${randomBytes(3).toString('hex')}`;

async function primaryPod(): Promise<V1Pod> {
  const rr = await replicationReady(c, ns, NAME);
  const pod = (await memberPods(c, ns, NAME)).find((p) => p.metadata?.name === rr.status?.primary);
  if (pod === undefined) throw new Error('no primary Pod');
  return pod;
}

async function finished(name: string): Promise<RedisBackup> {
  return eventually(
    async () => {
      const b = await c.client.get(backupType, { namespace: ns, name });
      return b.status?.phase === 'Succeeded' || b.status?.phase === 'Failed' ? b : undefined;
    },
    180_000,
    `RedisBackup ${name} finished`,
  );
}

/** Key count and one value of `rdb` as a fresh redis-server on the host loads it. */
async function loaded(rdb: Buffer, key: string): Promise<{ keys: number; value: string | null }> {
  const dir = await mkdtemp(join(tmpdir(), 'e2e-rdb-'));
  await writeFile(join(dir, 'dump.rdb'), rdb);
  const port = 21_000 + Math.floor(Math.random() * 20_000);
  const server = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--dbfilename', 'dump.rdb', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  try {
    return await eventually(
      async () => {
        const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
        redis.on('error', () => undefined);
        try {
          await redis.connect();
          return { keys: await redis.dbsize(), value: await redis.get(key) };
        } finally {
          redis.disconnect();
        }
      },
      10_000,
      'redis-server loaded the backup',
    );
  } finally {
    server.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

describe.skipIf(targetsExistingCluster())('RedisBackup to S3 on the real node', () => {
  beforeAll(async () => {
    c = await cluster();
    s3 = (await ensureTestEnv(['s3'])).s3;
    s3Client = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await s3Client.send(new CreateBucketCommand({ Bucket: bucket }));
    ns = await freshNamespace(c, 'e2e-redis-backup');
    operator = await startOperator({ system: 'redis', values: { watchNamespaces: [ns] } });
    for (const [name, secret] of [
      ['s3-creds', s3.secretAccessKey],
      ['s3-wrong', 'not-the-secret-key-1234'],
    ] as const) {
      await c.client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: ns, name }, stringData: { accessKeyId: s3.accessKeyId, secretAccessKey: secret } });
    }
    await c.client.create(redisReplications.type, { apiVersion: API_VERSION, kind: 'RedisReplication', metadata: { namespace: ns, name: NAME }, spec: { replicas: 2, image: await redisImage() } });
    await replicationReady(c, ns, NAME, 180_000);
    password = await operatorPassword(c, ns, NAME);
  });

  afterAll(async () => {
    await operator?.stop();
    if (ns !== '') await deleteNamespace(c, ns);
    s3Client.destroy();
  });

  it('streams a linked replica’s snapshot to its own key: the digest in status matches the object, which holds every key written with WAIT 1', async () => {
    const primary = await primaryPod();
    for (let i = 0; i < KEYS; i += 50) {
      await command(primary, password, ['MSET', ...Array.from({ length: 50 }, (_, j) => [`k:${i + j}`, `v${i + j}`]).flat()]);
    }
    expect(await command(primary, password, ['WAIT', '1', '10000'])).toBe(1);

    // Writes go on while the backup runs: none may fail.
    let writes = 0;
    const failures: string[] = [];
    const writer$ = { writing: true };
    const writer = (async () => {
      for (let n = 0; writer$.writing; n++) {
        await command(primary, password, ['SET', `during:${n}`, 'x']).then(
          () => {
            writes++;
          },
          (err: unknown) => {
            failures.push((err as Error).message);
          },
        );
      }
    })();
    await c.client.create(backupType, {
      apiVersion: API_VERSION,
      kind: 'RedisBackup',
      metadata: { namespace: ns, name: 'first' },
      spec: { replicationRef: { name: NAME }, destination: { s3: { endpoint: s3.endpoint, bucket, prefix: 'redis', forcePathStyle: true, credentialsSecretRef: { name: 's3-creds' } } } },
    });
    const backup = await finished('first');
    writer$.writing = false;
    await writer;
    expect(backup.status?.phase, JSON.stringify(backup.status?.conditions)).toBe('Succeeded');
    expect(failures).toEqual([]);
    expect(writes).toBeGreaterThan(0);

    expect(backup.status?.member).not.toBe(primary.metadata?.name);
    const prefix = `s3://${bucket}/redis/${ns}/${NAME}/`;
    expect(backup.status?.location?.startsWith(prefix)).toBe(true);
    expect(backup.status?.location?.slice(prefix.length)).toMatch(/^[0-9]{14}-[0-9a-f]{8}\.rdb$/);
    expect(backup.status?.replicationOffset).toBeGreaterThan(0);

    const key = backup.status?.location?.slice(`s3://${bucket}/`.length) ?? '';
    const object = await s3Client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? new Uint8Array());
    expect(bytes.length).toBe(backup.status?.sizeBytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(backup.status?.sha256);
    const content = await loaded(bytes, 'k:321');
    expect(content.value).toBe('v321');
    // Every key written before the backup, and at most the writes that raced it.
    expect(content.keys).toBeGreaterThanOrEqual(KEYS);
    expect(content.keys).toBeLessThanOrEqual(KEYS + writes);
  });

  it('fails with AccessDenied on wrong credentials, and the secret is nowhere in status, Events or the log', async () => {
    await c.client.create(backupType, {
      apiVersion: API_VERSION,
      kind: 'RedisBackup',
      metadata: { namespace: ns, name: 'wrong-credentials' },
      spec: { replicationRef: { name: NAME }, destination: { s3: { endpoint: s3.endpoint, bucket, forcePathStyle: true, credentialsSecretRef: { name: 's3-wrong' } } } },
    });
    const backup = await finished('wrong-credentials');
    expect(backup.status?.phase).toBe('Failed');
    const ready = backup.status?.conditions?.find((x) => x.type === 'Ready');
    expect(ready).toMatchObject({ status: 'False', reason: 'AccessDenied' });
    expect(ready?.message).toContain(bucket);
    const events = await eventually(
      async () => {
        const list = await c.client.list(eventType, { namespace: ns });
        const about = list.items.filter((e) => e.regarding.name === 'wrong-credentials');
        return about.length > 0 ? about : undefined;
      },
      30_000,
      'an Event about the failed backup',
    );
    expect(events.map((e) => e.reason)).toContain('AccessDenied');
    const everything = JSON.stringify({ status: backup.status, events, log: await operator?.logTail(2_000) });
    expect(everything).not.toContain('not-the-secret-key-1234');
    expect(everything).not.toContain(s3.secretAccessKey);
  });
});
