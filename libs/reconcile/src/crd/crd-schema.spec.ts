import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { CrdError, immutable, toStructuralSchema } from './crd-schema.ts';

const d = (description: string) => ({ description });

function errorOf(run: () => unknown): CrdError {
  try {
    run();
  } catch (err) {
    if (err instanceof CrdError) return err;
    throw err;
  }
  throw new Error('expected a CrdError');
}

describe('toStructuralSchema', () => {
  it('lists only non-optional properties as required, in declaration order', () => {
    const schema = Type.Object({ b: Type.String(d('b')), a: Type.Optional(Type.String(d('a'))), c: Type.Boolean(d('c')) }, d('root'));
    expect(toStructuralSchema(schema, 'spec')).toEqual({
      description: 'root',
      type: 'object',
      properties: { b: { description: 'b', type: 'string' }, a: { description: 'a', type: 'string' }, c: { description: 'c', type: 'boolean' } },
      required: ['b', 'c'],
    });
  });

  it('leaves no TypeBox symbols, $id or $schema in the output', () => {
    const schema = Type.Object({ a: Type.Optional(Type.Readonly(Type.String(d('a')))) }, { ...d('root'), $id: 'Root', $schema: 'https://json-schema.org/draft/2020-12/schema' });
    const out = toStructuralSchema(schema, 'spec');
    expect(out).toEqual({ description: 'root', type: 'object', properties: { a: { description: 'a', type: 'string' } } });
    expect(Object.getOwnPropertySymbols(out)).toEqual([]);
    expect(Object.getOwnPropertySymbols(out.properties?.['a'])).toEqual([]);
  });

  it('turns a union of literals into an enum, keeping its description and default', () => {
    const schema = Type.Union([Type.Literal('Always'), Type.Literal('Never')], { description: 'when', default: 'Never' });
    expect(toStructuralSchema(schema, 'spec.when')).toEqual({ description: 'when', type: 'string', enum: ['Always', 'Never'], default: 'Never' });
    expect(toStructuralSchema(Type.Literal(3, d('three')), 'x')).toEqual({ description: 'three', type: 'integer', enum: [3] });
  });

  it('refuses an enum of mixed types and unions of structures, naming the path', () => {
    expect(errorOf(() => toStructuralSchema(Type.Union([Type.Literal('a'), Type.Literal(1)], d('x')), 'spec.x')).message).toBe(
      'spec.x: an enum must have values of one type, got string, integer',
    );
    const objects = Type.Union([Type.Object({ a: Type.String(d('a')) }), Type.Object({ b: Type.String(d('b')) })], d('either'));
    expect(errorOf(() => toStructuralSchema(objects, 'spec.either')).path).toBe('spec.either');
  });

  it('turns T | null into a nullable T and integer | string into int-or-string', () => {
    expect(toStructuralSchema(Type.Union([Type.String(), Type.Null()], d('maybe')), 'x')).toEqual({ description: 'maybe', type: 'string', nullable: true });
    expect(toStructuralSchema(Type.Union([Type.Integer(), Type.String()], d('port')), 'x')).toEqual({
      description: 'port',
      anyOf: [{ type: 'integer' }, { type: 'string' }],
      'x-kubernetes-int-or-string': true,
    });
  });

  it('turns Type.Record(Type.String(), X) into additionalProperties: X', () => {
    expect(toStructuralSchema(Type.Record(Type.String(), Type.Integer({ minimum: 0 }), d('quotas')), 'spec.quotas')).toEqual({
      description: 'quotas',
      type: 'object',
      additionalProperties: { type: 'integer', format: 'int64', minimum: 0 },
    });
    const records = Type.Record(Type.String(), Type.Object({ size: Type.Integer() }), d('by name'));
    expect(errorOf(() => toStructuralSchema(records, 'spec.byName')).message).toBe(
      'spec.byName[key].size: missing description (every field needs one, so that `kubectl explain` can show it)',
    );
  });

  it('refuses maps whose keys are restricted by a pattern', () => {
    const schema = Type.Record(Type.String({ pattern: '^[a-z]+$' }), Type.String(), d('map'));
    expect(errorOf(() => toStructuralSchema(schema, 'spec.map')).message).toMatch(/^spec\.map: map keys cannot be restricted by a pattern/);
  });

  it('marks Unknown, Any and maps of unknown values as preserving unknown fields', () => {
    expect(toStructuralSchema(Type.Unknown(d('anything')), 'x')).toEqual({ description: 'anything', 'x-kubernetes-preserve-unknown-fields': true });
    expect(toStructuralSchema(Type.Any(d('anything')), 'x')).toEqual({ description: 'anything', 'x-kubernetes-preserve-unknown-fields': true });
    expect(toStructuralSchema(Type.Record(Type.String(), Type.Unknown(), d('config')), 'x')).toEqual({
      description: 'config',
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
    expect(toStructuralSchema(Type.Object({}, { ...d('open'), additionalProperties: true }), 'x')).toEqual({
      description: 'open',
      type: 'object',
      'x-kubernetes-preserve-unknown-fields': true,
    });
  });

  it('gives integers int32 when their bounds fit, int64 otherwise, and keeps an explicit format', () => {
    expect(toStructuralSchema(Type.Integer({ ...d('p'), minimum: 1, maximum: 65535 }), 'x').format).toBe('int32');
    expect(toStructuralSchema(Type.Integer({ ...d('p'), minimum: 1 }), 'x').format).toBe('int64');
    expect(toStructuralSchema(Type.Integer({ ...d('p'), minimum: 0, maximum: 2 ** 40 }), 'x').format).toBe('int64');
    expect(toStructuralSchema(Type.Integer({ ...d('p'), format: 'int32' }), 'x').format).toBe('int32');
    expect(toStructuralSchema(Type.Number(d('n')), 'x')).toEqual({ description: 'n', type: 'number' });
  });

  it('rewrites draft-2019 exclusive bounds as OpenAPI v3.0 flags', () => {
    expect(toStructuralSchema(Type.Number({ ...d('ratio'), exclusiveMinimum: 0, exclusiveMaximum: 1 }), 'x')).toEqual({
      description: 'ratio',
      type: 'number',
      minimum: 0,
      exclusiveMinimum: true,
      maximum: 1,
      exclusiveMaximum: true,
    });
  });

  it('keeps defaults, bounds, lengths and patterns', () => {
    const schema = Type.Object(
      {
        size: Type.Integer({ ...d('size'), minimum: 1, maximum: 10, default: 3 }),
        name: Type.String({ ...d('name'), minLength: 1, maxLength: 63, pattern: '^[a-z]+$', default: 'x' }),
        tags: Type.Array(Type.String(), { ...d('tags'), minItems: 1, maxItems: 5, default: ['a'] }),
        limits: Type.Object({ cpu: Type.Optional(Type.String(d('cpu'))) }, { ...d('limits'), default: {} }),
      },
      d('root'),
    );
    const out = toStructuralSchema(schema, 'spec');
    expect(out.properties?.['size']).toEqual({ description: 'size', type: 'integer', format: 'int32', default: 3, minimum: 1, maximum: 10 });
    expect(out.properties?.['name']).toEqual({ description: 'name', type: 'string', default: 'x', minLength: 1, maxLength: 63, pattern: '^[a-z]+$' });
    expect(out.properties?.['tags']).toEqual({ description: 'tags', type: 'array', default: ['a'], minItems: 1, maxItems: 5, items: { type: 'string' } });
    expect(out.properties?.['limits']?.default).toEqual({});
  });

  it('names the path of a field without a description, through arrays and maps', () => {
    const schema = Type.Object(
      { ports: Type.Array(Type.Object({ name: Type.String(d('n')), port: Type.Integer() }), d('ports')) },
      d('root'),
    );
    const error = errorOf(() => toStructuralSchema(schema, 'spec'));
    expect(error.path).toBe('spec.ports[].port');
    expect(error.message).toBe('spec.ports[].port: missing description (every field needs one, so that `kubectl explain` can show it)');
    expect(errorOf(() => toStructuralSchema(Type.Object({}), 'status')).path).toBe('status');
    expect(errorOf(() => toStructuralSchema(Type.String({ description: '  ' }), 'spec.x')).message).toBe('spec.x: description must be a non-empty string');
  });

  it('passes CEL rules and other x-kubernetes extensions through', () => {
    const schema = Type.Object(
      {
        topicName: Type.String({ ...d('topic'), 'x-kubernetes-validations': [immutable('topicName is immutable')] }),
        hosts: Type.Array(Type.String(), { ...d('hosts'), 'x-kubernetes-list-type': 'set' }),
        partitions: Type.Integer({
          ...d('partitions'),
          'x-kubernetes-validations': [{ message: 'partitions can only increase', rule: 'self >= oldSelf', reason: 'FieldValueForbidden' }],
        }),
      },
      d('root'),
    );
    const out = toStructuralSchema(schema, 'spec');
    expect(out.properties?.['topicName']?.['x-kubernetes-validations']).toEqual([{ rule: 'self == oldSelf', message: 'topicName is immutable' }]);
    expect(out.properties?.['hosts']?.['x-kubernetes-list-type']).toBe('set');
    const partitionRules = out.properties?.['partitions']?.['x-kubernetes-validations'];
    expect(partitionRules).toEqual([{ rule: 'self >= oldSelf', message: 'partitions can only increase', reason: 'FieldValueForbidden' }]);
    expect(Object.keys(partitionRules?.[0] ?? {})).toEqual(['rule', 'message', 'reason']);
  });

  it('refuses malformed CEL rules', () => {
    const schema = Type.String({ ...d('x'), 'x-kubernetes-validations': [{ rule: 'self != ""' }] });
    expect(errorOf(() => toStructuralSchema(schema, 'spec.x')).message).toBe('spec.x: x-kubernetes-validations[0] needs a non-empty rule and message');
  });

  it('refuses what a structural schema cannot express, with a hint', () => {
    expect(errorOf(() => toStructuralSchema(Type.Array(Type.String(), { ...d('x'), uniqueItems: true }), 'spec.x')).message).toBe(
      "spec.x: uniqueItems is not allowed in a CRD schema; use 'x-kubernetes-list-type': 'set'",
    );
    expect(errorOf(() => toStructuralSchema(Type.Tuple([Type.String(), Type.Integer()], d('pair')), 'spec.pair')).path).toBe('spec.pair');
    expect(errorOf(() => toStructuralSchema(Type.Ref('Other', d('ref')), 'spec.ref')).message).toMatch(/unsupported schema keyword "\$ref": references/);
    const both = Type.Intersect([Type.Object({ a: Type.String(d('a')) }), Type.Object({ b: Type.String(d('b')) })], d('both'));
    expect(errorOf(() => toStructuralSchema(both, 'spec.both')).message).toMatch(/"allOf": intersections .* use Type.Composite/);
    expect(errorOf(() => toStructuralSchema(Type.Null(d('nothing')), 'spec.nothing')).message).toBe('spec.nothing: type "null" cannot be expressed in a CRD schema');
    expect(errorOf(() => toStructuralSchema(Type.Integer({ ...d('n'), minLength: 1 }), 'spec.n')).message).toBe('spec.n: "minLength" does not apply to type integer');
    expect(errorOf(() => toStructuralSchema(Type.Date(d('when')), 'spec.when')).message).toBe('spec.when: type "Date" cannot be expressed in a CRD schema');
  });

  it('writes keys in one order whatever order the options were given in', () => {
    const a = toStructuralSchema(Type.Integer({ default: 1, maximum: 9, minimum: 0, description: 'n' }), 'x');
    const b = toStructuralSchema(Type.Integer({ description: 'n', minimum: 0, maximum: 9, default: 1 }), 'x');
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(Object.keys(a)).toEqual(['description', 'type', 'format', 'default', 'minimum', 'maximum']);
  });

  it('does not modify its input', () => {
    const schema = Type.Object({ n: Type.Integer({ ...d('n'), exclusiveMinimum: 0 }) }, d('root'));
    const before = JSON.stringify(schema);
    toStructuralSchema(schema, 'spec');
    expect(JSON.stringify(schema)).toBe(before);
  });
});
