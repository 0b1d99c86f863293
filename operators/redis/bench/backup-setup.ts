// What the backup and the restore benchmarks (issue #17) share: the operator as its users run it (its image on
// testenv's node, its chart installed into a release namespace of its own, watching only the benchmark's namespace),
// a bucket of testenv's S3 server (versitygw) with the credentials Secret, a 2-member RedisReplication of the node's
// Redis image filled with 512 MiB of incompressible values (4,096 × 128 KiB, WAIT 1), RedisBackups through the
// operator, and the clean-up (every object stored, the namespace, the release).
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { adminConnection, deleteNamespace, freshNamespace, randomSuffix, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes } from '@domain-operators/reconcile';
import { ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import { Redis } from 'ioredis';
import { redisBackups, redisReplications } from '../src/api/v1alpha1/index.ts';
import type { RedisBackup } from '../src/api/v1alpha1/index.ts';
import { s3ClientFor } from '../src/backup/s3-upload.ts';
import type { S3Target } from '../src/backup/s3-upload.ts';
import { OPERATOR_USERNAME } from '../src/redis/manifests.ts';
import { isReady, memberPods, operatorPassword, replication } from './members.ts';
import type { Target } from './members.ts';

/** Values written into the source replication. */
export const VALUES = 4_096;
/** Bytes per value (random, so the RDB does not compress them). */
export const VALUE_BYTES = 128 * 1024;
/** The Secret with the S3 credentials, in the benchmark's namespace. */
export const S3_CREDENTIALS_SECRET = 's3-creds';

/** Resolves after `ms`. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A logger that prefixes every line with `[tag]` and the UTC time of day, on stderr (the report goes to stdout). */
export function benchLog(tag: string): (message: string) => void {
  return (message) => {
    console.error(`[${tag}] ${new Date().toISOString().slice(11, 23)} ${message}`);
  };
}

/** Polls `check` every `intervalMs` until it yields a value (a rejection counts as none); throws after `timeoutMs`. */
export async function until<T>(check: () => Promise<T | undefined>, timeoutMs: number, intervalMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not within ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/** A running benchmark's fixtures. */
export interface BackupBench {
  readonly operator: OperatorProcess;
  /** The source RedisReplication (2 members, filled). */
  readonly target: Target;
  readonly primaryIp: string;
  /** The linked replica's address (the member a `PreferReplica` backup reads). */
  readonly replicaIp: string;
  /** The operator user's password of the source replication. Never log it. */
  readonly password: string;
  /** The benchmark's bucket, as the operator's S3 functions take it. */
  readonly s3Target: S3Target;
  /** The node's Redis image, which the members run. */
  readonly redisImage: string;
}

/** What {@link startBackupBench} created, for {@link stopBackupBench}; filled as set-up goes. */
export interface BackupBenchResources {
  admin?: S3Client;
  bucket?: string;
  namespace?: string;
  operator?: OperatorProcess;
}

/** Fills the primary with {@link VALUES} random values and waits until a replica has them all. */
async function fill(host: string, password: string): Promise<void> {
  const redis = new Redis({ host, port: 6379, username: OPERATOR_USERNAME, password, lazyConnect: true, maxRetriesPerRequest: 0 });
  await redis.connect();
  try {
    for (let i = 0; i < VALUES; i += 64) {
      const pipeline = redis.pipeline();
      for (let j = i; j < Math.min(i + 64, VALUES); j++) pipeline.set(`bench:${j}`, randomBytes(VALUE_BYTES));
      await pipeline.exec();
    }
    if (Number(await redis.call('WAIT', '1', '120000')) < 1) throw new Error('no replica acknowledged the dataset');
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts testenv's apiserver and S3 if they are not up (the node must be), creates the bucket, the namespace (named
 * after `tag`), the operator's release and the filled 2-member RedisReplication `bench`. Records what it created in
 * `resources` as it goes, so {@link stopBackupBench} removes it also after a failure half-way.
 */
export async function startBackupBench(tag: string, resources: BackupBenchResources, log: (message: string) => void): Promise<BackupBench> {
  const env = await ensureTestEnv(['apiserver', 's3']);
  if (env.node === undefined) throw new Error('testenv: the node is not up (env.json has no node)');
  const { client } = await adminConnection();
  const s3 = env.s3;
  const s3Target: S3Target = { endpoint: s3.endpoint, bucket: `${tag}-${randomSuffix()}`, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } };
  resources.admin = s3ClientFor(s3Target);
  await resources.admin.send(new CreateBucketCommand({ Bucket: s3Target.bucket }));
  resources.bucket = s3Target.bucket;
  const ns = await freshNamespace({}, `bench-redis-${tag}`);
  resources.namespace = ns;
  const operator = await startOperator({ system: 'redis', values: { watchNamespaces: [ns] }, releaseNamespace: `bench-redis-op-${randomSuffix()}` });
  resources.operator = operator;
  await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace: ns, name: S3_CREDENTIALS_SECRET }, stringData: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
  const target: Target = { client, namespace: ns, name: 'bench' };
  await client.create(redisReplications.type, { apiVersion: redisReplications.apiVersion, kind: redisReplications.kind, metadata: { namespace: ns, name: target.name }, spec: { replicas: 2, image: env.node.redisImage } });
  const rr = await until(
    async () => {
      const r = await replication(target);
      return isReady(r) && r.status?.readyReplicas === 2 ? r : undefined;
    },
    180_000,
    250,
    'RedisReplication Ready',
  );
  const pods = await memberPods(target);
  const primary = pods.find((p) => p.metadata?.name === rr.status?.primary);
  const replica = pods.find((p) => p.metadata?.name !== rr.status?.primary);
  const primaryIp = primary?.status?.podIP;
  const replicaIp = replica?.status?.podIP;
  if (primary === undefined || replica === undefined || primaryIp === undefined || replicaIp === undefined) throw new Error('no primary and replica Pod addresses');
  const password = await operatorPassword(target);
  const fillStarted = performance.now();
  await fill(primaryIp, password);
  log(`filled ${VALUES} × ${VALUE_BYTES} bytes in ${Math.round(performance.now() - fillStarted)} ms; operator ready in ${operator.namespace}; replica ${replica.metadata?.name ?? '?'}`);
  return {
    operator,
    target,
    primaryIp,
    replicaIp,
    password,
    s3Target,
    redisImage: env.node.redisImage,
  };
}

/**
 * Creates the RedisBackup `name` of the source replication into the benchmark's bucket (prefix `operator`) and waits
 * until it Succeeded (rejects when it Failed, or after 10 minutes). Resolves with it and the time it took.
 */
export async function backUp(b: BackupBench, name: string): Promise<{ backup: RedisBackup; totalMs: number }> {
  const t = b.target;
  const started = performance.now();
  await t.client.create(redisBackups.type, {
    apiVersion: `${redisBackups.type.group}/${redisBackups.type.version}`,
    kind: 'RedisBackup',
    metadata: { namespace: t.namespace, name },
    spec: {
      replicationRef: { name: t.name },
      deletionPolicy: 'Retain',
      destination: { s3: { endpoint: b.s3Target.endpoint ?? '', bucket: b.s3Target.bucket, prefix: 'operator', forcePathStyle: true, credentialsSecretRef: { name: S3_CREDENTIALS_SECRET } } },
    },
  });
  const done = await until(
    async () => {
      const backup = await t.client.get(redisBackups.type, { namespace: t.namespace, name });
      return backup.status?.phase === 'Succeeded' || backup.status?.phase === 'Failed' ? backup : undefined;
    },
    600_000,
    50,
    `RedisBackup ${name} finished`,
  );
  const totalMs = Math.round(performance.now() - started);
  if (done.status?.phase !== 'Succeeded') throw new Error(`RedisBackup ${name} failed: ${JSON.stringify(done.status?.conditions)}`);
  return { backup: done, totalMs };
}

async function emptyBucket(client: S3Client, bucket: string): Promise<void> {
  const listing = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  for (const o of listing.Contents ?? []) await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: o.Key }));
  await client.send(new DeleteBucketCommand({ Bucket: bucket }));
}

