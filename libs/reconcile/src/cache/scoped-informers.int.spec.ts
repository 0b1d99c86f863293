import type { V1Secret } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataOnly } from '../client/metadata-only.ts';
import { coreTypes } from '../client/resource-type.ts';
import type { LiveCluster } from '../testing/control-plane.ts';
import { deleteNamespace, eventually, freshNamespace, liveCluster } from '../testing/control-plane.ts';
import { SharedInformers } from './informer.ts';

const LABEL = 'scoped.test.domain-operators.io/owned';

function secret(namespace: string, name: string, labels: Record<string, string> = {}): V1Secret {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name, labels }, stringData: { password: `pw-${name}` } };
}

describe('scoped and metadata-only informers against the apiserver', () => {
  let cluster: LiveCluster;
  let namespace: string;
  const stop = new AbortController();
  let informers: SharedInformers;

  beforeAll(async () => {
    cluster = await liveCluster();
    namespace = await freshNamespace(cluster, 'scoped-informers');
    await cluster.client.create(coreTypes.secret, secret(namespace, 'ours', { [LABEL]: 'yes' }));
    await cluster.client.create(coreTypes.secret, secret(namespace, 'theirs'));
    informers = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace });
  });

  afterAll(async () => {
    stop.abort();
    await deleteNamespace(cluster, namespace);
  });

  it('a label-scoped informer holds only matching Secrets, a field-scoped one only the named one, a metadata-only one every Secret without data', async () => {
    const labelled = informers.informerFor(coreTypes.secret, { scope: { labelSelector: `${LABEL}=yes` } });
    const metadata = informers.informerFor(metadataOnly(coreTypes.secret));
    const other = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace });
    const byName = other.informerFor(coreTypes.secret, { scope: { fieldSelector: 'metadata.name=theirs' } });
    const runs = [informers.run(stop.signal), other.run(stop.signal)];
    await Promise.all([informers.waitForSync(stop.signal), other.waitForSync(stop.signal)]);
    // The first list is served from the apiserver's watch cache (resourceVersion "0"): it may trail the creates by a moment.
    const names = (store: { list(namespace?: string): readonly { metadata?: { name?: string } }[] }): string[] => store.list(namespace).map((s) => s.metadata?.name ?? '').sort();
    await eventually(
      () => Promise.resolve(names(labelled.store).length === 1 && names(byName.store).length === 1 && names(metadata.store).includes('ours') && names(metadata.store).includes('theirs')),
      10_000,
      'every informer listed the Secrets created before it started',
    );

    expect(labelled.store.list(namespace).map((s) => s.metadata?.name)).toEqual(['ours']);
    expect(labelled.store.get(`${namespace}/ours`)?.data?.['password']).toBe(Buffer.from('pw-ours').toString('base64'));
    expect(byName.store.list(namespace).map((s) => s.metadata?.name)).toEqual(['theirs']);
    const listed = metadata.store.list(namespace).filter((s) => s.metadata.name === 'ours' || s.metadata.name === 'theirs');
    expect(listed.map((s) => s.metadata.name).sort()).toEqual(['ours', 'theirs']);
    for (const object of listed) {
      expect(Object.keys(object).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(object).toMatchObject({ apiVersion: 'v1', kind: 'Secret' });
      expect(object.metadata.resourceVersion).toMatch(/^\d+$/);
    }

    // Watch events: a change to an unlabelled Secret reaches the metadata-only informer (new resourceVersion, no data)
    // and never the label-scoped one; labelling it brings it into the scoped cache.
    const before = metadata.store.get(`${namespace}/theirs`)?.metadata.resourceVersion;
    await cluster.client.patch(coreTypes.secret, { namespace, name: 'theirs' }, { type: 'merge', body: { stringData: { password: 'rotated' } } });
    await eventually(() => Promise.resolve(metadata.store.get(`${namespace}/theirs`)?.metadata.resourceVersion !== before), 10_000, 'the metadata-only watch saw the change');
    expect(Object.keys(metadata.store.get(`${namespace}/theirs`) ?? {}).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    expect(labelled.store.get(`${namespace}/theirs`)).toBeUndefined();
    await cluster.client.patch(coreTypes.secret, { namespace, name: 'theirs' }, { type: 'merge', body: { metadata: { labels: { [LABEL]: 'yes' } } } });
    await eventually(() => Promise.resolve(labelled.store.get(`${namespace}/theirs`) !== undefined), 10_000, 'the labelled Secret entered the scoped cache');
    expect(labelled.store.get(`${namespace}/theirs`)?.data?.['password']).toBe(Buffer.from('rotated').toString('base64'));

    stop.abort();
    await Promise.allSettled(runs);
  });
});
