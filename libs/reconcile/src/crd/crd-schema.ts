import type { TSchema } from '@sinclair/typebox';

/**
 * One CEL validation rule (`x-kubernetes-validations`). `self` is the value of the field the rule sits on;
 * a rule that reads `oldSelf` is a transition rule and runs on updates only, when the field exists both before
 * and after.
 */
export interface ValidationRule {
  /** The CEL expression; true means valid. */
  readonly rule: string;
  /** What the apiserver answers when the rule fails; write it for the user who made the mistake. */
  readonly message: string;
  /** A path relative to the field, e.g. `.name`, reported as the invalid field instead of the field itself. */
  readonly fieldPath?: string;
  /** The error reason; the apiserver defaults to `FieldValueInvalid`. */
  readonly reason?: 'FieldValueInvalid' | 'FieldValueForbidden' | 'FieldValueRequired' | 'FieldValueDuplicate';
}

/**
 * A structural OpenAPI v3 schema as `apiextensions.k8s.io/v1` accepts it in `openAPIV3Schema` (the subset of
 * `JSONSchemaProps` this converter emits). Plain JSON: no symbols, no `$id`, no `$ref`.
 */
export interface StructuralSchema {
  readonly description?: string;
  readonly type?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly format?: string;
  readonly title?: string;
  readonly enum?: readonly unknown[];
  readonly default?: unknown;
  readonly example?: unknown;
  readonly nullable?: boolean;
  readonly minimum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly maximum?: number;
  readonly exclusiveMaximum?: boolean;
  readonly multipleOf?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly items?: StructuralSchema;
  readonly minProperties?: number;
  readonly maxProperties?: number;
  readonly properties?: Readonly<Record<string, StructuralSchema>>;
  readonly additionalProperties?: StructuralSchema;
  readonly required?: readonly string[];
  readonly anyOf?: readonly StructuralSchema[];
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: 'atomic' | 'granular';
  readonly 'x-kubernetes-validations'?: readonly ValidationRule[];
}

/** A CRD cannot be generated: `path` names the offending field (e.g. `spec.hosts[].port`) or definition option. */
export class CrdError extends Error {
  override readonly name = 'CrdError';
  /** Where the problem is: a field path from the resource root, or the option of the definition. */
  readonly path: string;

  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.path = path;
  }
}

/** The CEL rule that makes a field immutable once set: `self == oldSelf`, failing with `message`. */
export function immutable(message: string): ValidationRule {
  return { rule: 'self == oldSelf', message };
}

/**
 * Converts a TypeBox schema (JSON Schema with TypeBox's symbols) into the structural schema the apiserver
 * accepts, or throws {@link CrdError} naming the path of the first thing it cannot express. Pure; does not
 * modify its input. Rules:
 *
 * - every object property (and `schema` itself) must have a non-empty `description`, so `kubectl explain` always
 *   has something to say; array items and map values take theirs from the field that holds them;
 * - `Type.Optional` fields are left out of `required`; `default`, bounds, lengths, patterns and `x-kubernetes-*`
 *   extensions set through TypeBox options (e.g. `'x-kubernetes-validations': [immutable('…')]`) are kept;
 * - unions of literals become `enum`; `T | null` becomes `nullable: true`; `integer | string` becomes
 *   `x-kubernetes-int-or-string`; other unions, intersections, `$ref`s and tuples are refused;
 * - `Type.Record(Type.String(), X)` becomes `additionalProperties: X`; `Type.Unknown()`, `Type.Any()` and maps of
 *   unknown values become `x-kubernetes-preserve-unknown-fields: true`;
 * - integers without a `format` get `int32` when their bounds fit in 32 bits and `int64` otherwise;
 * - draft-2019 numeric `exclusiveMinimum: n` becomes `minimum: n, exclusiveMinimum: true` (same for maximum);
 * - `$id` and `$schema` are dropped; any other keyword the apiserver would not accept is an error.
 *
 * Keys come out in one fixed order (and properties in declaration order), so the output is stable.
 */
export function toStructuralSchema(schema: TSchema, path: string): StructuralSchema {
  return convert(schema, path, true);
}

type SchemaNode = Readonly<Record<string, unknown>>;
type MutableSchema = Record<string, unknown>;