/** Removes what `resources` names: the bucket's objects and the bucket, the namespace, the operator's release. Never throws. */
export async function stopBackupBench(resources: BackupBenchResources, log: (message: string) => void): Promise<void> {
  log('cleaning up');
  if (resources.admin !== undefined && resources.bucket !== undefined) {
    const bucket = resources.bucket;
    await emptyBucket(resources.admin, bucket).catch((err: unknown) => {
      log(`could not empty ${bucket}: ${String(err)}`);
    });
  }
  resources.admin?.destroy();
  if (resources.namespace !== undefined) await deleteNamespace(resources.namespace).catch(() => undefined);
  await resources.operator?.stop().catch((err: unknown) => {
    log(`could not stop the operator: ${String(err)}`);
  });
}

/** Writes `report` as JSON to `.reports/bench/<fileName>` in the checkout, prints `formatted`, and logs where it went. */
export async function publishReport(fileName: string, report: unknown, formatted: string, log: (message: string) => void): Promise<void> {
  const dir = join(resolvePaths().root, '.reports', 'bench');
  await mkdir(dir, { recursive: true });
  const out = join(dir, fileName);
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  console.log(formatted);
  log(`written to ${out}`);
}

/** Logs a failed run with the operator's last log lines (when it was started), for the caller to rethrow. Never throws. */
export async function logFailure(err: unknown, resources: BackupBenchResources, log: (message: string) => void): Promise<void> {
  log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  if (resources.operator !== undefined) log(`operator log tail:\n${await resources.operator.logTail(40).catch(() => '(unavailable)')}`);
}

/** Runs a benchmark's `main` as the process: exit code 0 when it resolves, 1 with the error printed when it rejects. */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err: unknown) => {
      console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
      process.exit(1);
    },
  );
}
