/**
 * What every per-kind converter shares: the source object's name, namespace and spec, the findings it reports, the
 * strict field readers, and the one way our objects are built (our apiVersion, the adopt annotation, the connection).
 */
import { API_GROUP } from '../config.ts';
import { isRecord } from '../opensearch/json.ts';
import type { ConvertedObject, ConvertOptions } from './types.ts';

/** `apiVersion` of every object the converter outputs. */
export const OUR_API_VERSION = `${API_GROUP}/v1alpha1`;
/** Our annotation that makes our operator take over the existing OpenSearch object in place. */
export const ADOPT_ANNOTATION = `${API_GROUP}/adopt`;

/** Thrown by a converter when its object cannot be converted; the message says why. */
export class NotConvertible extends Error {
  override readonly name = 'NotConvertible';
}

/** One source object being converted. */
export interface KindInput {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string;
  readonly spec: Readonly<Record<string, unknown>>;
}

/** The OpenSearchRoles of the batch: the role name in OpenSearch → our object's name, per namespace. */
export type BatchRoles = ReadonlyMap<string, string>;

/** The key of a role in {@link BatchRoles}. */
export function batchRoleKey(namespace: string, roleName: string): string {
  return `${namespace}/${roleName}`;
}

/** What a converter may use besides its input. */
export interface KindContext {
  readonly options: ConvertOptions;
  /** The OpenSearchRoles converted in the same batch. */
  readonly roles: BatchRoles;
  /** Reports something the user must know; the object is still output. */
  warn(message: string): void;
}

/** A per-kind converter: our objects for one of theirs; throws {@link NotConvertible} when it cannot. */
export type KindConverter = (input: KindInput, context: KindContext) => readonly ConvertedObject[];

/** Our object of `kind` for `input`: same name and namespace, the adopt annotation, `connectionRef` first in the spec. */
export function ourObject(kind: string, input: KindInput, spec: Readonly<Record<string, unknown>>, options: ConvertOptions, name = input.name): ConvertedObject {
  return {
    apiVersion: OUR_API_VERSION,
    kind,
    metadata: { name, namespace: input.namespace, annotations: { [ADOPT_ANNOTATION]: 'true' } },
    spec: { connectionRef: { name: options.connection }, ...spec },
  };
}

/** Warns about every key of `value` not in `known` (at `path`), so no field is dropped silently. */
export function warnUnknownFields(value: Readonly<Record<string, unknown>>, known: readonly string[], path: string, context: KindContext): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) context.warn(`${path}${key} is not a field we know; it is not carried over`);
  }
}

/** The string at `value[key]`: undefined when absent or empty; not a string refuses the object. */
export function optionalString(value: Readonly<Record<string, unknown>>, key: string, path: string): string | undefined {
  const field = value[key];
  if (field === undefined || field === null || field === '') return undefined;
  if (typeof field !== 'string') throw new NotConvertible(`${path}${key} must be a string`);
  return field;
}

/** The list of strings at `value[key]`: undefined when absent or empty; anything else refuses the object. */
export function optionalStrings(value: Readonly<Record<string, unknown>>, key: string, path: string): readonly string[] | undefined {
  const field = value[key];
  if (field === undefined || field === null) return undefined;
  if (!Array.isArray(field) || !field.every((item): item is string => typeof item === 'string' && item !== '')) {
    throw new NotConvertible(`${path}${key} must be a list of non-empty strings`);
  }
  return field.length === 0 ? undefined : field;
}

/** The object at `value[key]`: undefined when absent; not an object refuses the object. */
export function optionalRecord(value: Readonly<Record<string, unknown>>, key: string, path: string): Readonly<Record<string, unknown>> | undefined {
  const field = value[key];
  if (field === undefined || field === null) return undefined;
  if (!isRecord(field)) throw new NotConvertible(`${path}${key} must be an object`);
  return field;
}

/** The non-negative integer at `value[key]`: undefined when absent (or 0 when `zeroIsUnset`, as Go's omitempty writes it). */
export function optionalCount(value: Readonly<Record<string, unknown>>, key: string, path: string, zeroIsUnset = false): number | undefined {
  const field = value[key];
  if (field === undefined || field === null) return undefined;
  if (typeof field !== 'number' || !Number.isInteger(field) || field < 0) throw new NotConvertible(`${path}${key} must be a non-negative integer`);
  return zeroIsUnset && field === 0 ? undefined : field;
}

/** The boolean at `value[key]`, or undefined when absent. */
export function optionalBoolean(value: Readonly<Record<string, unknown>>, key: string, path: string): boolean | undefined {
  const field = value[key];
  if (field === undefined || field === null) return undefined;
  if (typeof field !== 'boolean') throw new NotConvertible(`${path}${key} must be true or false`);
  return field;
}

/** `{ [key]: value }` when value is defined, else `{}`: for spreading optional fields into a spec. */
export function present<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return (value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
}

/** The connection prefix for `namespace`, or undefined when no name rule applies. */
function prefixFor(options: ConvertOptions, namespace: string): string | undefined {
  const prefix = options.indexPrefix?.replaceAll('{namespace}', namespace);
  return prefix === undefined || prefix === '' ? undefined : prefix;
}

/**
 * Warns when `names` (an OpenSearch object name or patterns) lie outside the connection's prefix: our admission
 * would refuse them, so the connection must have no prefix (trusted namespaces) for this object.
 */
export function checkPrefix(names: readonly string[], what: string, input: KindInput, context: KindContext): void {
  const prefix = prefixFor(context.options, input.namespace);
  if (prefix === undefined) return;
  const outside = names.filter((name) => !name.startsWith(prefix));
  if (outside.length > 0) {
    context.warn(`${what} ${outside.join(', ')} outside the connection's prefix "${prefix}": our tenancy rule refuses it; use a connection without indexPrefix for this namespace`);
  }
}
