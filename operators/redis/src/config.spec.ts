import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives this operator its own leader election lease', () => {
    expect(loadConfig([], {}).leaderElection.leaseName).toBe('redis-operator.redis.domain-operators.io');
  });

  it('lets the chart override the lease name', () => {
    expect(loadConfig(['--leader-election-id', 'other'], {}).leaderElection.leaseName).toBe('other');
  });
});

describe('loadConfig agentImage', () => {
  it('is the chart-given image of the operator itself, pulled IfNotPresent unless told otherwise', () => {
    expect(loadConfig([], { OPERATOR_IMAGE: 'ghcr.io/x/redis-operator:1.2.3' }).agentImage).toEqual({ image: 'ghcr.io/x/redis-operator:1.2.3', pullPolicy: 'IfNotPresent' });
    expect(loadConfig([], { OPERATOR_IMAGE: 'r:1', OPERATOR_IMAGE_PULL_POLICY: 'Never' }).agentImage?.pullPolicy).toBe('Never');
  });

  it('is absent when the environment does not name it', () => {
    expect(loadConfig([], {}).agentImage).toBeUndefined();
    expect(loadConfig([], { OPERATOR_IMAGE: ' ' }).agentImage).toBeUndefined();
  });
});
