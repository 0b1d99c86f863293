import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives this operator its own leader election lease', () => {
    expect(loadConfig([], {}).leaderElection.leaseName).toBe('kafka-operator.kafka.domain-operators.io');
  });

  it('lets the chart override the lease name', () => {
    expect(loadConfig(['--leader-election-id', 'other'], {}).leaderElection.leaseName).toBe('other');
  });
});
