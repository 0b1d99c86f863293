import { parseAllDocuments } from 'yaml';

/** The parts of a CustomResourceDefinition the release notes compare. */
export interface CrdShape {
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly names: { readonly kind: string };
    readonly versions: readonly CrdVersionShape[];
  };
}

/** One served version of a {@link CrdShape}. */
export interface CrdVersionShape {
  readonly name: string;
  readonly served?: boolean;
  readonly storage?: boolean;
  readonly deprecated?: boolean;
  readonly schema?: { readonly openAPIV3Schema?: SchemaNode };
}

/** An OpenAPI v3 schema node, as far as the field comparison walks it. */
export interface SchemaNode {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
  readonly additionalProperties?: SchemaNode | boolean;
  readonly required?: readonly string[];
}

/** What changed in one CRD that exists before and after. */
export interface CrdChange {
  readonly kind: string;
  readonly name: string;
  /** One line per difference, e.g. `v1alpha1: field spec.retention added (string)`. */
  readonly details: readonly string[];
}

/** The CRD changes of one operator between two releases. */
export interface CrdChanges {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly CrdChange[];
}

/** Every CRD in a set of YAML texts, by `metadata.name`. Pure; throws on a document that is not a CRD. */
export function parseCrds(texts: readonly string[]): Map<string, CrdShape> {
  const crds = new Map<string, CrdShape>();
  for (const text of texts) {
    for (const document of parseAllDocuments(text)) {
      const value = document.toJS() as Partial<CrdShape & { kind: string }> | null;
      if (value === null) continue;
      if (value.kind !== 'CustomResourceDefinition' || typeof value.metadata?.name !== 'string' || value.spec === undefined) {
        throw new Error(`not a CustomResourceDefinition: ${JSON.stringify(value).slice(0, 120)}`);
      }
      crds.set(value.metadata.name, value as CrdShape);
    }
  }
  return crds;
}

/**
 * The differences between two sets of CRDs (by name): CRDs added and removed (as `Kind (name)`), and for each CRD in
 * both its served versions added or removed, served/storage/deprecated flips, and per version the schema's fields
 * (dotted paths, `[]` for array items, `{}` for map values) added, removed, retyped, or newly or no longer required
 * (a field inside an added or removed field is not listed again).
 * A CRD whose YAML differs in nothing of that (descriptions, CEL rules, printer columns, defaults) is listed with
 * "other schema details changed", so no change goes unmentioned. Pure.
 */
export function diffCrds(before: ReadonlyMap<string, CrdShape>, after: ReadonlyMap<string, CrdShape>): CrdChanges {
  const label = (crd: CrdShape): string => `${crd.spec.names.kind} (${crd.metadata.name})`;
  const names = (map: ReadonlyMap<string, CrdShape>, other: ReadonlyMap<string, CrdShape>): string[] =>
    [...map.values()].filter((crd) => !other.has(crd.metadata.name)).map(label).sort();
  const changed: CrdChange[] = [];
  for (const [name, next] of [...after].sort(([a], [b]) => a.localeCompare(b))) {
    const previous = before.get(name);
    if (previous === undefined) continue;
    const details = versionChanges(previous, next);
    if (details.length === 0 && JSON.stringify(previous) !== JSON.stringify(next)) details.push('other schema details changed (descriptions, validation rules, defaults or columns)');
    if (details.length > 0) changed.push({ kind: next.spec.names.kind, name, details });
  }
  return { added: names(after, before), removed: names(before, after), changed };
}

function versionChanges(previous: CrdShape, next: CrdShape): string[] {
  const details: string[] = [];
  const before = new Map(previous.spec.versions.map((version) => [version.name, version]));
  for (const version of next.spec.versions) {
    const old = before.get(version.name);
    if (old === undefined) {
      details.push(`version ${version.name} added`);
      continue;
    }
    for (const flag of ['served', 'storage', 'deprecated'] as const) {
      if ((old[flag] ?? false) !== (version[flag] ?? false)) details.push(`${version.name}: ${flag} ${String(old[flag] ?? false)} → ${String(version[flag] ?? false)}`);
    }
    details.push(...fieldChanges(version.name, old.schema?.openAPIV3Schema, version.schema?.openAPIV3Schema));
  }
  const names = new Set(next.spec.versions.map((version) => version.name));
  for (const version of previous.spec.versions) if (!names.has(version.name)) details.push(`version ${version.name} removed`);
  return details;
}

