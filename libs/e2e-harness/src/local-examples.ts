import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { ResourceType } from '@domain-operators/reconcile';
import type { TestEnv } from '@domain-operators/testenv';
import { parseManifests } from './manifests.ts';
import type { OperatorSystem } from './system.ts';

/** The API group suffix of every custom resource this repository defines. */
const API_GROUP_SUFFIX = '.domain-operators.io';

/** `examples/local/*.yaml` of the checkout at `root`, in file-name order, as absolute paths. */
export function localExampleFiles(root: string): string[] {
  const dir = join(root, 'examples', 'local');
  return readdirSync(dir)
    .filter((file) => /\.ya?ml$/.test(file))
    .sort()
    .map((file) => join(dir, file));
}

/** Every object of the local example files, in order, placeholders unfilled. Throws on YAML errors. */
export function readLocalExamples(root: string): KubernetesObject[] {
  return localExampleFiles(root).flatMap((file) => parseManifests(readFileSync(file, 'utf8')));
}

/**
 * The values of the `${NAME}` placeholders of `examples/local` out of testenv's `env.json`, for the components it
 * describes: Kafka's bootstrap server, SASL mechanism and super user; OpenSearch's URL and admin user; the Redis
 * image the node holds (`REDIS_IMAGE`). Holds passwords: never log the result. A missing component's placeholders
 * are absent (see {@link fillPlaceholders}). Pure.
 */
export function placeholderValues(env: TestEnv): Readonly<Record<string, string>> {
  const { kafka, opensearch, node } = env;
  return {
    ...(node !== undefined && { REDIS_IMAGE: node.redisImage }),
    ...(kafka !== undefined && {
      KAFKA_BOOTSTRAP_SERVER: kafka.bootstrapServers[0] ?? '',
      KAFKA_SASL_MECHANISM: kafka.superUser.mechanism,
      KAFKA_USERNAME: kafka.superUser.username,
      KAFKA_PASSWORD: kafka.superUser.password,
    }),
    ...(opensearch !== undefined && {
      OPENSEARCH_URL: opensearch.url,
      OPENSEARCH_USERNAME: opensearch.adminUser.username,
      OPENSEARCH_PASSWORD: opensearch.adminUser.password,
    }),
  };
}

const PLACEHOLDER = /\$\{([A-Z0-9_]+)\}/g;

/**
 * A deep copy of `value` with every `${NAME}` in its strings replaced by `values[NAME]`. Throws on a placeholder
 * without a value, naming it (never a value). Pure.
 */
export function fillPlaceholders<T>(value: T, values: Readonly<Record<string, string>>): T {
  const fill = (node: unknown): unknown => {
    if (typeof node === 'string') {
      return node.replace(PLACEHOLDER, (_match, name: string) => {
        const replacement = values[name];
        if (replacement === undefined) throw new Error(`examples/local: no value for the placeholder \${${name}}`);
        return replacement;
      });
    }
    if (Array.isArray(node)) return node.map(fill);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, fill(child)]));
    return node;
  };
  return fill(value) as T;
}

/** `name` of one local stack instance: `name` itself for the default instance, else `<name>-<instance>`. Pure. */
export function instanceName(name: string, instance: string | undefined): string {
  return instance === undefined ? name : `${name}-${instance}`;
}

/** The release namespace of `system`'s operator in a local stack instance: `<system>-operator-system[-<instance>]`. Pure. */
export function localReleaseNamespace(system: OperatorSystem, instance: string | undefined): string {
  return instanceName(`${system}-operator-system`, instance);
}

/**
 * The objects of another local stack instance, so that one (a test) can run beside `npm start`'s without touching
 * its objects: every namespace the objects define gets the suffix `-<instance>` (Namespace names,
 * `metadata.namespace`, and every string in a `spec` that is such a namespace or starts with it followed by `-` or
 * `.`: Secret references, tenant names such as `team-a.orders`), and so does every cluster-scoped custom resource
 * and each `spec.connectionRef` to one. `instance` undefined returns copies unchanged. Pure.
 */
