import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { metadataOnly } from '../client/metadata-only.ts';
import { coreTypes } from '../client/resource-type.ts';
import { SharedInformers } from './informer.ts';
import { describeScope, informerId, informerName, InformerScopeConflictError, sameScope } from './informer-scope.ts';
import { MultiNamespaceInformers } from './multi-namespace-informers.ts';

const owned = { labelSelector: 'app.kubernetes.io/managed-by=kafka-operator' };

describe('informer scopes', () => {
  it('key a metadata-only informer apart from the full one', () => {
    expect(informerId(coreTypes.secret)).toBe('/v1/secrets');
    expect(informerId(metadataOnly(coreTypes.secret))).toBe('/v1/secrets#metadata');
    expect(informerName(metadataOnly(coreTypes.secret))).toBe('secrets(metadata)');
  });

  it('compare selectors as strings, absent as empty, and describe them', () => {
    expect(sameScope({}, { labelSelector: '' })).toBe(true);
    expect(sameScope(owned, { ...owned })).toBe(true);
    expect(sameScope(owned, {})).toBe(false);
    expect(sameScope({ fieldSelector: 'metadata.name=a' }, { fieldSelector: 'metadata.name=b' })).toBe(false);
    expect(describeScope({})).toBe('all objects');
    expect(describeScope({ ...owned, fieldSelector: 'type=Opaque' })).toBe('labelSelector=app.kubernetes.io/managed-by=kafka-operator fieldSelector=type=Opaque');
  });
});

describe('SharedInformers scope rule', () => {
  const informers = (): SharedInformers => new SharedInformers({ kubeConfig: new KubeConfig() });

  it('shares one informer between requests with the same scope', () => {
    const cache = informers();
    expect(cache.informerFor(coreTypes.secret, { scope: owned })).toBe(cache.informerFor(coreTypes.secret, { scope: { ...owned } }));
  });

  it('refuses a second scope for a kind, naming both, instead of sharing the first', () => {
    const cache = informers();
    cache.informerFor(coreTypes.secret, { scope: owned });
    expect(() => cache.informerFor(coreTypes.secret)).toThrow(InformerScopeConflictError);
    expect(() => cache.informerFor(coreTypes.secret, { scope: { labelSelector: 'other=1' } })).toThrow(
      'informer for secrets already exists with scope (labelSelector=app.kubernetes.io/managed-by=kafka-operator); refusing a second one with scope (labelSelector=other=1)',
    );
  });

  it('keeps a metadata-only informer of the kind beside the full one, each with its own scope', () => {
    const cache = informers();
    const full = cache.informerFor(coreTypes.secret, { scope: owned });
    const metadata = cache.informerFor(metadataOnly(coreTypes.secret));
    expect(metadata).not.toBe(full);
    expect(cache.informerFor(metadataOnly(coreTypes.secret))).toBe(metadata);
    expect(() => cache.informerFor(metadataOnly(coreTypes.secret), { scope: owned })).toThrow(/secrets\(metadata\)/);
  });

  it('applies in a multi-namespace cache too', () => {
    const cache = new MultiNamespaceInformers({ kubeConfig: new KubeConfig() }, { namespaces: ['a', 'b'] });
    cache.informerFor(coreTypes.pod, { scope: owned });
    expect(() => cache.informerFor(coreTypes.pod)).toThrow(InformerScopeConflictError);
    expect(cache.informerFor(metadataOnly(coreTypes.pod))).not.toBe(cache.informerFor(coreTypes.pod, { scope: owned }));
  });
});
