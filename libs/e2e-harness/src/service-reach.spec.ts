import type { V1Pod, V1Service } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { describeEndpointSlices, targetPort } from './service-reach.ts';

const service = (target: number | string | undefined): V1Service => ({ spec: { ports: [{ name: 'metrics', port: 8080, ...(target === undefined ? {} : { targetPort: target }) }] } });
const pod: V1Pod = { spec: { containers: [{ name: 'operator', ports: [{ name: 'probes', containerPort: 8081 }, { name: 'metrics', containerPort: 9090 }] }] } };

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

describe('targetPort', () => {
  it('takes a numeric target as is', () => {
    expect(targetPort(service(8443), pod)).toBe(8443);
  });

  it("resolves a named target through the Pod's container ports", () => {
    expect(targetPort(service('metrics'), pod)).toBe(9090);
  });

  it('has no answer when the Pod lacks the named port', () => {
    expect(targetPort(service('other'), pod)).toBeUndefined();
  });
});