export function forInstance(objects: readonly KubernetesObject[], instance: string | undefined): KubernetesObject[] {
  if (instance === undefined) return objects.map((object) => structuredClone(object));
  const namespaces = new Set(objects.filter((object) => object.kind === 'Namespace').map((object) => object.metadata?.name ?? ''));
  const clusterScoped = new Set(objects.filter((object) => isCustomResource(object) && object.metadata?.namespace === undefined).map((object) => object.metadata?.name ?? ''));
  const renameString = (text: string): string => {
    for (const namespace of namespaces) {
      if (text === namespace) return instanceName(namespace, instance);
      if (text.startsWith(`${namespace}-`) || text.startsWith(`${namespace}.`)) return `${instanceName(namespace, instance)}${text.slice(namespace.length)}`;
    }
    return text;
  };
  const renameDeep = (node: unknown): unknown => {
    if (typeof node === 'string') return renameString(node);
    if (Array.isArray(node)) return node.map(renameDeep);
    if (node !== null && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, renameDeep(child)]));
    return node;
  };
  return objects.map((original) => {
    const object = structuredClone(original) as KubernetesObject & { spec?: Record<string, unknown> };
    const metadata = object.metadata ?? {};
    if (object.kind === 'Namespace' || (isCustomResource(object) && metadata.namespace === undefined)) metadata.name = instanceName(metadata.name ?? '', instance);
    if (metadata.namespace !== undefined) metadata.namespace = instanceName(metadata.namespace, instance);
    if (object.spec !== undefined) {
      const connectionRef = object.spec['connectionRef'] as { name?: string } | undefined;
      object.spec = renameDeep(object.spec) as Record<string, unknown>;
      if (connectionRef?.name !== undefined && clusterScoped.has(connectionRef.name)) object.spec['connectionRef'] = { ...connectionRef, name: instanceName(connectionRef.name, instance) };
    }
    return object;
  });
}

/** Whether `object` is one of this repository's custom resources (its API group ends with `.domain-operators.io`). Pure. */
export function isCustomResource(object: KubernetesObject): boolean {
  return (object.apiVersion ?? '').split('/')[0]?.endsWith(API_GROUP_SUFFIX) === true;
}

/** The operator that reconciles a custom resource (from its API group, e.g. `kafka.domain-operators.io`), or `undefined`. Pure. */
export function systemOf(object: KubernetesObject): OperatorSystem | undefined {
  if (!isCustomResource(object)) return undefined;
  const system = (object.apiVersion ?? '').split('.')[0];
  return system === 'kafka' || system === 'opensearch' || system === 'redis' ? system : undefined;
}

/** The client {@link ResourceType} of each served version of each CRD. Pure. */
export function typesOfCrds(crds: readonly KubernetesObject[]): ResourceType[] {
  return (crds as readonly V1CustomResourceDefinition[])
    .filter((crd) => crd.kind === 'CustomResourceDefinition')
    .flatMap((crd) =>
      crd.spec.versions
        .filter((version) => version.served)
        .map((version) => resourceType({ group: crd.spec.group, version: version.name, kind: crd.spec.names.kind, plural: crd.spec.names.plural, namespaced: crd.spec.scope === 'Namespaced' })),
    );
}

/** PersistentVolumeClaims, which an example may create for a custom resource to use (a volume backup's claim). */
const persistentVolumeClaimType = resourceType({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });

/**
 * The {@link ResourceType} of an example object: Namespace, Secret, PersistentVolumeClaim, or one of `customTypes`.
 * Throws when unknown. Pure.
 */
export function typeOfExample(object: KubernetesObject, customTypes: readonly ResourceType[]): ResourceType {
  const found = [coreTypes.namespace, coreTypes.secret, persistentVolumeClaimType, ...customTypes].find(
    (type) => `${type.group === '' ? '' : `${type.group}/`}${type.version}` === object.apiVersion && type.kind === object.kind,
  );
  if (found === undefined) throw new Error(`no resource type for ${object.apiVersion ?? '?'} ${object.kind ?? '?'}`);
  return found;
}

/** `Kind namespace/name` (or `Kind name` when cluster-scoped), for progress lines. Pure. */
export function describeObject(object: KubernetesObject): string {
  const namespace = object.metadata?.namespace;
  return `${object.kind ?? '?'} ${namespace === undefined ? '' : `${namespace}/`}${object.metadata?.name ?? '?'}`;
}
