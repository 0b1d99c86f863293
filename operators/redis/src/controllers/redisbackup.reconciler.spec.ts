import { Readable } from 'node:stream';
import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import { statusWriterFor, storeSecrets, StoreWriter } from '@domain-operators/reconcile';
import type { Condition } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { redisBackups } from '../api/v1alpha1/index.ts';
import type { RedisBackup, RedisReplication } from '../api/v1alpha1/index.ts';
import { readablePayload } from '../backup/payload.ts';
import type { PayloadSource } from '../backup/payload.ts';
import { BACKUP_REASONS } from '../backup/reasons.ts';
import { S3CallError } from '../backup/s3-errors.ts';
import type { S3Target } from '../backup/s3-upload.ts';
import type { BackupStorage, StoredDigest } from '../backup/storage.ts';
import type { RdbSource, RdbTransfer } from '../redis/rdb-stream.ts';
import { PODS_BY_REPLICATION, podsByReplication } from './members.ts';
import type { Call, Status } from './reconciler.test-support.ts';
import { FakeKube, FakeRedis, internalSecret, memberIp, memberPod, reconcileContext, RecordingEvents } from './reconciler.test-support.ts';
import { keyOfLocation, RedisBackupReconciler } from './redisbackup.reconciler.ts';

const PLURAL = 'redisbackups';
const NOW = new Date('2026-12-01T02:03:04Z');
const RDB = Buffer.from('REDIS0011-the-snapshot-bytes');

function backup(status?: Record<string, unknown>): RedisBackup {
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisBackup',
    metadata: { namespace: 'ns', name: 'nightly', uid: '6f1c2a9e-41d2-4c0b-9a55-0d6f2c1b7e10', generation: 1, resourceVersion: '1' },
    spec: {
      replicationRef: { name: 'cache' },
      source: 'PreferReplica',
      destination: { s3: { endpoint: 'http://s3.test', bucket: 'backups', prefix: 'redis', region: 'us-east-1', forcePathStyle: true, credentialsSecretRef: { name: 's3-creds' } } },
      deletionPolicy: 'Retain',
    },
    ...(status === undefined ? {} : { status }),
  };
}

/** Storage in memory: objects by key, and what was asked of it, in order. */
class FakeStorage implements BackupStorage {
  readonly objects = new Map<string, Buffer>();
  readonly log: string[] = [];
  failUpload: Error | undefined;

  async upload(target: S3Target, key: string, body: PayloadSource): Promise<void> {
    this.log.push(`upload ${key} as ${target.credentials.accessKeyId}`);
    if (this.failUpload !== undefined) {
      body.abort();
      throw this.failUpload;
    }
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      body.copyTo({ write: (bytes) => chunks.push(Buffer.from(bytes)) > 0, drained: () => Promise.resolve(), end: resolve, fail: reject });
    });
    this.objects.set(key, Buffer.concat(chunks));
  }

  digest(_target: S3Target, key: string): Promise<StoredDigest | undefined> {
    this.log.push(`digest ${key}`);
    const bytes = this.objects.get(key);
    return Promise.resolve(bytes === undefined ? undefined : { sizeBytes: bytes.length, sha256: `sha-of-${bytes.length}` });
  }

  abortIncomplete(_target: S3Target, prefix: string): Promise<string[]> {
    this.log.push(`abortIncomplete ${prefix}`);
    return Promise.resolve([]);
  }

  delete(_target: S3Target, key: string): Promise<void> {
    this.log.push(`delete ${key}`);
    this.objects.delete(key);
    return Promise.resolve();
  }
}

