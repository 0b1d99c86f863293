import type { V1EndpointSlice } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { describeEndpointSlices, metricsEndpoint } from './service-reach.ts';

const slice = (ready: boolean, port = 'metrics'): V1EndpointSlice => ({
  addressType: 'IPv4',
  metadata: { name: 'op-metrics-abc' },
  endpoints: [{ addresses: ['10.244.0.7'], conditions: { ready } }],
  ports: [{ name: port, port: 8080 }],
});

describe('describeEndpointSlices', () => {
  it('says when the controller has written no slice', () => {
    expect(describeEndpointSlices('op-metrics', [])).toBe('no EndpointSlice for Service op-metrics');
  });

  it('lists each endpoint with its ready flag and the ports', () => {
    const text = describeEndpointSlices('op-metrics', [
      {
        addressType: 'IPv4',
        metadata: { name: 'op-metrics-abc' },
        endpoints: [{ addresses: ['10.244.0.7'], conditions: { ready: true } }, { addresses: ['10.244.0.8'], conditions: { ready: false } }],
        ports: [{ name: 'metrics', port: 8080 }],
      },
    ]);
    expect(text).toBe('EndpointSlice op-metrics-abc: [10.244.0.7 ready, 10.244.0.8 not ready] ports [metrics:8080]');
  });
});

describe('metricsEndpoint', () => {
  it("is the Pod's address and the slice's metrics port once the Pod is a ready endpoint", () => {
    expect(metricsEndpoint([slice(true)], '10.244.0.7')).toBe('http://10.244.0.7:8080');
  });

  it('is not there while the Pod is absent, not ready, or listed on another port only', () => {
    expect(metricsEndpoint([], '10.244.0.7')).toBeUndefined();
    expect(metricsEndpoint([slice(false)], '10.244.0.7')).toBeUndefined();
    expect(metricsEndpoint([slice(true, 'probes')], '10.244.0.7')).toBeUndefined();
    expect(metricsEndpoint([slice(true)], '10.244.0.8')).toBeUndefined();
    expect(metricsEndpoint([slice(true)], undefined)).toBeUndefined();
  });
});
