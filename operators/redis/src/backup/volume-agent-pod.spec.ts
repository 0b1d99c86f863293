import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { RedisBackup } from '../api/v1alpha1/index.ts';
import { agentPodFor, agentPodName, agentPodState } from './volume-agent-pod.ts';
import { keyOfVolumeLocation, volumeLocation } from './volume-location.ts';

const SHA = 'a'.repeat(64);

function backup(name = 'nightly'): RedisBackup {
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisBackup',
    metadata: { namespace: 'ns', name, uid: '6f1c2a9e-41d2-4c0b-9a55-0d6f2c1b7e10' },
    spec: { replicationRef: { name: 'cache' }, destination: { volume: { claimName: 'backups', path: '/redis' } }, deletionPolicy: 'Retain' },
  };
}

function terminated(message: string | undefined, exitCode = 0): V1Pod {
  return { status: { phase: exitCode === 0 ? 'Succeeded' : 'Failed', containerStatuses: [{ name: 'backup', image: 'i', imageID: '', ready: false, restartCount: 0, state: { terminated: { exitCode, ...(message !== undefined && { message }), reason: exitCode === 0 ? 'Completed' : 'Error' } } }] } };
}

describe('agentPodFor', () => {
  const pod = agentPodFor(backup(), { agent: { image: 'ghcr.io/x/redis-operator:1', pullPolicy: 'IfNotPresent' }, claimName: 'backups', key: 'redis/ns/cache/x.rdb', host: '10.0.0.5', port: 6379, username: 'replication', existing: 'refuse' });

  it('runs the agent command of the operator image once, owned by the RedisBackup, with the claim mounted', () => {
    expect(pod.metadata?.name).toBe('nightly-backup-6f1c2a9e');
    expect(pod.metadata?.ownerReferences).toEqual([expect.objectContaining({ kind: 'RedisBackup', name: 'nightly', controller: true })]);
    expect(pod.metadata?.labels?.['app.kubernetes.io/managed-by']).toBe('redis-operator');
    expect(pod.spec?.restartPolicy).toBe('Never');
    const container = pod.spec?.containers[0];
    expect(container?.command).toEqual(['node', '/app/main.js', 'volume-backup']);
    expect(container?.image).toBe('ghcr.io/x/redis-operator:1');
    expect(pod.spec?.volumes).toEqual([{ name: 'destination', persistentVolumeClaim: { claimName: 'backups' } }]);
  });

  it('passes the password only as a secretKeyRef to the internal Secret', () => {
    const password = pod.spec?.containers[0]?.env?.find((e) => e.name === 'BACKUP_SOURCE_PASSWORD');
    expect(password).toEqual({ name: 'BACKUP_SOURCE_PASSWORD', valueFrom: { secretKeyRef: { name: 'cache-internal', key: 'replication-password' } } });
    expect(pod.spec?.containers[0]?.args).toBeUndefined();
  });

  it('meets Pod Security restricted', () => {
    expect(pod.spec?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 999, fsGroup: 999, seccompProfile: { type: 'RuntimeDefault' } });
    expect(pod.spec?.containers[0]?.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true });
    expect(pod.spec?.automountServiceAccountToken).toBe(false);
  });

  it('names Pods within 63 characters, without dots, the same for one backup', () => {
    const name = agentPodName(backup(`${'a'.repeat(39)}.b.${'c'.repeat(200)}`));
    expect(name).toBe(`${'a'.repeat(39)}-backup-6f1c2a9e`);
    expect(name.length).toBeLessThanOrEqual(63);
  });
});

describe('agentPodState', () => {
  it('reads the report, a failure, a Pod that ended without one, and a stuck Pod', () => {
    expect(agentPodState(terminated(JSON.stringify({ sizeBytes: 10, sha256: SHA, replicationOffset: 7, adopted: false })))).toEqual({ state: 'done', report: { sizeBytes: 10, sha256: SHA, replicationOffset: 7, adopted: false } });
    expect(agentPodState(terminated(JSON.stringify({ reason: 'DestinationUnavailable', message: 'EACCES' }), 1))).toEqual({ state: 'done', report: { reason: 'DestinationUnavailable', message: 'EACCES' } });
    expect(agentPodState(terminated(undefined, 137))).toMatchObject({ state: 'broken', message: expect.stringContaining('without a report') as string });
    expect(agentPodState({ status: { phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: 'persistentvolumeclaim "backups" not found' }] } })).toEqual({
      state: 'waiting',
      message: 'Unschedulable: persistentvolumeclaim "backups" not found',
    });
    expect(agentPodState({ status: { phase: 'Running' } })).toEqual({ state: 'waiting', message: undefined });
  });
});

describe('volume locations', () => {
  it('are pvc://<claim>/<key> and give their key back only for their claim', () => {
    expect(volumeLocation('backups', 'redis/ns/cache/x.rdb')).toBe('pvc://backups/redis/ns/cache/x.rdb');
    expect(keyOfVolumeLocation('pvc://backups/redis/ns/cache/x.rdb', 'backups')).toBe('redis/ns/cache/x.rdb');
    expect(() => keyOfVolumeLocation('pvc://other/x.rdb', 'backups')).toThrow(/not in claim backups/);
  });
});
