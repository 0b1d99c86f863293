/**
 * The Opster migration: converts opensearch-k8s-operator's OpenSearch-side objects (`opensearch.opster.io/v1`, or
 * its renamed `opensearch.org/v1`) into ours. Pure: objects in, objects and findings out. Every object we output
 * keeps its source's name and namespace, names the same object in OpenSearch and carries the adopt annotation, so
 * our operator takes the existing object over in place.
 */
import { isRecord } from '../opensearch/json.ts';
import { convertActionGroup } from './action-group.ts';
import { convertComponentTemplate } from './component-template.ts';
import { convertIndexTemplate } from './index-template.ts';
import { convertIsmPolicy } from './ism-policy.ts';
import { batchRoleKey, NotConvertible } from './kind-context.ts';
import type { KindConverter, KindInput } from './kind-context.ts';
import { convertRoleBinding } from './role-binding.ts';
import { convertRole } from './role.ts';
import { convertSnapshotPolicy } from './snapshot-policy.ts';
import { convertTenant } from './tenant.ts';
import { OPSTER_API_VERSIONS } from './types.ts';
import type { Conversion, ConvertedObject, ConvertOptions, Finding } from './types.ts';
import { convertUser } from './user.ts';

export type { Conversion, ConvertedObject, ConvertOptions, Finding, OpsterObject } from './types.ts';
export { ADOPT_ANNOTATION, OUR_API_VERSION } from './kind-context.ts';
export { OPSTER_API_VERSIONS } from './types.ts';

/** Their kinds and the converter of each (their ISM kind is spelled `OpenSearchISMPolicy`; both spellings are read). */
const CONVERTERS: Readonly<Record<string, KindConverter>> = {
  OpensearchUser: convertUser,
  OpensearchRole: convertRole,
  OpensearchUserRoleBinding: convertRoleBinding,
  OpensearchTenant: convertTenant,
  OpensearchActionGroup: convertActionGroup,
  OpensearchIndexTemplate: convertIndexTemplate,
  OpensearchComponentTemplate: convertComponentTemplate,
  OpenSearchISMPolicy: convertIsmPolicy,
  OpensearchISMPolicy: convertIsmPolicy,
  OpensearchSnapshotPolicy: convertSnapshotPolicy,
};

/** The kinds {@link convertOpster} reads. */
export const OPSTER_KINDS: readonly string[] = Object.keys(CONVERTERS);

/** The objects of `documents`, with every `List` (as `kubectl get -o yaml` writes) expanded into its items. */
export function expandLists(documents: readonly unknown[]): readonly unknown[] {
  return documents.flatMap((document) => (isRecord(document) && Array.isArray(document['items']) && typeof document['kind'] === 'string' && document['kind'].endsWith('List') ? expandLists(document['items']) : [document]));
}

type Parsed = { readonly input: KindInput; readonly convert: KindConverter } | { readonly error: Finding };

function label(document: unknown): string {
  if (!isRecord(document)) return '(not an object)';
  const metadata = isRecord(document['metadata']) ? document['metadata'] : {};
  const kind = typeof document['kind'] === 'string' ? document['kind'] : '(no kind)';
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : '(no name)';
  return `${kind} ${typeof metadata['namespace'] === 'string' ? metadata['namespace'] : 'default'}/${name}`;
}

function parse(document: unknown): Parsed {
  const source = label(document);
  if (!isRecord(document)) return { error: { source, message: 'not an object' } };
  if (typeof document['apiVersion'] !== 'string' || !OPSTER_API_VERSIONS.includes(document['apiVersion'])) {
    return { error: { source, message: `apiVersion ${String(document['apiVersion'])} is not one of ${OPSTER_API_VERSIONS.join(', ')}` } };
  }
  const kind = typeof document['kind'] === 'string' ? document['kind'] : '';
  const convert = CONVERTERS[kind];
  if (convert === undefined) return { error: { source, message: `kind ${kind} is not one this migration converts (${OPSTER_KINDS.join(', ')})` } };
  const metadata = isRecord(document['metadata']) ? document['metadata'] : {};
  if (typeof metadata['name'] !== 'string' || metadata['name'] === '') return { error: { source, message: 'metadata.name is missing' } };
  const spec = isRecord(document['spec']) ? document['spec'] : {};
  const namespace = typeof metadata['namespace'] === 'string' && metadata['namespace'] !== '' ? metadata['namespace'] : 'default';
  return { input: { kind, name: metadata['name'], namespace, spec }, convert };
}

/**
 * Converts a batch of their objects (Lists expanded). Role bindings name an OpenSearchRole of the same batch and
 * namespace by `roleRef`, any other role by `externalRole`. An object that cannot be converted yields an error and no
 * output; the others are converted regardless. Deterministic: the same input gives the same output.
 */
export function convertOpster(documents: readonly unknown[], options: ConvertOptions): Conversion {
  const parsed = expandLists(documents).map(parse);
  const roles = new Map<string, string>();
  for (const entry of parsed) {
    if ('input' in entry && entry.convert === convertRole) roles.set(batchRoleKey(entry.input.namespace, entry.input.name), entry.input.name);
  }
  const objects: ConvertedObject[] = [];
  const warnings: Finding[] = [];
  const errors: Finding[] = [];
  for (const entry of parsed) {
    if ('error' in entry) {
      errors.push(entry.error);
      continue;
    }
    const source = `${entry.input.kind} ${entry.input.namespace}/${entry.input.name}`;
    const own: Finding[] = [];
    try {
      const converted = entry.convert(entry.input, { options, roles, warn: (message) => own.push({ source, message }) });
      objects.push(...converted);
      warnings.push(...own);
    } catch (error) {
      if (!(error instanceof NotConvertible)) throw error;
      errors.push({ source, message: error.message });
    }
  }
  return { objects, warnings, errors };
}