function world() {
  const calls: Call[] = [];
  const kube = new FakeKube(calls);
  const redis = new FakeRedis(calls);
  const pods = new StoreWriter<V1Pod>({ indexers: { [PODS_BY_REPLICATION]: podsByReplication } });
  const secrets = new StoreWriter<V1Secret>();
  const replications = new StoreWriter<RedisReplication>();
  const credentials: V1Secret = { metadata: { namespace: 'ns', name: 's3-creds', resourceVersion: '1' }, stringData: { accessKeyId: 'AKID', secretAccessKey: 'the-secret-key' } };
  secrets.replace([internalSecret('cache'), credentials]);
  replications.replace([{ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', metadata: { namespace: 'ns', name: 'cache', uid: 'rr', resourceVersion: '1' }, spec: { replicas: 2, image: 'redis:7.0' } }]);
  redis.add(memberIp(0));
  redis.add(memberIp(1), memberIp(0));
  pods.replace([0, 1].map((i) => memberPod('cache', i, { revision: 'rev-1' })));
  const storage = new FakeStorage();
  const opened: RdbSource[] = [];
  const events = new RecordingEvents();
  const client = kube.client();
  const reconciler = new RedisBackupReconciler({
    client,
    status: statusWriterFor(client, redisBackups.type),
    recorder: events,
    memberClient: () => redis.client(),
    referenced: storeSecrets({ store: secrets }),
    stores: { pods, secrets, replications },
    storage,
    now: () => NOW,
    openRdb: (source) => {
      opened.push(source);
      // The status write before the snapshot is already in the fake apiserver when the snapshot starts.
      const body = Readable.from([RDB]);
      const transfer: RdbTransfer = { ...readablePayload(body), body, summary: Promise.resolve({ sizeBytes: RDB.length, sha256: 'sha-of-the-stream', replicationId: 'r'.repeat(40), replicationOffset: 4242 }), abort: () => undefined };
      return Promise.resolve(transfer);
    },
  });
  return {
    calls,
    kube,
    storage,
    opened,
    events,
    async reconcile(b: RedisBackup): Promise<unknown> {
      return reconciler.reconcile(kube.withStatus(b, PLURAL), reconcileContext(b)).then(
        () => undefined,
        (err: unknown) => err,
      );
    },
    status(b: RedisBackup): Status {
      return kube.withStatus(b, PLURAL).status ?? {};
    },
    statusWrites(): Status[] {
      return calls.flatMap((c) => (c.to === 'kube' && c.path.endsWith('/status') ? [(c.body as { status: Status }).status] : []));
    },
  };
}

function ready(status: Status): Condition | undefined {
  return ((status['conditions'] as Condition[] | undefined) ?? []).find((c) => c.type === 'Ready');
}

const KEY = 'redis/ns/cache/20261201020304-6f1c2a9e.rdb';

describe('RedisBackupReconciler', () => {
  it('records the key (Running) before the snapshot starts, streams from the linked replica, and succeeds with the digest', async () => {
    const w = world();
    expect(await w.reconcile(backup())).toBeUndefined();
    const writes = w.statusWrites();
    expect(writes[0]).toMatchObject({ phase: 'Running', location: `s3://backups/${KEY}`, member: 'cache-1', startTime: NOW.toISOString() });
    expect(w.opened).toEqual([{ host: memberIp(1), port: 6379, username: 'replication', password: 'replication-pw' }]);
    expect(w.storage.log).toEqual([`upload ${KEY} as AKID`]);
    expect(w.storage.objects.get(KEY)).toEqual(RDB);
    const status = w.status(backup());
    expect(status).toMatchObject({ phase: 'Succeeded', sizeBytes: RDB.length, sha256: 'sha-of-the-stream', replicationOffset: 4242, member: 'cache-1', observedGeneration: 1 });
    expect(ready(status)).toMatchObject({ status: 'True', reason: 'BackupSucceeded' });
    expect(JSON.stringify(writes)).not.toContain('the-secret-key');
  });

  it('does nothing more once Succeeded or Failed', async () => {
    const w = world();
    await w.reconcile(backup({ phase: 'Succeeded', location: `s3://backups/${KEY}` }));
    await w.reconcile(backup({ phase: 'Failed' }));
    expect(w.statusWrites()).toEqual([]);
    expect(w.storage.log).toEqual([]);
  });

  it('fails for good on refused credentials, with the reason and no secret', async () => {
    const w = world();
    w.storage.failUpload = new S3CallError('S3 refused to upload k in bucket backups at http://s3.test: SignatureDoesNotMatch: no', BACKUP_REASONS.accessDenied, 'SignatureDoesNotMatch');
    expect(await w.reconcile(backup())).toBeUndefined();
    const status = w.status(backup());
    expect(status['phase']).toBe('Failed');
    expect(ready(status)).toMatchObject({ status: 'False', reason: 'AccessDenied' });
    expect(w.events.events.map((e) => e.reason)).toEqual(['AccessDenied']);
    expect(JSON.stringify(w.statusWrites())).not.toContain('the-secret-key');
  });

  it('stays Pending and retries when the destination is unreachable', async () => {
    const w = world();
    w.storage.failUpload = new S3CallError('cannot upload k: ECONNREFUSED', BACKUP_REASONS.destinationUnavailable, 'ECONNREFUSED');
    expect(await w.reconcile(backup())).toBeInstanceOf(S3CallError);
    expect(w.status(backup())['phase']).toBe('Pending');
    expect(ready(w.status(backup()))).toMatchObject({ reason: 'DestinationUnavailable' });
  });

  it('after a restart mid-backup: aborts what was left under its key and records the complete object it finds', async () => {
    const w = world();
    w.storage.objects.set(KEY, Buffer.from('complete object'));
    await w.reconcile(backup({ phase: 'Running', location: `s3://backups/${KEY}`, member: 'cache-1', startTime: NOW.toISOString() }));
    expect(w.storage.log).toEqual([`abortIncomplete ${KEY}`, `digest ${KEY}`]);
    expect(w.opened).toEqual([]);
    expect(w.status(backup())).toMatchObject({ phase: 'Succeeded', sizeBytes: 15, sha256: 'sha-of-15' });
  });

  it('after a restart with nothing stored: takes the snapshot again under the same key', async () => {
    const w = world();
    await w.reconcile(backup({ phase: 'Running', location: `s3://backups/${KEY}`, member: 'cache-0', startTime: '2026-12-01T02:00:00Z' }));
    expect(w.storage.log).toEqual([`abortIncomplete ${KEY}`, `digest ${KEY}`, `upload ${KEY} as AKID`]);
    expect(w.status(backup())['phase']).toBe('Succeeded');
  });

  it('waits (Pending, SecretNotFound) for a missing credentials Secret, without touching storage', async () => {
    const w = world();
    const b = backup();
    if (b.spec.destination.s3 !== undefined) b.spec.destination.s3.credentialsSecretRef.name = 'absent';
    expect(await w.reconcile(b)).toBeInstanceOf(Error);
    expect(ready(w.status(b))).toMatchObject({ status: 'False', reason: 'SecretNotFound' });
    expect(w.storage.log).toEqual([]);
  });

  it('reads the key back from its location, and refuses another bucket', () => {
    expect(keyOfLocation(`s3://backups/${KEY}`, 'backups')).toBe(KEY);
    expect(() => keyOfLocation(`s3://other/${KEY}`, 'backups')).toThrow(/not in bucket backups/);
  });
});
