import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives this operator its own leader election lease', () => {
    expect(loadConfig([], {}).leaderElection.leaseName).toBe('opensearch-operator.opensearch.domain-operators.io');
  });

  it('lets the chart override the lease name', () => {
    expect(loadConfig(['--leader-election-id', 'other'], {}).leaderElection.leaseName).toBe('other');
  });
});

describe('loadConfig: OpenSearch settings', () => {
  it('defaults the request timeout to 30 s and reads OPENSEARCH_REQUEST_TIMEOUT', () => {
    expect(loadConfig([], {}).opensearch.requestTimeoutMs).toBe(30_000);
    expect(loadConfig([], { OPENSEARCH_REQUEST_TIMEOUT: '5s' }).opensearch.requestTimeoutMs).toBe(5_000);
  });

  it('refuses a timeout it cannot parse, naming the variable', () => {
    expect(() => loadConfig([], { OPENSEARCH_REQUEST_TIMEOUT: 'soon' })).toThrow(/OPENSEARCH_REQUEST_TIMEOUT/);
  });
});
