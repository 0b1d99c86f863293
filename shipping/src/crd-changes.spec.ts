import { describe, expect, it } from 'vitest';
import { crdChangesMarkdown, diffCrds, flattenSchema, parseCrds } from './crd-changes.ts';
import type { CrdShape, SchemaNode } from './crd-changes.ts';

const crd = (kind: string, spec: SchemaNode, versions: Partial<{ name: string; served: boolean; storage: boolean }>[] = [{}]): CrdShape => ({
  metadata: { name: `${kind.toLowerCase()}s.example.io` },
  spec: { names: { kind }, versions: versions.map((v) => ({ name: v.name ?? 'v1alpha1', served: v.served ?? true, storage: v.storage ?? true, schema: { openAPIV3Schema: { type: 'object', properties: { spec } } } })) },
});
const byName = (...crds: CrdShape[]): Map<string, CrdShape> => new Map(crds.map((c) => [c.metadata.name, c]));

describe('flattenSchema', () => {
  it('names every field by path, with [] for array items and {} for map values', () => {
    const fields = flattenSchema({
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string' }, list: { type: 'array', items: { type: 'object', properties: { host: { type: 'string' } } } }, labels: { type: 'object', additionalProperties: { type: 'string' } } },
    });
    expect([...fields]).toEqual([
      ['a', { type: 'string', required: true }],
      ['list', { type: 'array', required: false }],
      ['list[].host', { type: 'string', required: false }],
      ['labels', { type: 'object', required: false }],
    ]);
  });
});

describe('diffCrds', () => {
  const topic = crd('Topic', { type: 'object', required: ['partitions'], properties: { partitions: { type: 'integer' }, retention: { type: 'string' } } });

  it('finds nothing between equal sets', () => {
    expect(diffCrds(byName(topic), byName(structuredClone(topic)))).toEqual({ added: [], removed: [], changed: [] });
  });

  it('lists added and removed CRDs by kind and name', () => {
    expect(diffCrds(byName(topic), byName(crd('User', {})))).toEqual({ added: ['User (users.example.io)'], removed: ['Topic (topics.example.io)'], changed: [] });
  });

  it('lists fields added, removed, retyped and newly required, and version flips', () => {
    const next = crd('Topic', { type: 'object', required: ['partitions', 'name'], properties: { partitions: { type: 'string' }, name: { type: 'string' } } }, [{ storage: false }, { name: 'v1' }]);
    expect(diffCrds(byName(topic), byName(next)).changed).toEqual([
      {
        kind: 'Topic',
        name: 'topics.example.io',
        details: ['v1alpha1: storage true → false', 'v1alpha1: field spec.partitions type integer → string', 'v1alpha1: field spec.name added (string, required)', 'v1alpha1: field spec.retention removed', 'version v1 added'],
      },
    ]);
  });

  it('lists an added object once, not each field inside it', () => {
    const next = crd('Topic', { type: 'object', required: ['partitions'], properties: { partitions: { type: 'integer' }, retention: { type: 'string' }, backup: { type: 'object', properties: { schedule: { type: 'string' }, s3: { type: 'object', properties: { bucket: { type: 'string' } } } } } } });
    expect(diffCrds(byName(topic), byName(next)).changed[0]?.details).toEqual(['v1alpha1: field spec.backup added (object)']);
    expect(diffCrds(byName(next), byName(topic)).changed[0]?.details).toEqual(['v1alpha1: field spec.backup removed']);
  });

  it('still mentions a CRD that changed only in what the field walk does not compare', () => {
    const described = crd('Topic', { type: 'object', required: ['partitions'], properties: { partitions: { type: 'integer' }, retention: { type: 'string', description: 'new words' } as SchemaNode } });
    expect(diffCrds(byName(topic), byName(described)).changed[0]?.details).toEqual(['other schema details changed (descriptions, validation rules, defaults or columns)']);
  });
});

describe('parseCrds and crdChangesMarkdown', () => {
  it('reads CRDs from multi-document YAML and refuses other kinds', () => {
    const text = 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: a.example.io}\nspec: {names: {kind: A}, versions: []}\n---\n';
    expect([...parseCrds([text]).keys()]).toEqual(['a.example.io']);
    expect(() => parseCrds(['kind: ConfigMap\nmetadata: {name: x}\n'])).toThrow(/not a CustomResourceDefinition/);
  });

  it('writes one subsection per operator, saying so when nothing changed', () => {
    const markdown = crdChangesMarkdown(
      [
        { operator: 'kafka-operator', changes: { added: ['KafkaUser (kafkausers.kafka.domain-operators.io)'], removed: [], changed: [{ kind: 'KafkaTopic', name: 'kafkatopics.kafka.domain-operators.io', details: ['v1alpha1: field spec.x added (string)'] }] } },
        { operator: 'redis-operator', changes: { added: [], removed: [], changed: [] } },
      ],
      'v0.1.0',
    );
    expect(markdown).toBe(
      [
        '## CRD changes since v0.1.0',
        '',
        '### kafka-operator',
        '',
        '- Added KafkaUser (kafkausers.kafka.domain-operators.io)',
        '- Changed KafkaTopic (kafkatopics.kafka.domain-operators.io):',
        '  - v1alpha1: field spec.x added (string)',
        '',
        '### redis-operator',
        '',
        'No changes.',
        '',
      ].join('\n'),
    );
  });
});