const DROPPED = new Set(['$id', '$schema']);

const EXTENSIONS = [
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
] as const;

/** Annotations that may sit on any node and are copied as they are. */
const ANNOTATIONS = ['title', 'example', 'nullable', ...EXTENSIONS.filter((key) => key !== 'x-kubernetes-validations')] as const;

const VALUE_KEYWORDS = {
  string: ['format', 'minLength', 'maxLength', 'pattern'],
  integer: ['format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  number: ['format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'],
  boolean: [],
  array: ['items', 'minItems', 'maxItems', 'uniqueItems'],
  object: ['properties', 'required', 'additionalProperties', 'patternProperties', 'minProperties', 'maxProperties'],
} as const;

const VALUE_KEYWORD_NAMES: readonly string[] = [...new Set(Object.values(VALUE_KEYWORDS).flat())];

const KNOWN = new Set<string>([
  'description',
  'default',
  'type',
  'const',
  'enum',
  'anyOf',
  ...ANNOTATIONS,
  'x-kubernetes-validations',
  ...VALUE_KEYWORD_NAMES,
]);

const HINTS: Readonly<Record<string, string>> = {
  $ref: 'references (Type.Ref, Type.Recursive) cannot be expressed in a CRD schema; inline the schema',
  allOf: 'intersections cannot be expressed in a structural schema; use Type.Composite',
  oneOf: 'oneOf cannot carry types in a structural schema; use optional fields and a CEL rule',
  not: '"not" is not supported; use a CEL rule (x-kubernetes-validations)',
  examples: 'use "example" (one value)',
  $defs: 'definitions cannot be expressed in a CRD schema; inline them',
};

/** Canonical key order of the output, after which any other keys keep their insertion order. */
const KEY_ORDER = [
  'description',
  'title',
  'type',
  'format',
  'enum',
  'default',
  'example',
  'nullable',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'items',
  'minProperties',
  'maxProperties',
  'properties',
  'additionalProperties',
  'required',
  'anyOf',
  ...EXTENSIONS,
];

/** The widest integer range for which `int32` is the right format. */
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

function convert(node: SchemaNode, path: string, needsDescription: boolean): StructuralSchema {
  checkKeywords(node, path);
  const description = node['description'];
  if (description !== undefined && (typeof description !== 'string' || description.trim() === '')) {
    throw new CrdError(path, 'description must be a non-empty string');
  }
  if (needsDescription && description === undefined) {
    throw new CrdError(path, 'missing description (every field needs one, so that `kubectl explain` can show it)');
  }
  const out: MutableSchema = {};
  if (description !== undefined) out['description'] = description;
  for (const key of ANNOTATIONS) if (node[key] !== undefined) out[key] = node[key];
  if (node['default'] !== undefined) out['default'] = node['default'];
  const validations = node['x-kubernetes-validations'];
  if (validations !== undefined) out['x-kubernetes-validations'] = checkValidations(validations, path);
  Object.assign(out, body(node, path));
  return ordered(out);
}

/** The type-specific part of a node: type, enum, value keywords, children. */
function body(node: SchemaNode, path: string): MutableSchema {
  if (node['anyOf'] !== undefined) return union(node, path);
  if (node['const'] !== undefined) return literals([node['const']], path);
  const type = node['type'];
  if (Array.isArray(type)) return typeArray(node, type, path);
  if (type === undefined) {
    if (node['enum'] !== undefined) throw new CrdError(path, 'an enum needs a type');
    if (node['x-kubernetes-int-or-string'] === true) return {};
    return { 'x-kubernetes-preserve-unknown-fields': true };
  }
  if (typeof type !== 'string' || !(type in VALUE_KEYWORDS)) throw new CrdError(path, `type ${JSON.stringify(type)} cannot be expressed in a CRD schema`);
  const allowed: readonly string[] = VALUE_KEYWORDS[type as keyof typeof VALUE_KEYWORDS];
  const misplaced = VALUE_KEYWORD_NAMES.find((key) => node[key] !== undefined && !allowed.includes(key));
  if (misplaced !== undefined) throw new CrdError(path, `"${misplaced}" does not apply to type ${type}`);
  const out: MutableSchema = { type, ...enumOf(node, type, path) };
  switch (type as keyof typeof VALUE_KEYWORDS) {
    case 'object':
      return { ...out, ...object(node, path) };
    case 'array':
      return { ...out, ...array(node, path) };
    case 'integer':
      return { ...out, ...numeric(node), format: node['format'] ?? integerFormat(node) };
    case 'number':
      return { ...out, ...numeric(node), ...copy(node, ['format']) };
    case 'string':
      return { ...out, ...copy(node, VALUE_KEYWORDS.string) };
    case 'boolean':
      return out;
  }
}

function object(node: SchemaNode, path: string): MutableSchema {
  const properties = node['properties'] as Readonly<Record<string, SchemaNode>> | undefined;
  const names = Object.keys(properties ?? {});
  const values = mapValues(node, path);
  const out: MutableSchema = copy(node, ['minProperties', 'maxProperties']);
  if (values !== undefined && names.length > 0) {
    throw new CrdError(path, 'an object cannot have both properties and additionalProperties in a CRD schema');
  }
  if (values === 'free-form') return { ...out, 'x-kubernetes-preserve-unknown-fields': true };
  if (values !== undefined) return { ...out, additionalProperties: convert(values, `${path}[key]`, false) };
  if (properties !== undefined) {
    out['properties'] = Object.fromEntries(names.map((name) => [name, convert(properties[name] ?? {}, `${path}.${name}`, true)]));
  }
  const required = node['required'];
  if (Array.isArray(required) && required.length > 0) out['required'] = [...(required as string[])];
  return out;
}

/** The schema of a map's values, `'free-form'` for values of any type, or undefined for a plain object. */
function mapValues(node: SchemaNode, path: string): SchemaNode | 'free-form' | undefined {
  const additional = node['additionalProperties'];
  const patterns = node['patternProperties'] as Readonly<Record<string, SchemaNode>> | undefined;
  let values: SchemaNode | boolean | undefined = additional as SchemaNode | boolean | undefined;
  if (patterns !== undefined) {
    const [first, ...others] = Object.entries(patterns);
    // TypeBox writes Type.Record(Type.String(), X) as this one catch-all pattern.
    if (first?.[0] !== '^(.*)$' || others.length > 0) {
      throw new CrdError(path, 'map keys cannot be restricted by a pattern in a CRD schema; use Type.Record(Type.String(), …) and a CEL rule');
    }
    if (additional !== undefined && additional !== false) throw new CrdError(path, 'both patternProperties and additionalProperties');
    values = first[1];
  }
  if (values === undefined || values === false) return undefined;
  if (values === true || isFreeForm(values)) return 'free-form';
  return values;
}

function isFreeForm(node: SchemaNode): boolean {
  return node['type'] === undefined && node['anyOf'] === undefined && node['const'] === undefined && node['x-kubernetes-int-or-string'] === undefined;
}

function array(node: SchemaNode, path: string): MutableSchema {
  const items = node['items'];
  if (!isSchema(items)) {
    throw new CrdError(path, 'an array needs one items schema (tuples cannot be expressed in a CRD schema)');
  }
  if (node['uniqueItems'] === true) {
    throw new CrdError(path, "uniqueItems is not allowed in a CRD schema; use 'x-kubernetes-list-type': 'set'");
  }
  return { ...copy(node, ['minItems', 'maxItems']), items: convert(items, `${path}[]`, false) };
}

function isSchema(value: unknown): value is SchemaNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function numeric(node: SchemaNode): MutableSchema {
  const out = copy(node, ['minimum', 'maximum', 'multipleOf']);
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = node[exclusive];
    // Draft 2019 (TypeBox) writes the bound itself; OpenAPI v3.0 (the apiserver) wants a flag beside the bound.
    if (typeof value === 'number') Object.assign(out, { [bound]: value, [exclusive]: true });
    else if (value !== undefined) out[exclusive] = value;
  }
  return out;
}

