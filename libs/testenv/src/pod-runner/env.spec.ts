import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { ContainerConfigError } from './config-error.ts';
import { containerEnv, referencedNames } from './env.ts';
import type { ReferencedData } from './env.ts';

const data: ReferencedData = {
  configMap: (name) => (name === 'cfg' ? { MODE: 'cluster', PORT: '7000' } : undefined),
  secret: (name) => (name === 'auth' ? { password: 's3cret' } : undefined),
};

const pod: V1Pod = {
  metadata: { name: 'redis-0', namespace: 'ns1', uid: 'u1', labels: { app: 'r' } },
  spec: { containers: [], nodeName: 'testenv-node' },
};

describe('containerEnv', () => {
  it('resolves values, references and fields in order', () => {
    const container: V1Container = {
      name: 'redis',
      envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CM_' }],
      env: [
        { name: 'PASS', valueFrom: { secretKeyRef: { name: 'auth', key: 'password' } } },
        { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
        { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
        { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'MODE' } } },
        { name: 'ADDR', value: '$(POD).$(NS):$(CM_PORT) $(UNDEFINED)' },
      ],
    };
    const env = containerEnv(pod, container, data, '127.0.3.4');
    expect(Object.fromEntries(env)).toEqual({
      CM_MODE: 'cluster',
      CM_PORT: '7000',
      PASS: 's3cret',
      POD: 'redis-0',
      NS: 'ns1',
      IP: '127.0.3.4',
      APP: 'r',
      MODE: 'cluster',
      ADDR: 'redis-0.ns1:7000 $(UNDEFINED)',
    });
  });

  it('skips optional missing references and fails on required ones', () => {
    const optional: V1Container = { name: 'r', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'k', optional: true } } }] };
    expect(containerEnv(pod, optional, data, '127.0.3.4').has('X')).toBe(false);
    const required: V1Container = { name: 'r', env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'auth', key: 'missing' } } }] };
    expect(() => containerEnv(pod, required, data, '127.0.3.4')).toThrow(ContainerConfigError);
    const missingFrom: V1Container = { name: 'r', envFrom: [{ secretRef: { name: 'gone' } }] };
    expect(() => containerEnv(pod, missingFrom, data, '127.0.3.4')).toThrow('secret "gone" not found');
  });
});

describe('referencedNames', () => {
  it('collects env, envFrom and volume references', () => {
    const refs = referencedNames({
      spec: {
        containers: [{ name: 'r', env: [{ name: 'P', valueFrom: { secretKeyRef: { name: 's1', key: 'k' } } }] }],
        volumes: [
          { name: 'c', configMap: { name: 'cm1' } },
          { name: 'p', projected: { sources: [{ secret: { name: 's2' } }, { configMap: { name: 'cm2' } }] } },
        ],
      },
    });
    expect([...refs.configMaps].sort()).toEqual(['cm1', 'cm2']);
    expect([...refs.secrets].sort()).toEqual(['s1', 's2']);
  });
});
