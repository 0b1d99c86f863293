import { describe, expect, it } from 'vitest';
import type { RedisReplication } from '../api/v1alpha1/index.ts';
import { parseRestorePlan } from '../agent/restore-plan.ts';
import { RESTORE_START_SCRIPT, restoreConfigMapFor, statefulSetFor } from './manifests.ts';

const rr: RedisReplication = {
  apiVersion: 'redis.domain-operators.io/v1alpha1',
  kind: 'RedisReplication',
  metadata: { name: 'cache', namespace: 'apps', uid: 'u-1' },
  spec: { replicas: 3, image: 'redis:7.2' },
};
const agent = { image: 'ghcr.io/domain-operators/redis-operator:0.1.0', pullPolicy: 'IfNotPresent' };
const base = { replicas: 3, restartHash: 'h1', partition: 0 };

describe('member Pods while a restore is pending', () => {
  it('have no init container and no restore volumes without a pending restore', () => {
    const spec = statefulSetFor(rr, base).spec?.template.spec;
    expect(spec?.initContainers).toBeUndefined();
    expect(spec?.volumes?.map((v) => v.name)).toEqual(['config', 'internal', 'data']);
  });

  it('run the operator image as restore-fetch first, restricted like redis, with credentials as secretKeyRef env and the plan optional', () => {
    const s3Credentials = { name: 's3-creds', accessKeyIdKey: 'accessKeyId', secretAccessKeyKey: 'secretAccessKey' };
    const spec = statefulSetFor(rr, { ...base, restore: { agent, s3Credentials } }).spec?.template.spec;
    const init = spec?.initContainers?.[0];
    expect(spec?.initContainers).toHaveLength(1);
    expect(init).toMatchObject({ name: 'restore', image: agent.image, imagePullPolicy: 'IfNotPresent', command: ['node', '/app/main.js', 'restore-fetch'] });
    expect(init?.args).toBeUndefined();
    expect(init?.securityContext).toEqual(spec?.containers[0]?.securityContext);
    expect(init?.env).toEqual([
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'RESTORE_S3_ACCESS_KEY_ID', valueFrom: { secretKeyRef: { name: 's3-creds', key: 'accessKeyId', optional: true } } },
      { name: 'RESTORE_S3_SECRET_ACCESS_KEY', valueFrom: { secretKeyRef: { name: 's3-creds', key: 'secretAccessKey', optional: true } } },
    ]);
    expect(init?.volumeMounts?.map((m) => [m.name, m.mountPath, m.readOnly ?? false])).toEqual([
      ['data', '/data', false],
      ['restore-plan', '/etc/redis-restore', true],
      ['restore-start', '/etc/redis-start', false],
    ]);
    expect(spec?.volumes?.find((v) => v.name === 'restore-plan')?.configMap).toEqual({ name: 'cache-restore', optional: true });
  });

  it('mount a volume source read-only', () => {
    const spec = statefulSetFor(rr, { ...base, restore: { agent, claimName: 'backups' } }).spec?.template.spec;
    expect(spec?.volumes?.find((v) => v.name === 'restore-source')?.persistentVolumeClaim).toEqual({ claimName: 'backups', readOnly: true });
    expect(spec?.initContainers?.[0]?.volumeMounts?.find((m) => m.name === 'restore-source')).toEqual({ name: 'restore-source', mountPath: '/restore-source', readOnly: true });
    expect(spec?.initContainers?.[0]?.env).toHaveLength(1);
  });

  it('with spec.restore, start redis-server through the start script, which takes a restored replica’s --replicaof once', () => {
    const restoring: RedisReplication = { ...rr, spec: { ...rr.spec, restore: { backupRef: { name: 'snap' } } } };
    const spec = statefulSetFor(restoring, base).spec?.template.spec;
    const redis = spec?.containers[0];
    expect(redis?.args).toEqual(['sh', '-c', RESTORE_START_SCRIPT]);
    expect(RESTORE_START_SCRIPT).toBe('f=/etc/redis-start/replicaof; if [ -s "$f" ]; then set -- --replicaof $(cat "$f"); rm "$f" || exit 1; fi; exec redis-server /etc/redis/redis.conf "$@"');
    expect(redis?.volumeMounts?.find((m) => m.name === 'restore-start')).toEqual({ name: 'restore-start', mountPath: '/etc/redis-start' });
    expect(spec?.volumes?.find((v) => v.name === 'restore-start')).toEqual({ name: 'restore-start', emptyDir: {} });
    expect(statefulSetFor(rr, base).spec?.template.spec?.containers[0]?.args).toEqual(['redis-server', '/etc/redis/redis.conf']);
  });

  it('change the template (its hash), so the StatefulSet without them is a new revision once the restore is done', () => {
    const hash = (input: Parameters<typeof statefulSetFor>[1]): string | undefined => statefulSetFor(rr, input).metadata?.annotations?.['redis.domain-operators.io/template-hash'];
    expect(hash({ ...base, restore: { agent } })).not.toBe(hash(base));
  });

  it('the restore ConfigMap carries the plan the agent parses, and no credential', () => {
    const plan = { location: 's3://b/k', sha256: 'a'.repeat(64), pod: 'cache-0', s3: { bucket: 'b', key: 'k', region: 'us-east-1', forcePathStyle: true } };
    const cm = restoreConfigMapFor(rr, plan);
    expect(cm.metadata).toMatchObject({ name: 'cache-restore', namespace: 'apps', labels: { 'app.kubernetes.io/managed-by': 'redis-operator' } });
    expect(cm.metadata?.ownerReferences?.[0]).toMatchObject({ kind: 'RedisReplication', name: 'cache', controller: true });
    expect(parseRestorePlan(cm.data?.['plan.json'] ?? '')).toEqual(plan);
  });
});
