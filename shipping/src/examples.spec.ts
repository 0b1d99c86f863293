import { describe, expect, it } from 'vitest';
import { chartCrds, exampleFiles, readManifests, withNamespaces } from './examples.ts';

describe('examples/kafka', () => {
  const objects = readManifests(exampleFiles('kafka'));

  it('has a ready example of every kind the kafka chart installs', () => {
    const kinds = new Set(objects.map((object) => object.kind));
    for (const crd of chartCrds('kafka')) expect(kinds, crd.spec.names.kind).toContain(crd.spec.names.kind);
  });

  it('references only Secrets and KafkaConnections that the examples define', () => {
    const defined = new Set(objects.map((object) => `${object.kind ?? ''}/${object.metadata?.namespace ?? ''}/${object.metadata?.name ?? ''}`));
    for (const object of objects) {
      const spec = (object as { spec?: { sasl?: { secretRef?: { namespace: string; name: string } }; connectionRef?: { name: string } } }).spec;
      if (spec?.sasl?.secretRef !== undefined) expect(defined).toContain(`Secret/${spec.sasl.secretRef.namespace}/${spec.sasl.secretRef.name}`);
      if (spec?.connectionRef !== undefined) expect(defined).toContain(`KafkaConnection//${spec.connectionRef.name}`);
    }
  });
});

describe('withNamespaces', () => {
  it('renames namespaces, namespaced objects and Secret references, and leaves the input alone', () => {
    const input = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kafka' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's', namespace: 'kafka' } },
      { apiVersion: 'x/v1', kind: 'KafkaConnection', metadata: { name: 'c' }, spec: { sasl: { secretRef: { namespace: 'kafka', name: 's' } } } },
    ];
    const renamed = withNamespaces(input, (ns) => `t-${ns}`);
    expect(renamed.map((o) => o.metadata?.name ?? '')).toEqual(['t-kafka', 's', 'c']);
    expect(renamed[1]?.metadata?.namespace).toBe('t-kafka');
    expect(renamed[2]).toMatchObject({ spec: { sasl: { secretRef: { namespace: 't-kafka' } } } });
    expect(input[0]?.metadata.name).toBe('kafka');
  });
});
