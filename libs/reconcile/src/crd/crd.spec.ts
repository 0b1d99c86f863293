import { Type } from '@sinclair/typebox';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { defineCustomResource, deletionPolicy } from './crd.ts';
import type { CustomResourceOptions, ResourceOf } from './crd.ts';
import { CrdError } from './crd-schema.ts';
import type { TSchema } from '@sinclair/typebox';
import type { ResourceType } from '../client/resource-type.ts';
import { gizmos } from './testdata/gizmo.ts';
import type { Gizmo } from './testdata/gizmo.ts';

const minimal = {
  group: 'example.domain-operators.io',
  version: 'v1alpha1',
  kind: 'Thing',
  plural: 'things',
  singular: 'thing',
  scope: 'Cluster',
  description: 'A thing.',
  spec: Type.Object({ size: Type.Integer({ description: 'size' }) }, { description: 'spec' }),
} as const satisfies CustomResourceOptions<TSchema, undefined>;

function errorOf(run: () => unknown): CrdError {
  try {
    run();
  } catch (err) {
    if (err instanceof CrdError) return err;
    throw err;
  }
  throw new Error('expected a CrdError');
}

describe('defineCustomResource', () => {
  it('gives the ResourceType, names and apiVersion', () => {
    expect(gizmos.type).toEqual({ group: 'test.domain-operators.io', version: 'v1', kind: 'Gizmo', plural: 'gizmos', namespaced: true });
    expect(gizmos.name).toBe('gizmos.test.domain-operators.io');
    expect(gizmos.apiVersion).toBe('test.domain-operators.io/v1');
    expect(gizmos.crd.metadata.name).toBe(gizmos.name);
    expect(gizmos.crd.spec.names).toEqual({ kind: 'Gizmo', listKind: 'GizmoList', plural: 'gizmos', singular: 'gizmo', shortNames: ['gz'], categories: ['testing'] });
    expect(gizmos.crd.spec.scope).toBe('Namespaced');
    expect(defineCustomResource(minimal).type.namespaced).toBe(false);
  });

  it('types objects from the schemas', () => {
    expectTypeOf<Gizmo['spec']['color']>().toEqualTypeOf<'red' | 'green' | 'blue'>();
    expectTypeOf<Gizmo['spec']['replicas']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Gizmo['spec']['labels']>().toEqualTypeOf<Record<string, string> | undefined>();
    expectTypeOf<Gizmo['spec']['deletionPolicy']>().toEqualTypeOf<'Retain' | 'Delete'>();
    expectTypeOf<NonNullable<Gizmo['status']>['phase']>().toEqualTypeOf<string | undefined>();
    const thing = defineCustomResource(minimal);
    expectTypeOf<ResourceOf<typeof thing>['spec']>().toEqualTypeOf<{ size: number }>();
    expectTypeOf<ResourceOf<typeof thing>['status']>().toEqualTypeOf<undefined>();
    expectTypeOf(thing.type).toEqualTypeOf<ResourceType<ResourceOf<typeof thing>>>();
  });

  it('builds one served and stored version with a structural root schema', () => {
    const [version] = gizmos.crd.spec.versions;
    expect(version?.name).toBe('v1');
    expect(version?.served).toBe(true);
    expect(version?.storage).toBe(true);
    const root = version?.schema.openAPIV3Schema;
    expect(root?.description).toBe('A Gizmo is a test-only resource that exercises CRD generation.');
    expect(root?.type).toBe('object');
    expect(root?.required).toEqual(['spec']);
    expect(Object.keys(root?.properties ?? {})).toEqual(['apiVersion', 'kind', 'metadata', 'spec', 'status']);
    expect(root?.properties?.['metadata']).toEqual({ type: 'object' });
  });

  it('adds the status subresource only when there is a status schema', () => {
    expect(gizmos.crd.spec.versions[0]?.subresources).toEqual({ status: {} });
    const thing = defineCustomResource(minimal).crd.spec.versions[0];
    expect(thing?.subresources).toBeUndefined();
    expect(thing?.schema.openAPIV3Schema.properties?.['status']).toBeUndefined();
  });

  it('appends field-level and spec-level CEL rules on the spec', () => {
    const spec = Type.Object({ a: Type.Integer({ description: 'a' }) }, { description: 'spec', 'x-kubernetes-validations': [{ rule: 'self.a > 0', message: 'a > 0' }] });
    const kind = defineCustomResource({ ...minimal, spec, validations: [{ rule: 'self.a < 9', message: 'a < 9', fieldPath: '.a' }] });
    expect(kind.crd.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec']?.['x-kubernetes-validations']).toEqual([
      { rule: 'self.a > 0', message: 'a > 0' },
      { rule: 'self.a < 9', message: 'a < 9', fieldPath: '.a' },
    ]);
  });

  it('appends an Age column unless one is given', () => {
    expect(gizmos.crd.spec.versions[0]?.additionalPrinterColumns).toEqual([
      { name: 'Color', type: 'string', jsonPath: '.spec.color' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ]);
    const own = defineCustomResource({ ...minimal, printerColumns: [{ name: 'Age', type: 'string', jsonPath: '.status.age', priority: 1 }] });
    expect(own.crd.spec.versions[0]?.additionalPrinterColumns).toEqual([{ name: 'Age', type: 'string', priority: 1, jsonPath: '.status.age' }]);
    expect(errorOf(() => defineCustomResource({ ...minimal, printerColumns: [{ name: 'X', type: 'string', jsonPath: 'spec.x' }] })).path).toBe(
      'printerColumns[0].jsonPath',
    );
  });

  it('refuses invalid names, naming the option', () => {
    expect(errorOf(() => defineCustomResource({ ...minimal, group: 'nodot' })).message).toBe('group: must be a DNS subdomain with at least one dot');
    expect(errorOf(() => defineCustomResource({ ...minimal, version: '1' })).path).toBe('version');
    expect(errorOf(() => defineCustomResource({ ...minimal, kind: 'thing' })).path).toBe('kind');
    expect(errorOf(() => defineCustomResource({ ...minimal, plural: 'Things' })).path).toBe('plural');
    expect(errorOf(() => defineCustomResource({ ...minimal, shortNames: ['T'] })).path).toBe('shortNames');
    expect(errorOf(() => defineCustomResource({ ...minimal, description: '' })).path).toBe('description');
  });

  it('refuses a spec field without a description, naming its path', () => {
    const spec = Type.Object({ nested: Type.Object({ x: Type.String() }, { description: 'nested' }) }, { description: 'spec' });
    expect(errorOf(() => defineCustomResource({ ...minimal, spec })).path).toBe('spec.nested.x');
    const status = Type.Object({ phase: Type.String() }, { description: 'status' });
    expect(errorOf(() => defineCustomResource({ ...minimal, status })).path).toBe('status.phase');
  });
});

describe('deletionPolicy', () => {
  it('is a Retain | Delete enum with a description and the given default', () => {
    const spec = Type.Object({ deletionPolicy: deletionPolicy('Retain') }, { description: 'spec' });
    const schema = defineCustomResource({ ...minimal, spec }).crd.spec.versions[0]?.schema.openAPIV3Schema.properties?.['spec']?.properties?.['deletionPolicy'];
    expect(schema).toMatchObject({ type: 'string', enum: ['Retain', 'Delete'], default: 'Retain' });
    expect(schema?.description).toMatch(/Defaults to Retain\.$/);
  });
});
