import { describe, expect, it } from 'vitest';
import { belongsTo, componentsFor, formatProgress, kubectlGetArgs } from './local-stack.ts';

describe('local stack pure parts', () => {
  it('formats progress as testenv does', () => {
    expect(formatProgress(12_345, 'kafka-operator', 'ready')).toBe('[  12.3s] kafka-operator: ready');
  });

  it('needs the apiserver and each operator\'s backend', () => {
    expect(componentsFor(['redis', 'kafka'])).toEqual(['apiserver', 'kafka', 'redis']);
  });

  it('keeps only the examples of the selected operators', () => {
    const systems = ['kafka'] as const;
    expect(belongsTo({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } }, systems)).toBe(true);
    expect(belongsTo({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kafka-operator-system-t1' } }, systems)).toBe(true);
    expect(belongsTo({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'opensearch-operator-system' } }, systems)).toBe(false);
    expect(belongsTo({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'opensearch-operator-system' } }, systems)).toBe(false);
    expect(belongsTo({ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', metadata: { name: 'c', namespace: 'team-a' } }, systems)).toBe(false);
    expect(belongsTo({ apiVersion: 'kafka.domain-operators.io/v1alpha1', kind: 'KafkaTopic', metadata: { name: 't', namespace: 'team-a' } }, systems)).toBe(true);
  });

  it('asks kubectl for the categories of the running operators', () => {
    expect(kubectlGetArgs('.testenv/kubeconfig', ['kafka', 'opensearch', 'redis'])).toEqual(['--kubeconfig', '.testenv/kubeconfig', 'get', 'kafka,opensearch,redis', '-A']);
  });
});