function integerFormat(node: SchemaNode): 'int32' | 'int64' {
  const lowest = [node['minimum'], node['exclusiveMinimum']].find((v) => typeof v === 'number');
  const highest = [node['maximum'], node['exclusiveMaximum']].find((v) => typeof v === 'number');
  return typeof lowest === 'number' && typeof highest === 'number' && lowest >= INT32.min && highest <= INT32.max ? 'int32' : 'int64';
}

function union(node: SchemaNode, path: string): MutableSchema {
  const members = node['anyOf'] as readonly SchemaNode[];
  const nonNull = members.filter((member) => member['type'] !== 'null');
  const nullable: MutableSchema = nonNull.length < members.length ? { nullable: true } : {};
  if (nonNull.length > 0 && nonNull.every((member) => member['const'] !== undefined)) {
    return { ...literals(nonNull.map((member) => member['const']), path), ...nullable };
  }
  if (nonNull.length === 1 && nonNull[0] !== undefined) {
    const { description: _ignored, ...member } = convert(nonNull[0], path, false);
    return { ...member, ...nullable };
  }
  const types = nonNull.map((member) => member['type']).sort();
  const plain = nonNull.every((member) => Object.keys(member).every((key) => key === 'type'));
  if (plain && types.length === 2 && (types[0] === 'integer' || types[0] === 'number') && types[1] === 'string') {
    return { 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], ...nullable };
  }
  throw new CrdError(path, 'only unions of literals, T | null and integer | string can be expressed in a structural schema');
}

