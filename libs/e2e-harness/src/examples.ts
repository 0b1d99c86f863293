import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { resolvePaths } from '@domain-operators/testenv';
import { isCustomResource } from './local-examples.ts';
import { parseManifests } from './manifests.ts';
import type { OperatorSystem } from './system.ts';

// The examples for a real cluster (`examples/<system>`), read in file order and renamed so that a test can apply
// them beside everybody else's objects.

/**
 * `examples/<system>/*.yaml` of the checkout at `root` (default: the checkout holding this file, found the way
 * testenv finds it), in file-name order, as absolute paths. Throws when the folder does not exist.
 */
export function exampleFiles(system: OperatorSystem, root: string = resolvePaths().root): string[] {
  const dir = join(root, 'examples', system);
  return readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file))
    .sort()
    .map((file) => join(dir, file));
}

/** Every object of the files, in order. Throws on YAML errors and on documents without apiVersion, kind or name. */
export function readManifests(files: readonly string[]): KubernetesObject[] {
  return files.flatMap((file) => parseManifests(readFileSync(file, 'utf8')));
}

/** A `spec` as plain JSON. */
type Spec = Record<string, unknown>;

/** The spec of `object`, or `undefined` when it has none. */
function specOf(object: KubernetesObject): Spec | undefined {
  return (object as { spec?: Spec }).spec;
}

/**
 * A copy of the example objects with every namespace renamed through `rename` (Namespace names, metadata.namespace
 * and the namespaces of Secret references: `spec.sasl.secretRef`, `spec.credentialsSecretRef`, `spec.tls.caSecretRef`),
 * so that a test can apply them without touching namespaces someone else uses. Pure.
 */
export function withNamespaces(objects: readonly KubernetesObject[], rename: (namespace: string) => string): KubernetesObject[] {
  return objects.map((object) => withNamespacesOf(object, rename));
}

/** {@link withNamespaces} of one object. Pure. */
function withNamespacesOf(original: KubernetesObject, rename: (namespace: string) => string): KubernetesObject {
  const object = structuredClone(original);
  const spec = specOf(object);
  if (object.kind === 'Namespace' && object.metadata?.name !== undefined) object.metadata.name = rename(object.metadata.name);
  if (object.metadata?.namespace !== undefined) object.metadata.namespace = rename(object.metadata.namespace);
  const refs = [
    (spec?.['sasl'] as { secretRef?: { namespace?: string } } | undefined)?.secretRef,
    spec?.['credentialsSecretRef'] as { namespace?: string } | undefined,
    (spec?.['tls'] as { caSecretRef?: { namespace?: string } } | undefined)?.caSecretRef,
  ];
  for (const ref of refs) if (ref?.namespace !== undefined) ref.namespace = rename(ref.namespace);
  return object;
}

/** How {@link forTestRun} renames the examples. */
export interface ExampleRenames {
  /** The new name of a namespace (every namespace the examples use). */
  readonly namespace: (namespace: string) => string;
  /** The new name of a cluster-scoped custom resource (a connection such as `main`). */
  readonly clusterScoped: (name: string) => string;
}

/**
 * The cluster-scoped custom resources of `objects` (the connections, such as `main`), each with the tenant name
 * prefix templates of its `spec.tenancy`: the strings there that hold `{namespace}` (`namePrefix: "{namespace}."`,
 * `indexPrefix: "{namespace}-"`; none without tenancy). Pure.
 */
function clusterScopedPrefixTemplates(objects: readonly KubernetesObject[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const object of objects) {
    if (!isCustomResource(object) || object.metadata?.namespace !== undefined) continue;
    const tenancy = specOf(object)?.['tenancy'];
    const values = tenancy !== null && typeof tenancy === 'object' ? Object.values(tenancy) : [];
    out.set(object.metadata?.name ?? '', values.filter((value): value is string => typeof value === 'string' && value.includes('{namespace}')));
  }
  return out;
}

/** A deep copy of `node` with `rename` applied to every string and every object key. Pure. */
function renameStrings(node: unknown, rename: (text: string) => string): unknown {
  if (typeof node === 'string') return rename(node);
  if (Array.isArray(node)) return node.map((child) => renameStrings(child, rename));
  if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, child]) => [rename(key), renameStrings(child, rename)]));
  return node;
}

/**
 * A copy of the example objects that a test can apply beside everybody else's, as the examples would work under
 * the new names, nothing else changed:
 * - every namespace renamed through `renames.namespace` ({@link withNamespaces});
 * - every cluster-scoped custom resource renamed through `renames.clusterScoped`, and every `spec.connectionRef`
 *   and `spec.repositoryRef` naming one of them;
 * - in the spec of each namespaced custom resource, every string and object key that starts with the tenant prefix
 *   its connection's `spec.tenancy` gives its namespace (`team-a.` for `namePrefix: "{namespace}."`) starts with
 *   the renamed namespace's prefix instead: ACL resource names, index patterns, aliases, composed-of templates,
 *   bound users (tenancy would refuse the old names, which belong to another namespace).
 *
 * Pure; the input is left alone.
 */
export function forTestRun(objects: readonly KubernetesObject[], renames: ExampleRenames): KubernetesObject[] {
  const connections = clusterScopedPrefixTemplates(objects);
  return objects.map((original) => {
    const object = withNamespacesOf(original, renames.namespace);
    if (!isCustomResource(object) || object.metadata === undefined) return object;
    const namespace = original.metadata?.namespace;
    if (namespace === undefined) {
      object.metadata.name = renames.clusterScoped(object.metadata.name ?? '');
      // A cluster-scoped resource on a connection (a snapshot repository) follows the connection's new name.
      const ownConnection = specOf(object)?.['connectionRef'] as { name?: string } | undefined;
      if (ownConnection?.name !== undefined && connections.has(ownConnection.name)) ownConnection.name = renames.clusterScoped(ownConnection.name);
      return object;
    }
    const spec = specOf(object);
    const connectionRef = spec?.['connectionRef'] as { name?: string } | undefined;
    const templates = connectionRef?.name === undefined ? undefined : connections.get(connectionRef.name);
    if (spec === undefined || connectionRef?.name === undefined || templates === undefined) return object;
    const prefixes = templates.map((template) => [template.replace('{namespace}', namespace), template.replace('{namespace}', renames.namespace(namespace))] as const);
    const rename = (text: string): string => {
      const found = prefixes.find(([from]) => text.startsWith(from));
      return found === undefined ? text : `${found[1]}${text.slice(found[0].length)}`;
    };
    const renamed = renameStrings(spec, rename) as Spec;
    renamed['connectionRef'] = { ...connectionRef, name: renames.clusterScoped(connectionRef.name) };
    // A snapshot repository is cluster-scoped too: the policies and restores naming it follow its new name.
    const repositoryRef = spec['repositoryRef'] as { name?: string } | undefined;
    if (repositoryRef?.name !== undefined) renamed['repositoryRef'] = { ...repositoryRef, name: renames.clusterScoped(repositoryRef.name) };
    (object as { spec?: Spec }).spec = renamed;
    return object;
  });
}
