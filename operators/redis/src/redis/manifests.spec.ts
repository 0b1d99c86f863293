import { describe, expect, it } from 'vitest';
import type { RedisReplication } from '../api/v1alpha1/index.ts';
import { INTERNAL_KEYS, primaryServiceFor, replicasServiceFor, REPLICATION_USERNAME, ROLE_LABEL, statefulSetFor, podDisruptionBudgetFor, internalSecretFor } from './manifests.ts';
import { memberProbeCommand } from './probe.ts';

const rr: RedisReplication = {
  apiVersion: 'redis.domain-operators.io/v1alpha1',
  kind: 'RedisReplication',
  metadata: { name: 'cache', namespace: 'apps', uid: 'u-1' },
  spec: { replicas: 3, image: 'redis:7.2', podTemplate: { labels: { team: 'a', [`redis.domain-operators.io/replication`]: 'hijack' } } },
};

describe('owned objects', () => {
  it('the StatefulSet runs redis-server with the mounted config, never carries the role label, and selects stable labels', () => {
    const sts = statefulSetFor(rr, { replicas: 3, restartHash: 'h1', partition: 0 });
    const container = sts.spec?.template.spec?.containers[0];
    expect(container?.args).toEqual(['redis-server', '/etc/redis/redis.conf']);
    expect(container?.command).toBeUndefined();
    expect(sts.spec?.selector.matchLabels).toEqual({ 'app.kubernetes.io/name': 'redis', 'redis.domain-operators.io/replication': 'cache' });
    expect(sts.spec?.template.metadata?.labels?.[ROLE_LABEL]).toBeUndefined();
    expect(sts.spec?.template.metadata?.labels?.['redis.domain-operators.io/replication']).toBe('cache');
    expect(sts.spec?.template.metadata?.labels?.['team']).toBe('a');
    expect(sts.spec?.template.spec?.volumes?.map((v) => v.name)).toEqual(['config', 'internal', 'data']);
    expect(sts.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'RedisReplication', name: 'cache', uid: 'u-1', controller: true });
  });

  it('runs members as the redis user (999) with fsGroup 999 and the settings Pod Security restricted requires', () => {
    const spec = statefulSetFor(rr, { replicas: 3, restartHash: 'h1', partition: 0 }).spec?.template.spec;
    // fsGroup makes the Secret-mounted masterauth file group-readable by 999 (it is root's, mode 0400, otherwise).
    expect(spec?.securityContext).toEqual({
      runAsNonRoot: true,
      runAsUser: 999,
      runAsGroup: 999,
      fsGroup: 999,
      fsGroupChangePolicy: 'OnRootMismatch',
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(spec?.containers[0]?.securityContext).toEqual({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true });
    expect(spec?.volumes?.find((v) => v.name === 'internal')?.secret?.defaultMode).toBe(0o400);
  });

  it('probes each member as the replication user, with the password file mounted beside masterauth', () => {
    const spec = statefulSetFor(rr, { replicas: 3, restartHash: 'h1', partition: 0 }).spec?.template.spec;
    const internal = spec?.volumes?.find((v) => v.name === 'internal')?.secret;
    expect(internal?.items).toEqual([
      { key: 'replication-auth.conf', path: 'replication-auth.conf' },
      { key: INTERNAL_KEYS.replicationPassword, path: 'replication-password' },
    ]);
    const probe = ['sh', '-c', memberProbeCommand(REPLICATION_USERNAME, '/etc/redis-secret/replication-password')];
    expect(spec?.containers[0]?.readinessProbe?.exec?.command).toEqual(probe);
    expect(spec?.containers[0]?.startupProbe?.exec?.command).toEqual(probe);
  });

  it('uses a claim template instead of an emptyDir with storage', () => {
    const sts = statefulSetFor({ ...rr, spec: { ...rr.spec, storage: { size: '1Gi' } } }, { replicas: 3, restartHash: 'h1', partition: 0 });
    expect(sts.spec?.template.spec?.volumes?.map((v) => v.name)).toEqual(['config', 'internal']);
    expect(sts.spec?.volumeClaimTemplates?.[0]?.spec?.resources?.requests).toEqual({ storage: '1Gi' });
  });

  it('the primary Service selects only role=primary, the replicas Service role=replica', () => {
    expect(primaryServiceFor(rr).spec?.selector?.[ROLE_LABEL]).toBe('primary');
    expect(primaryServiceFor(rr).metadata?.name).toBe('cache');
    expect(replicasServiceFor(rr).spec?.selector?.[ROLE_LABEL]).toBe('replica');
    expect(podDisruptionBudgetFor(rr).spec?.maxUnavailable).toBe(1);
  });

  it('keeps the replication password in the Secret include file only', () => {
    const secret = internalSecretFor(rr, { operator: { username: 'redis-operator', password: 'p1' }, replication: { username: 'replication', password: 'p2' } });
    expect(secret.stringData?.['replication-auth.conf']).toBe('masteruser replication\nmasterauth "p2"\n');
  });
});
