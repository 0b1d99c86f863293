// examples/redis applied for real, as a user applies it (`kubectl apply -f examples/redis/`, file order, through the
// Kubernetes API), with the redis operator running as its chart's ServiceAccount and the members run as containers
// on testenv's node (or the cluster of `$E2E_KUBECONFIG`); checked with an independent Redis client on every member.
// Two changes are made to the examples, here and not in the files: the namespace's name (a random suffix, so that
// this run touches nobody else's objects; the Redis operator needs no connection, so nothing in the examples depends
// on where it runs), and, on testenv, the RedisReplication's `image`: the example's `redis:7.2` cannot be pulled
// there, so it runs the node's Redis image (Debian's redis-server 7.0; `redisImage()`). Members, resources, storage,
// config, failover and the user's rules stay as the examples have them. On testenv the RedisBackup's destination and
// its Secret point at testenv's S3 server (its endpoint, path-style, its credentials, the example's bucket created
// there); the volume backup writes into the example's claim as it is (testenv's default StorageClass,
// local-path-provisioner, binds it). On an existing cluster, which has no S3 server of ours, the backup examples (and
// the volume backup's claim) are left out, and so is the replication restored from the S3 one.
import type { KubernetesObject, V1PersistentVolumeClaim, V1Pod } from '@kubernetes/client-node';
import { adminClient, ExampleRun, kstatusNow, randomSuffix, startOperator, targetsExistingCluster, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { CreateBucketCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { coreTypes, isNotFound, requestFor as request, resourceType } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import type { S3Info } from '@domain-operators/testenv';
import type { Client } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attempt, command, deleteNamespace, eventually, memberPods, objectNames, operatorPassword, redisImage, ROLE_LABEL, secretValue } from './fixtures.ts';
import type { Cluster, RedisReplication, RedisUser } from './fixtures.ts';

const suffix = randomSuffix();
const run = new ExampleRun('redis', suffix);
const { resources, namespaces } = run;
const persistentVolumeClaims = resourceType<V1PersistentVolumeClaim>({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });

/**
 * A redis.conf value as `CONFIG GET` reads it back: memory amounts with a unit in bytes (Redis's units: `k`, `m`,
 * `g` are powers of 1000, `kb`, `mb`, `gb` of 1024, any case), anything else as it is. Pure.
 */
function asRedisReadsIt(value: string): string {
  const memory = /^(\d+)(k|kb|m|mb|g|gb)$/i.exec(value.trim());
  if (memory === null) return value;
  const factors: Readonly<Record<string, number>> = { k: 1e3, kb: 1024, m: 1e6, mb: 1024 ** 2, g: 1e9, gb: 1024 ** 3 };
  return String(Number(memory[1]) * (factors[(memory[2] ?? '').toLowerCase()] ?? 1));
}

/** A copy of `object` with `spec.image` set to `image` when it is a RedisReplication; any other object as it is. Pure. */
function withRedisImage(object: KubernetesObject, image: string): KubernetesObject {
  if (object.kind !== 'RedisReplication') return object;
  const copy = structuredClone(object) as RedisReplication;
  copy.spec.image = image;
  return copy;
}

/**
 * A copy of a RedisReplication with a backup schedule (`spec.backup`) whose S3 destination is testenv's `s3` server;
 * without `s3` (an existing cluster) the schedule is taken out, so no example ever sends a backup anywhere else.
 * Any other object as it is. Pure.
 */
function withScheduleAt(object: KubernetesObject, s3: S3Info | undefined): KubernetesObject {
  const backup = (object as { spec?: { backup?: { destination?: { s3?: Record<string, unknown> } } } }).spec?.backup;
  if (object.kind !== 'RedisReplication' || backup === undefined) return object;
  const copy = structuredClone(object) as KubernetesObject & { spec: { backup?: { destination: { s3?: Record<string, unknown> } } } };
  if (s3 === undefined) delete copy.spec.backup;
  else if (copy.spec.backup?.destination.s3 !== undefined) copy.spec.backup.destination.s3 = { ...copy.spec.backup.destination.s3, endpoint: s3.endpoint, region: s3.region, forcePathStyle: true };
  return copy;
}

/** What the suite reads of an example RedisBackup (to S3 or into a volume claim). */
interface ExampleBackup extends KubernetesObject {
  spec: { destination: { s3?: { endpoint?: string; bucket: string; region?: string; forcePathStyle?: boolean; credentialsSecretRef: { name: string } }; volume?: { claimName: string; path?: string } } };
  status?: { phase?: string; location?: string; sizeBytes?: number; sha256?: string };
}

/** An example RedisBackup to S3. */
type S3ExampleBackup = ExampleBackup & { spec: { destination: { s3: NonNullable<ExampleBackup['spec']['destination']['s3']> } } };

/** Whether `backup` writes to S3. Pure. */
function toS3(backup: ExampleBackup): backup is S3ExampleBackup {
  return backup.spec.destination.s3 !== undefined;
}

/**
 * The example objects as this environment can run them: on testenv, the S3 RedisBackup's destination at `s3` and its
 * credentials Secret holding `s3`'s keys (the volume backup and its claim as they are); without `s3`, every object
 * but the backups, their Secret and claim, and the restore. Pure.
 */
function forBackups(objects: readonly KubernetesObject[], s3: S3Info | undefined): KubernetesObject[] {
  const backups = objects.filter((o) => o.kind === 'RedisBackup') as ExampleBackup[];
  const secretNames = new Set(backups.filter(toS3).map((b) => b.spec.destination.s3.credentialsSecretRef.name));
  const claimNames = new Set(backups.flatMap((b) => (b.spec.destination.volume === undefined ? [] : [b.spec.destination.volume.claimName])));
  const named = (o: KubernetesObject, kind: string, names: ReadonlySet<string>): boolean => o.kind === kind && names.has(o.metadata?.name ?? '');
  if (s3 === undefined) return objects.filter((o) => o.kind !== 'RedisBackup' && !named(o, 'Secret', secretNames) && !named(o, 'PersistentVolumeClaim', claimNames) && !restores(o));
  return objects.map((object) => {
    if (object.kind === 'RedisBackup' && toS3(object as ExampleBackup)) {
      const copy = structuredClone(object) as S3ExampleBackup;
      copy.spec.destination.s3 = { ...copy.spec.destination.s3, endpoint: s3.endpoint, region: s3.region, forcePathStyle: true };
      return copy;
    }
    if (object.kind === 'Secret' && secretNames.has(object.metadata?.name ?? '')) {
      return { ...object, stringData: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } } as KubernetesObject;
    }
    return object;
  });
}