interface FieldFacts {
  readonly type: string;
  readonly required: boolean;
}

function fieldChanges(version: string, before: SchemaNode | undefined, after: SchemaNode | undefined): string[] {
  const old = flattenSchema(before);
  const next = flattenSchema(after);
  const details: string[] = [];
  // A field under a field that is itself added (or removed) comes with it: only the outermost one is listed.
  const within = (path: string, fields: ReadonlyMap<string, FieldFacts>, other: ReadonlyMap<string, FieldFacts>): boolean => {
    const parent = parentPath(path);
    return parent !== undefined && fields.has(parent) && (!other.has(parent) || within(parent, fields, other));
  };
  for (const [path, facts] of next) {
    const was = old.get(path);
    if (was === undefined) {
      if (!within(path, next, old)) details.push(`${version}: field ${path} added (${facts.type}${facts.required ? ', required' : ''})`);
    } else {
      if (was.type !== facts.type) details.push(`${version}: field ${path} type ${was.type} → ${facts.type}`);
      if (was.required !== facts.required) details.push(`${version}: field ${path} ${facts.required ? 'now required' : 'no longer required'}`);
    }
  }
  for (const path of old.keys()) if (!next.has(path) && !within(path, old, next)) details.push(`${version}: field ${path} removed`);
  return details;
}

/** `a.b[].c` → `a.b`; `a` → `undefined`. Pure. */
function parentPath(path: string): string | undefined {
  const dot = path.lastIndexOf('.');
  return dot === -1 ? undefined : path.slice(0, dot).replace(/(\[\]|\{\})+$/, '');
}

/** Every field under a schema as `path → type and required`, in walk order. Pure. */
export function flattenSchema(schema: SchemaNode | undefined): Map<string, FieldFacts> {
  const fields = new Map<string, FieldFacts>();
  const walk = (node: SchemaNode, path: string): void => {
    const required = new Set(node.required ?? []);
    for (const [key, child] of Object.entries(node.properties ?? {})) {
      const childPath = path === '' ? key : `${path}.${key}`;
      fields.set(childPath, { type: child.type ?? 'any', required: required.has(key) });
      walk(child, childPath);
    }
    if (node.items !== undefined) walk(node.items, `${path}[]`);
    if (typeof node.additionalProperties === 'object') walk(node.additionalProperties, `${path}{}`);
  };
  if (schema !== undefined) walk(schema, '');
  return fields;
}

/**
 * The release notes' "CRD changes" section, in Markdown: one subsection per operator (in the order given) listing
 * added, removed and changed CRDs, or "no changes"; `since` names the previous release (`undefined`: the first release,
 * where every CRD is new). Pure.
 */
export function crdChangesMarkdown(changes: readonly { readonly operator: string; readonly changes: CrdChanges }[], since: string | undefined): string {
  const lines = [`## CRD changes ${since === undefined ? '(first release: every CRD is new)' : `since ${since}`}`, ''];
  for (const { operator, changes: change } of changes) {
    lines.push(`### ${operator}`, '');
    if (change.added.length === 0 && change.removed.length === 0 && change.changed.length === 0) {
      lines.push('No changes.', '');
      continue;
    }
    for (const crd of change.added) lines.push(`- Added ${crd}`);
    for (const crd of change.removed) lines.push(`- **Removed** ${crd}: its custom resources are deleted with it when the CRD is deleted`);
    for (const crd of change.changed) {
      lines.push(`- Changed ${crd.kind} (${crd.name}):`);
      for (const detail of crd.details) lines.push(`  - ${detail}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}
