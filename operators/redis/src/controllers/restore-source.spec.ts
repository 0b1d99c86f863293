import { describe, expect, it } from 'vitest';
import type { RedisBackup, RedisReplication } from '../api/v1alpha1/index.ts';
import { statefulSetFor } from '../redis/manifests.ts';
import { doneRestoreMount, parseS3Location, resolveRestore, restorePending } from './restore-source.ts';

const SHA = 'b'.repeat(64);
const agentImage = { image: 'redis-operator:1', pullPolicy: 'IfNotPresent' };
const creds = { name: 's3-creds' };

function replication(restore: NonNullable<RedisReplication['spec']['restore']>, status?: RedisReplication['status']): RedisReplication {
  return { apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', metadata: { name: 'copy', namespace: 'apps' }, spec: { replicas: 3, image: 'redis:7.2', restore }, ...(status && { status }) };
}

function backup(status: RedisBackup['status']): RedisBackup {
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisBackup',
    metadata: { name: 'snap', namespace: 'apps' },
    spec: { replicationRef: { name: 'cache' }, destination: { s3: { endpoint: 'http://s3:9000', bucket: 'bkt', forcePathStyle: true, credentialsSecretRef: creds } }, deletionPolicy: 'Retain' },
    ...(status && { status }),
  };
}

const none = (): Promise<RedisBackup | undefined> => Promise.resolve(undefined);

describe('resolveRestore', () => {
  it('is pending until status.restoredFrom is set', () => {
    expect(restorePending(replication({ backupRef: { name: 'snap' } }))).toBe(true);
    expect(restorePending(replication({ backupRef: { name: 'snap' } }, { restoredFrom: 's3://bkt/k' }))).toBe(false);
  });

  it('takes a Succeeded RedisBackup’s location, digest and destination; every member restores, ordinal 0 as the primary', async () => {
    const done = backup({ phase: 'Succeeded', sha256: SHA, location: 's3://bkt/redis/apps/cache/20261201120000-1a2b3c4d.rdb' });
    const got = await resolveRestore(replication({ backupRef: { name: 'snap' } }), { agentImage, getBackup: () => Promise.resolve(done) });
    expect(got).toEqual({
      plan: {
        location: 's3://bkt/redis/apps/cache/20261201120000-1a2b3c4d.rdb',
        sha256: SHA,
        pod: 'copy-0',
        replicas: ['copy-1', 'copy-2'],
        s3: { endpoint: 'http://s3:9000', bucket: 'bkt', key: 'redis/apps/cache/20261201120000-1a2b3c4d.rdb', region: 'us-east-1', forcePathStyle: true },
      },
      mount: { agent: agentImage, s3Credentials: { name: 's3-creds', accessKeyIdKey: 'accessKeyId', secretAccessKeyKey: 'secretAccessKey' } },
    });
  });

  it('waits, saying why, for a missing or unfinished RedisBackup and without the agent image', async () => {
    expect(await resolveRestore(replication({ backupRef: { name: 'snap' } }), { agentImage, getBackup: none })).toMatchObject({ reason: 'RestoreSourceUnavailable', message: 'RedisBackup snap does not exist' });
    const running = backup({ phase: 'Running' });
    expect(await resolveRestore(replication({ backupRef: { name: 'snap' } }), { agentImage, getBackup: () => Promise.resolve(running) })).toMatchObject({ reason: 'RestoreSourceUnavailable' });
    expect(await resolveRestore(replication({ backupRef: { name: 'snap' } }), { agentImage: undefined, getBackup: none })).toMatchObject({ reason: 'AgentImageUnknown' });
  });

  it('takes an s3 location and a volume file as written, with their digests', async () => {
    const s3 = await resolveRestore(replication({ s3: { bucket: 'bkt', key: 'a/b.rdb', credentialsSecretRef: { ...creds, accessKeyIdKey: 'id' }, sha256: SHA } }), { agentImage, getBackup: none });
    expect(s3).toMatchObject({ plan: { location: 's3://bkt/a/b.rdb', s3: { region: 'us-east-1', forcePathStyle: false } }, mount: { s3Credentials: { accessKeyIdKey: 'id' } } });
    const volume = await resolveRestore(replication({ volume: { claimName: 'backups', path: 'x/y.rdb', sha256: SHA } }), { agentImage, getBackup: none });
    expect(volume).toEqual({ plan: { location: 'pvc://backups/x/y.rdb', sha256: SHA, pod: 'copy-0', replicas: ['copy-1', 'copy-2'], file: { path: 'x/y.rdb' } }, mount: { agent: agentImage, claimName: 'backups' } });
  });

  it('parses s3:// locations', () => {
    expect(parseS3Location('s3://b/k/l.rdb')).toEqual({ bucket: 'b', key: 'k/l.rdb' });
    expect(parseS3Location('pvc://c/p')).toBeUndefined();
  });
});

describe('doneRestoreMount', () => {
  const stsInput = { replicas: 3, restartHash: 'h', partition: 0 };
  const pendingMount = { agent: { image: 'redis-operator:0', pullPolicy: 'Never' }, s3Credentials: { name: 'from-backup', accessKeyIdKey: 'id', secretAccessKeyKey: 'secret' } };
  const templateHash = (rr: RedisReplication, mount: ReturnType<typeof doneRestoreMount>): string | undefined =>
    statefulSetFor(rr, { ...stsInput, ...(mount !== undefined && { restore: mount }) }).metadata?.annotations?.['redis.domain-operators.io/template-hash'];

  it('keeps the agent the StatefulSet runs after an S3 restore: the template, hence every member, stays as it is', () => {
    const pending = replication({ backupRef: { name: 'snap' } });
    const current = statefulSetFor(pending, { ...stsInput, restore: pendingMount });
    const done = replication({ backupRef: { name: 'snap' } }, { restoredFrom: 's3://bkt/k.rdb' });
    const kept = doneRestoreMount(done, current, agentImage);
    expect(kept).toEqual(pendingMount);
    expect(templateHash(done, kept)).toBe(current.metadata?.annotations?.['redis.domain-operators.io/template-hash']);
  });

  it('builds the idle agent from the spec when there is no StatefulSet, and drops it after a volume restore or with no restore', () => {
    const s3 = replication({ s3: { bucket: 'bkt', key: 'k.rdb', credentialsSecretRef: creds, sha256: SHA } }, { restoredFrom: 's3://bkt/k.rdb' });
    expect(doneRestoreMount(s3, undefined, agentImage)).toEqual({ agent: agentImage, s3Credentials: { name: 's3-creds', accessKeyIdKey: 'accessKeyId', secretAccessKeyKey: 'secretAccessKey' } });
    expect(doneRestoreMount(s3, undefined, undefined)).toBeUndefined();
    const volume = replication({ volume: { claimName: 'backups', path: 'x.rdb', sha256: SHA } }, { restoredFrom: 'pvc://backups/x.rdb' });
    expect(doneRestoreMount(volume, statefulSetFor(volume, { ...stsInput, restore: { agent: agentImage, claimName: 'backups' } }), agentImage)).toBeUndefined();
    const plain: RedisReplication = { ...s3, spec: { replicas: 3, image: 'redis:7.2' } };
    expect(doneRestoreMount(plain, undefined, agentImage)).toBeUndefined();
  });
});
