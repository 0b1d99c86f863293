// The RedisBackup reconciler with a volume destination: the agent Pod it creates and what it reads back from it.
import type { V1Pod, V1Secret } from '@kubernetes/client-node';
import { KubeApiError, statusWriterFor, storeSecrets, StoreWriter } from '@domain-operators/reconcile';
import type { Condition, RestRequest } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { redisBackups } from '../api/v1alpha1/index.ts';
import type { RedisBackup, RedisReplication } from '../api/v1alpha1/index.ts';
import type { BackupStorage } from '../backup/storage.ts';
import { PODS_BY_REPLICATION, podsByReplication } from './members.ts';
import type { Call, Status } from './reconciler.test-support.ts';
import { FakeKube, FakeRedis, internalSecret, memberIp, memberPod, reconcileContext, RecordingEvents } from './reconciler.test-support.ts';
import { RedisBackupReconciler } from './redisbackup.reconciler.ts';

const PLURAL = 'redisbackups';
const NOW = new Date('2026-12-01T02:03:04Z');
const KEY = 'redis/ns/cache/20261201020304-6f1c2a9e.rdb';
const LOCATION = `pvc://backups/${KEY}`;
const POD = 'nightly-backup-6f1c2a9e';
const SHA = 'b'.repeat(64);

function backup(status?: Record<string, unknown>): RedisBackup {
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisBackup',
    metadata: { namespace: 'ns', name: 'nightly', uid: '6f1c2a9e-41d2-4c0b-9a55-0d6f2c1b7e10', generation: 1, resourceVersion: '1' },
    spec: { replicationRef: { name: 'cache' }, source: 'PreferReplica', destination: { volume: { claimName: 'backups', path: '/redis' } }, deletionPolicy: 'Retain' },
    ...(status === undefined ? {} : { status }),
  };
}

/** The fake apiserver, with claims that exist only when listed. */
class Kube extends FakeKube {
  readonly claims = new Set<string>(['backups']);

  override json(request: RestRequest): Promise<unknown> {
    const claim = /\/persistentvolumeclaims\/([^/]+)$/.exec(request.path);
    if (request.method === 'GET' && claim !== null && !this.claims.has(claim[1] ?? '')) {
      return Promise.reject(new KubeApiError(`persistentvolumeclaims "${claim[1] ?? ''}" not found`, 404, 'NotFound'));
    }
    return super.json(request);
  }
}

const noStorage: BackupStorage = {
  upload: () => Promise.reject(new Error('no S3 in a volume backup')),
  digest: () => Promise.reject(new Error('no S3 in a volume backup')),
  abortIncomplete: () => Promise.reject(new Error('no S3 in a volume backup')),
  delete: () => Promise.reject(new Error('no S3 in a volume backup')),
};

function agentPod(state: NonNullable<NonNullable<V1Pod['status']>['containerStatuses']>[number]['state'], phase = 'Running'): V1Pod {
  return {
    metadata: { namespace: 'ns', name: POD, labels: { 'app.kubernetes.io/managed-by': 'redis-operator' } },
    status: { phase, containerStatuses: [{ name: 'backup', image: 'i', imageID: '', ready: false, restartCount: 0, ...(state !== undefined && { state }) }] },
  };
}

