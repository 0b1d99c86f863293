import { describe, expect, it } from 'vitest';
import { nodeManifest } from './node-manifest.ts';

describe('nodeManifest', () => {
  it('describes a Ready node with capacity and a loopback InternalIP', () => {
    const now = new Date('2025-01-01T00:00:00Z');
    const node = nodeManifest({ cpus: 4, memoryBytes: 8 * 1024 ** 3, kernelVersion: '6.1', architecture: 'amd64', kubeletVersion: 'v1.35.0' }, now);
    expect(node.metadata?.name).toBe('testenv-node');
    expect(node.status?.capacity).toMatchObject({ cpu: '4', memory: '8388608Ki', pods: '110' });
    expect(node.status?.allocatable).toEqual(node.status?.capacity);
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'True', lastHeartbeatTime: now });
    expect(node.status?.addresses).toContainEqual({ type: 'InternalIP', address: '127.0.0.1' });
  });
});
