import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { V1ConfigMap } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coreTypes } from '../client/resource-type.ts';
import type { LiveCluster } from '../testing/control-plane.ts';
import { deleteNamespace, freshNamespace, liveCluster } from '../testing/control-plane.ts';
import { HttpWatchTransport } from './http-watch-transport.ts';

describe('HttpWatchTransport lists against the apiserver', () => {
  let cluster: LiveCluster;
  let namespace: string;

  beforeAll(async () => {
    cluster = await liveCluster();
    namespace = await freshNamespace(cluster, 'watch-transport');
    for (let i = 0; i < 5; i++) {
      const configMap: V1ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace, name: `cm-${i}` }, data: { text: `"quoted" \\ ü ${'x'.repeat(40_000)} ${i}` } };
      await cluster.client.create(coreTypes.configMap, configMap);
    }
  });

  afterAll(async () => {
    await deleteNamespace(cluster, namespace);
  });

  it('reads every page over one reused connection, each item parsed as the server wrote it', async () => {
    const transport = new HttpWatchTransport<V1ConfigMap>({ kubeConfig: cluster.kubeConfig }, { resource: coreTypes.configMap, namespace });
    const signal = new AbortController().signal;
    const sockets: unknown[] = [];
    const onSocket = (message: unknown): void => {
      sockets.push(message);
    };
    subscribe('net.client.socket', onSocket);
    const names: string[] = [];
    try {
      let page = await transport.list({ limit: 2, signal });
      for (const item of page.items) names.push(item.metadata?.name ?? '');
      while (page.continue !== undefined) {
        page = await transport.list({ limit: 2, continue: page.continue, signal });
        for (const item of page.items) names.push(item.metadata?.name ?? '');
        expect(page.items.every((item) => item.apiVersion === 'v1' && item.kind === 'ConfigMap')).toBe(true);
      }
      expect(page.resourceVersion).not.toBe('');
    } finally {
      unsubscribe('net.client.socket', onSocket);
    }
    // kube-root-ca.crt is there too; 6 objects in pages of 2: three requests, one connection.
    expect(names.filter((name) => name.startsWith('cm-')).sort()).toEqual(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
    expect(sockets).toHaveLength(1);
    const listed = await cluster.client.get(coreTypes.configMap, { namespace, name: 'cm-3' });
    const again = await transport.list({ limit: 10, signal });
    expect(again.items.find((item) => item.metadata?.name === 'cm-3')?.data).toEqual(listed.data);
  });
});