function world(options: { agentImage?: boolean } = {}) {
  const calls: Call[] = [];
  const kube = new Kube(calls);
  const redis = new FakeRedis(calls);
  const pods = new StoreWriter<V1Pod>({ indexers: { [PODS_BY_REPLICATION]: podsByReplication } });
  const secrets = new StoreWriter<V1Secret>();
  const replications = new StoreWriter<RedisReplication>();
  secrets.replace([internalSecret('cache')]);
  replications.replace([{ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', metadata: { namespace: 'ns', name: 'cache', uid: 'rr', resourceVersion: '1' }, spec: { replicas: 2, image: 'redis:7.0' } }]);
  redis.add(memberIp(0));
  redis.add(memberIp(1), memberIp(0));
  const members = [0, 1].map((i) => memberPod('cache', i, { revision: 'rev-1' }));
  pods.replace(members);
  const events = new RecordingEvents();
  const client = kube.client();
  const reconciler = new RedisBackupReconciler({
    client,
    status: statusWriterFor(client, redisBackups.type),
    recorder: events,
    memberClient: () => redis.client(),
    referenced: storeSecrets({ store: secrets }),
    stores: { pods, secrets, replications },
    storage: noStorage,
    ...(options.agentImage !== false && { agentImage: { image: 'ghcr.io/domain-operators/redis-operator:0.1.0', pullPolicy: 'IfNotPresent' } }),
    now: () => NOW,
    openRdb: () => Promise.reject(new Error('the operator never streams a volume backup itself')),
  });
  return {
    kube,
    events,
    setAgent(pod: V1Pod | undefined): void {
      pods.replace(pod === undefined ? members : [...members, pod]);
    },
    async reconcile(b: RedisBackup): Promise<unknown> {
      return reconciler.reconcile(kube.withStatus(b, PLURAL), reconcileContext(b)).then(
        () => undefined,
        (err: unknown) => err,
      );
    },
    /** The status as the apiserver holds it: `b`'s, with every patch so far merged in. */
    status(b: RedisBackup): Status {
      return { ...(b.status ?? {}), ...(kube.withStatus(b, PLURAL).status ?? {}) };
    },
    writes(method: string, pathPart: string): { path: string; body: unknown }[] {
      return calls.flatMap((c) => (c.to === 'kube' && c.method === method && c.path.includes(pathPart) ? [{ path: c.path, body: c.body }] : []));
    },
    order(): string[] {
      return calls.flatMap((c) => (c.to === 'kube' && c.method !== 'GET' ? [`${c.method} ${c.path.replace(/^.*\/namespaces\/ns\//, '')}`] : []));
    },
  };
}

function ready(status: Status): Condition | undefined {
  return ((status['conditions'] as Condition[] | undefined) ?? []).find((c) => c.type === 'Ready');
}

describe('RedisBackupReconciler, volume destination', () => {
  it('records pvc://<claim>/<key> (Running) before it creates the agent Pod for the linked replica, with the refuse mode', async () => {
    const w = world();
    expect(await w.reconcile(backup())).toBeUndefined();
    expect(w.order()).toEqual(['PATCH redisbackups/nightly/status', 'POST pods']);
    expect(w.status(backup())).toMatchObject({ phase: 'Running', location: LOCATION, member: 'cache-1', startTime: NOW.toISOString() });
    const pod = w.writes('POST', '/pods')[0]?.body as V1Pod;
    expect(pod.metadata?.name).toBe(POD);
    const env = Object.fromEntries((pod.spec?.containers[0]?.env ?? []).map((e) => [e.name, e.value ?? e.valueFrom]));
    expect(env).toMatchObject({ BACKUP_SOURCE_HOST: memberIp(1), BACKUP_SOURCE_PORT: '6379', BACKUP_SOURCE_USERNAME: 'replication', BACKUP_KEY: KEY, BACKUP_EXISTING: 'refuse' });
    expect(JSON.stringify(pod)).not.toContain('replication-pw');
  });

  it('completes the status from the agent’s report, exactly as an upload does, and deletes the Pod', async () => {
    const w = world();
    w.setAgent(agentPod({ terminated: { exitCode: 0, reason: 'Completed', message: JSON.stringify({ sizeBytes: 1234, sha256: SHA, replicationOffset: 4242, adopted: false }) } }, 'Succeeded'));
    const running = backup({ phase: 'Running', location: LOCATION, member: 'cache-1', startTime: NOW.toISOString() });
    expect(await w.reconcile(running)).toBeUndefined();
    const status = w.status(running);
    expect(status).toMatchObject({ phase: 'Succeeded', sizeBytes: 1234, sha256: SHA, replicationOffset: 4242, member: 'cache-1', location: LOCATION, completionTime: NOW.toISOString() });
    expect(ready(status)).toMatchObject({ status: 'True', reason: 'BackupSucceeded' });
    expect(w.order()).toEqual(['PATCH redisbackups/nightly/status', `DELETE pods/${POD}`]);
    expect(w.events.events.map((e) => e.reason)).toEqual(['BackupSucceeded']);
  });

  it('fails with the agent’s reason (BackupExists, DestinationUnavailable, SourceUnavailable) and keeps the Pod for its log', async () => {
    for (const reason of ['BackupExists', 'DestinationUnavailable', 'SourceUnavailable']) {
      const w = world();
      w.setAgent(agentPod({ terminated: { exitCode: 1, reason: 'Error', message: JSON.stringify({ reason, message: `it said ${reason}` }) } }, 'Failed'));
      await w.reconcile(backup({ phase: 'Running', location: LOCATION, member: 'cache-1' }));
      expect(w.status(backup())['phase']).toBe('Failed');
      expect(ready(w.status(backup()))).toMatchObject({ status: 'False', reason, message: `it said ${reason}` });
      expect(w.writes('DELETE', '/pods')).toEqual([]);
    }
  });

  it('fails with BackupAgentFailed when the Pod ended without a report (killed, out of memory)', async () => {
    const w = world();
    w.setAgent(agentPod({ terminated: { exitCode: 137, reason: 'OOMKilled' } }, 'Failed'));
    await w.reconcile(backup({ phase: 'Running', location: LOCATION, member: 'cache-1' }));
    expect(ready(w.status(backup()))).toMatchObject({ reason: 'BackupAgentFailed', message: expect.stringContaining('OOMKilled') as string });
  });

  it('waits for a running agent, reporting a stuck one’s message once', async () => {
    const w = world();
    const stuck = agentPod(undefined, 'Pending');
    stuck.status = { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'persistentvolumeclaim "backups" is being deleted' }] };
    w.setAgent(stuck);
    const running = backup({ phase: 'Running', location: LOCATION, member: 'cache-1' });
    await w.reconcile(running);
    await w.reconcile(running);
    expect(w.writes('PATCH', '/status')).toHaveLength(1);
    expect(ready(w.status(running))).toMatchObject({ status: 'False', reason: 'BackupRunning', message: expect.stringContaining('is being deleted') as string });
    expect(w.writes('POST', '/pods')).toEqual([]);
  });

  it('after a restart whose Pod is gone: a new Pod under the same name and key, adopting a complete file', async () => {
    const w = world();
    const running = backup({ phase: 'Running', location: LOCATION, member: 'cache-1', startTime: '2026-12-01T02:00:00Z' });
    await w.reconcile(running);
    const pod = w.writes('POST', '/pods')[0]?.body as V1Pod;
    expect(pod.metadata?.name).toBe(POD);
    const env = Object.fromEntries((pod.spec?.containers[0]?.env ?? []).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({ BACKUP_KEY: KEY, BACKUP_EXISTING: 'adopt' });
    expect(w.status(running)).toMatchObject({ phase: 'Running', location: LOCATION, startTime: '2026-12-01T02:00:00Z' });
  });

  it('waits (Pending, DestinationUnavailable) for a missing claim, and creates no Pod', async () => {
    const w = world();
    w.kube.claims.clear();
    expect(await w.reconcile(backup())).toBeInstanceOf(Error);
    expect(w.status(backup())['phase']).toBe('Pending');
    expect(ready(w.status(backup()))).toMatchObject({ reason: 'DestinationUnavailable', message: 'PersistentVolumeClaim backups does not exist' });
    expect(w.writes('POST', '/pods')).toEqual([]);
  });

  it('waits (Pending, AgentImageMissing) without the operator image', async () => {
    const w = world({ agentImage: false });
    expect(await w.reconcile(backup())).toBeInstanceOf(Error);
    expect(ready(w.status(backup()))).toMatchObject({ reason: 'AgentImageMissing' });
    expect(w.writes('POST', '/pods')).toEqual([]);
  });

  it('deletes a succeeded agent Pod left by a restart once the backup is Succeeded', async () => {
    const w = world();
    w.setAgent(agentPod({ terminated: { exitCode: 0, message: '{}' } }, 'Succeeded'));
    await w.reconcile(backup({ phase: 'Succeeded', location: LOCATION }));
    expect(w.order()).toEqual([`DELETE pods/${POD}`]);
  });
});