/** Whether `object` is a RedisReplication restored from a backup (60-restored-replication.yaml). Pure. */
function restores(object: KubernetesObject): boolean {
  return object.kind === 'RedisReplication' && (object as { spec?: { restore?: unknown } }).spec?.restore !== undefined;
}

let client: Client;
let c: Cluster;
let s3: S3Info | undefined;
let operator: OperatorProcess | undefined;
let image = '';
const typeOf = (object: KubernetesObject) => run.typeOf(object);
const only = (kind: string): KubernetesObject => run.only(kind);
/** The example RedisReplication that is not a restore. */
const source = (): KubernetesObject => {
  const [first, ...more] = resources.filter((o) => o.kind === 'RedisReplication' && !restores(o));
  if (first === undefined || more.length > 0) throw new Error('expected one RedisReplication that is not a restore');
  return first;
};

/** The one example RedisBackup of `destination` (`s3` or `volume`). */
function backupTo(destination: 's3' | 'volume'): ExampleBackup {
  const [first, ...more] = (resources.filter((o) => o.kind === 'RedisBackup') as ExampleBackup[]).filter((b) => b.spec.destination[destination] !== undefined);
  if (first === undefined || more.length > 0) throw new Error(`expected one RedisBackup to ${destination}`);
  return first;
}
const s3Backup = (): S3ExampleBackup => {
  const backup = backupTo('s3');
  if (!toS3(backup)) throw new Error('not an S3 backup');
  return backup;
};

/** The example RedisReplication once Ready at its generation with every member ready. */
async function readyReplication(): Promise<RedisReplication> {
  const example = source() as RedisReplication;
  await waitForCondition(client, typeOf(example), request(example), 'Ready', 'True', 90_000);
  return eventually(
    async () => {
      const rr = (await client.get(typeOf(example), request(example))) as RedisReplication;
      return rr.status?.readyReplicas === example.spec.replicas && rr.status.primary !== undefined ? rr : undefined;
    },
    30_000,
    `${example.spec.replicas} ready members`,
  );
}

/** The fields of `INFO <section>` on a member, as the operator's user. */
async function info(pod: V1Pod, password: string, section: string): Promise<Map<string, string>> {
  const text = String(await command(pod, password, ['INFO', section]));
  return new Map(text.split(/\r?\n/).filter((line) => line.includes(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)] as [string, string]));
}