function literals(values: readonly unknown[], path: string): MutableSchema {
  const types = new Set(values.map(jsonType));
  const [type] = types;
  if (types.size !== 1 || type === undefined) throw new CrdError(path, `an enum must have values of one type, got ${[...types].join(', ')}`);
  return { type, enum: [...values] };
}

function enumOf(node: SchemaNode, type: string, path: string): MutableSchema {
  const values = node['enum'];
  if (values === undefined) return {};
  if (!Array.isArray(values) || values.some((value) => jsonType(value) !== type && !(type === 'number' && jsonType(value) === 'integer'))) {
    throw new CrdError(path, `enum values must all be of type ${type}`);
  }
  return { enum: [...(values as unknown[])] };
}

function typeArray(node: SchemaNode, type: readonly unknown[], path: string): MutableSchema {
  const nonNull = type.filter((t) => t !== 'null');
  if (nonNull.length !== 1) throw new CrdError(path, 'a type list can only be [T, "null"] in a CRD schema');
  const { description: _ignored, ...rest } = convert({ ...node, type: nonNull[0] }, path, false);
  return { ...rest, nullable: true };
}

function jsonType(value: unknown): string {
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string' || typeof value === 'boolean') return typeof value;
  return value === null ? 'null' : typeof value;
}

function checkKeywords(node: SchemaNode, path: string): void {
  for (const key of Object.keys(node)) {
    if (DROPPED.has(key) || KNOWN.has(key)) continue;
    throw new CrdError(path, `unsupported schema keyword "${key}"${HINTS[key] === undefined ? '' : `: ${HINTS[key]}`}`);
  }
}

function checkValidations(value: unknown, path: string): ValidationRule[] {
  if (!Array.isArray(value)) throw new CrdError(path, 'x-kubernetes-validations must be an array of { rule, message }');
  return value.map((entry: unknown, i) => {
    const rule = entry as Partial<Record<keyof ValidationRule, unknown>> | null;
    if (typeof rule?.rule !== 'string' || rule.rule.trim() === '' || typeof rule.message !== 'string' || rule.message.trim() === '') {
      throw new CrdError(path, `x-kubernetes-validations[${i}] needs a non-empty rule and message`);
    }
    return ordered({ ...(rule as ValidationRule) }, ['rule', 'message', 'fieldPath', 'reason']) as unknown as ValidationRule;
  });
}

function copy(node: SchemaNode, keys: readonly string[]): MutableSchema {
  const out: MutableSchema = {};
  for (const key of keys) if (node[key] !== undefined) out[key] = node[key];
  return out;
}

function ordered(node: MutableSchema, order: readonly string[] = KEY_ORDER): MutableSchema {
  const out: MutableSchema = {};
  for (const key of order) if (node[key] !== undefined) out[key] = node[key];
  for (const key of Object.keys(node)) if (!(key in out) && node[key] !== undefined) out[key] = node[key];
  return out;
}