beforeAll(async () => {
  client = await adminClient();
  c = { client };
  operator = await startOperator({ system: 'redis' });
  run.useCrds(operator.installation.rendered);
  image = await redisImage();
  if (!targetsExistingCluster()) {
    s3 = (await ensureTestEnv(['s3'])).s3;
    const buckets = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    for (const backup of (run.examples.filter((o) => o.kind === 'RedisBackup') as ExampleBackup[]).filter(toS3)) {
      await buckets.send(new CreateBucketCommand({ Bucket: backup.spec.destination.s3.bucket })).catch((err: unknown) => {
        if ((err as { name?: string }).name !== 'BucketAlreadyOwnedByYou' && (err as { name?: string }).name !== 'BucketAlreadyExists') throw err;
      });
    }
    buckets.destroy();
  }
  await run.apply(client, forBackups(run.examples, s3).map((object) => withRedisImage(withScheduleAt(object, s3), image)));
});

afterAll(async () => {
  if (operator !== undefined) {
    // The RedisUsers first, while the operator runs to release them.
    for (const object of resources.filter((o) => o.kind === 'RedisUser')) {
      await client.delete(typeOf(object), request(object)).catch(() => undefined);
      await eventually(
        async () => {
          try {
            await client.get(typeOf(object), request(object));
            return false;
          } catch (err) {
            return isNotFound(err);
          }
        },
        30_000,
        `${object.metadata?.name ?? ''} deleted`,
      ).catch((err: unknown) => {
        console.warn(`examples/redis clean-up through the operator: ${String(err)}`);
      });
    }
    await operator.stop();
  }
  // Nobody releases a finalizer left after the operator stopped: remove them, so that the namespace goes.
  for (const object of resources) await client.patch(typeOf(object), request(object), { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
  for (const namespace of namespaces) await deleteNamespace(c, namespace);
});

describe('examples/redis applied for real', () => {
  it('has every custom resource Ready=True at its current generation', async () => {
    const kinds = resources.map((object) => object.kind).sort();
    expect(kinds).toEqual(targetsExistingCluster() ? ['RedisReplication', 'RedisUser'] : ['RedisBackup', 'RedisBackup', 'RedisReplication', 'RedisReplication', 'RedisUser']);
    // The restored replication waits for the backup, then its members restore it, in parallel.
    await Promise.all(resources.map((object) => waitForCondition(client, typeOf(object), request(object), 'Ready', 'True', restores(object) ? 240_000 : 90_000)));
  });


  it('kstatus, as Flux and kpt run it, calls every example Current once Ready', async () => {
    const reading = await kstatusNow(client, resources, typeOf, 'Current');
    expect(reading.others).toEqual([]);
    expect(reading.all).toHaveLength(resources.length);
  });
  it("RedisReplication: the example's members replicate from one primary, each with its claim of the example's size and the example's config", async () => {
    const example = source() as RedisReplication & { spec: { storage: { size: string } } };
    const namespace = example.metadata.namespace ?? '';
    const rr = await readyReplication();
    const password = await operatorPassword(c, namespace, example.metadata.name ?? '');
    const pods = await memberPods(c, namespace, example.metadata.name ?? '');
    expect(pods).toHaveLength(example.spec.replicas);
    for (const pod of pods) expect(pod.spec?.containers.find((container) => container.name === 'redis')?.image).toBe(image);
    const primary = pods.find((pod) => pod.metadata?.name === rr.status?.primary);
    if (primary === undefined) throw new Error(`no member Pod is the primary ${rr.status?.primary ?? '(none)'}`);
    expect(primary.metadata?.labels?.[ROLE_LABEL]).toBe('primary');
    expect((await info(primary, password, 'replication')).get('role')).toBe('master');
    for (const pod of pods.filter((p) => p !== primary)) {
      const replication = await info(pod, password, 'replication');
      expect(replication.get('role')).toBe('slave');
      expect(replication.get('master_host')).toBe(primary.status?.podIP);
      expect(replication.get('master_link_status')).toBe('up');
    }
    const config = example.spec.config ?? {};
    expect(Object.keys(config).length).toBeGreaterThan(0);
    for (const pod of pods) {
      // Each member has a PersistentVolumeClaim of the example's size (the StatefulSet's template `data`).
      const claimName = pod.spec?.volumes?.find((volume) => volume.persistentVolumeClaim !== undefined)?.persistentVolumeClaim?.claimName ?? '';
      expect(claimName).toBe(`data-${pod.metadata?.name ?? ''}`);
      const claim = await client.get(persistentVolumeClaims, { namespace, name: claimName });
      expect(claim.spec?.resources?.requests?.['storage']).toBe(example.spec.storage.size);
      // Bound by the cluster's default StorageClass (the example names none).
      expect(claim.status?.phase).toBe('Bound');
      expect(claim.spec?.storageClassName).toBeDefined();
      for (const [key, value] of Object.entries(config)) {
        const applied = (await command(pod, password, ['CONFIG', 'GET', key])) as string[];
        expect(applied[1], `${key} on ${pod.metadata?.name ?? ''}`).toBe(asRedisReadsIt(value));
      }
      // The example's write fencing, on every member (any may be promoted).
      const fencing = { 'min-replicas-to-write': example.spec.failover?.minReplicasToWrite, 'min-replicas-max-lag': example.spec.failover?.minReplicasMaxLagSeconds };
      for (const [key, value] of Object.entries(fencing)) {
        expect(value, `the example sets ${key}`).toBeDefined();
        expect(((await command(pod, password, ['CONFIG', 'GET', key])) as string[])[1], `${key} on ${pod.metadata?.name ?? ''}`).toBe(String(value));
      }
    }
    // The default user's password is generated into <name>-auth and logs in.
    const authPassword = secretValue(await client.get(coreTypes.secret, { namespace, name: objectNames(example.metadata.name ?? '').authSecret }), 'password');
    expect(await attempt(primary, authPassword, ['PING'], 'default')).toBe('OK');
  });

  it.skipIf(targetsExistingCluster())("RedisBackup: the example's backup is stored under its own key in the example's bucket and prefix", async () => {
    const example = s3Backup();
    const backup = (await waitForCondition(client, typeOf(example), request(example), 'Ready', 'True', 180_000)) as ExampleBackup;
    const bucket = example.spec.destination.s3.bucket;
    expect(backup.status?.phase).toBe('Succeeded');
    const prefix = `s3://${bucket}/redis/${example.metadata?.namespace ?? ''}/cache/`;
    expect(backup.status?.location?.startsWith(prefix), backup.status?.location).toBe(true);
    if (s3 === undefined) throw new Error('no S3 server');
    const reader = new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    try {
      const head = await reader.send(new HeadObjectCommand({ Bucket: bucket, Key: backup.status?.location?.slice(`s3://${bucket}/`.length) }));
      expect(head.ContentLength).toBe(backup.status?.sizeBytes);
    } finally {
      reader.destroy();
    }
  });

  it.skipIf(targetsExistingCluster())("RedisBackup into a volume claim: the example's backup is written into its claim, under its path, by the operator's agent Pod", async () => {
    const example = backupTo('volume');
    const volume = example.spec.destination.volume;
    if (volume === undefined) throw new Error('not a volume backup');
    const backup = (await waitForCondition(client, typeOf(example), request(example), 'Ready', 'True', 180_000)) as ExampleBackup;
    expect(backup.status?.phase).toBe('Succeeded');
    const prefix = `pvc://${volume.claimName}/${volume.path ?? ''}/${example.metadata?.namespace ?? ''}/cache/`;
    expect(backup.status?.location?.startsWith(prefix), backup.status?.location).toBe(true);
    expect(backup.status?.location).toMatch(/\/[0-9]{14}-[0-9a-f]+\.rdb$/);
    expect(backup.status?.sizeBytes).toBeGreaterThan(0);
    expect(backup.status?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The claim the example defines, bound by the cluster's default StorageClass once the agent Pod used it.
    const claim = await client.get(persistentVolumeClaims, { namespace: example.metadata?.namespace ?? '', name: volume.claimName });
    expect(claim.status?.phase).toBe('Bound');
  });

  it.skipIf(targetsExistingCluster())("RedisReplication restored from the example's backup: it says so, and every member holds what its primary reported", async () => {
    const example = resources.find(restores) as RedisReplication & { spec: { restore: { backupRef: { name: string } } } };
    const namespace = example.metadata.namespace ?? '';
    const name = example.metadata.name ?? '';
    const backup = (await waitForCondition(client, typeOf(s3Backup()), request(s3Backup()), 'Ready', 'True', 180_000)) as ExampleBackup;
    expect(s3Backup().metadata?.name).toBe(example.spec.restore.backupRef.name);
    const rr = (await waitForCondition(client, typeOf(example), request(example), 'Ready', 'True', 240_000)) as RedisReplication & { status?: { restoredFrom?: string; restoredKeys?: number } };
    expect(rr.status?.restoredFrom).toBe(backup.status?.location);
    const password = await operatorPassword(c, namespace, name);
    const pods = await memberPods(c, namespace, name);
    expect(pods).toHaveLength(example.spec.replicas);
    for (const pod of pods) expect(await command(pod, password, ['DBSIZE']), pod.metadata?.name).toBe(rr.status?.restoredKeys);
  });

  it.skipIf(targetsExistingCluster())("RedisReplication's backup schedule: its next slot is the next 02:00 in Europe/Berlin, and no backup is taken before it", async () => {
    const example = source() as RedisReplication;
    const namespace = example.metadata.namespace ?? '';
    const rr = await eventually(
      async () => {
        const read = await client.get(typeOf(example), request(example));
        return (read as { status?: { backup?: { nextScheduleTime?: string } } }).status?.backup?.nextScheduleTime === undefined ? undefined : read;
      },
      30_000,
      'status.backup.nextScheduleTime',
    );
    // The next whole hour at which Berlin's clock shows 02:00, found with Intl alone.
    const berlinHour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Berlin', hour: '2-digit', hourCycle: 'h23' });
    let expected = Math.ceil(Date.now() / 3_600_000) * 3_600_000;
    while (berlinHour.format(expected) !== '02') expected += 3_600_000;
    expect((rr as { status?: { backup?: { nextScheduleTime?: string } } }).status?.backup?.nextScheduleTime).toBe(new Date(expected).toISOString());
    const backupType = resourceType({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisBackup', plural: 'redisbackups', namespaced: true });
    const scheduled = (await client.list(backupType, { namespace })).items.filter((b) => b.metadata?.labels?.['redis.domain-operators.io/backup-schedule'] !== undefined);
    expect(scheduled).toEqual([]);
  });

  it("RedisUser: the ACL user exists on every member with the example's rules, its generated password logs in, and its keys are limited to orders:*", async () => {
    const example = only('RedisUser') as RedisUser;
    const namespace = example.metadata.namespace ?? '';
    const replication = example.spec.replicationRef.name;
    const user = (await waitForCondition(client, typeOf(example), request(example), 'Ready', 'True', 90_000)) as RedisUser;
    const rr = await readyReplication();
    expect(user.status?.appliedMembers).toBe(rr.spec.replicas);
    const adminPassword = await operatorPassword(c, namespace, replication);
    const password = secretValue(await client.get(coreTypes.secret, { namespace, name: user.status?.secretName ?? `${example.metadata.name ?? ''}-redis-credentials` }), 'password');
    const pods = await memberPods(c, namespace, replication);
    const primary = pods.find((pod) => pod.metadata?.name === rr.status?.primary);
    if (primary === undefined) throw new Error('no primary Pod');
    for (const pod of pods) {
      const acl = (await command(pod, adminPassword, ['ACL', 'GETUSER', example.spec.username])) as unknown[] | null;
      expect(acl, `ACL user ${example.spec.username} on ${pod.metadata?.name ?? ''}`).not.toBeNull();
      const fields = new Map<string, unknown>();
      for (let i = 0; i + 1 < (acl ?? []).length; i += 2) fields.set(String(acl?.[i]), acl?.[i + 1]);
      expect(fields.get('flags')).toContain('on');
      expect(fields.get('keys')).toBe(example.spec.rules.filter((rule) => rule.startsWith('~')).join(' '));
      // Logs in with the generated password (a read of its own key space is allowed on every member).
      expect(await attempt(pod, password, ['GET', `orders:${suffix}`], example.spec.username)).toBe('OK');
      expect(await attempt(pod, `${password}-wrong`, ['GET', `orders:${suffix}`], example.spec.username)).toMatch(/WRONGPASS/);
    }
    expect(await attempt(primary, password, ['SET', `orders:${suffix}`, 'placed'], example.spec.username)).toBe('OK');
    expect(await command(primary, password, ['GET', `orders:${suffix}`], example.spec.username)).toBe('placed');
    expect(await attempt(primary, password, ['SET', `invoices:${suffix}`, 'x'], example.spec.username)).toMatch(/^NOPERM/);
    expect(await attempt(primary, password, ['FLUSHALL'], example.spec.username)).toMatch(/^NOPERM/);
  });
});
