import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { ResourceType } from '@domain-operators/reconcile';
import { readManifests } from '@domain-operators/e2e-harness';
import { REPO_ROOT } from './repo.ts';

/** The operators with an `examples/<system>` folder for a real cluster (one example of every kind their chart installs). */
export const EXAMPLE_SYSTEMS = ['kafka', 'opensearch', 'redis'] as const;

/**
 * The references between example objects as `Kind/namespace/name` keys (cluster-scoped: empty namespace), each of
 * which another example must define: Secrets of connections and of a RedisBackup's S3 destination, connections, the
 * RedisReplication of a RedisUser or RedisBackup, the PersistentVolumeClaim a RedisBackup writes into, the
 * OpenSearchRole of a binding, and the RedisBackup or S3 Secret a RedisReplication restores from. Pure.
 */
export function referencesOf(object: KubernetesObject): string[] {
  const spec = (object as { spec?: Record<string, unknown> }).spec ?? {};
  const namespace = object.metadata?.namespace ?? '';
  const system = (object.apiVersion ?? '').split('.')[0] ?? '';
  const connectionKind = system === 'kafka' ? 'KafkaConnection' : system === 'opensearch' ? 'OpenSearchConnection' : undefined;
  const secretRefs = [
    (spec['sasl'] as { secretRef?: { namespace: string; name: string } } | undefined)?.secretRef,
    spec['credentialsSecretRef'] as { namespace: string; name: string } | undefined,
    (spec['tls'] as { caSecretRef?: { namespace: string; name: string } } | undefined)?.caSecretRef,
    backupCredentials(spec, namespace),
    restoreCredentials(spec, namespace),
  ];
  const named = (key: string): string | undefined => (spec[key] as { name?: string } | undefined)?.name;
  const connection = named('connectionRef');
  const replication = named('replicationRef');
  const role = named('roleRef');
  const restoredBackup = (spec['restore'] as { backupRef?: { name?: string } } | undefined)?.backupRef?.name;
  const backupClaim = (spec['destination'] as { volume?: { claimName?: string } } | undefined)?.volume?.claimName;
  return [
    ...secretRefs.filter((ref) => ref !== undefined).map((ref) => `Secret/${ref.namespace}/${ref.name}`),
    ...(connection !== undefined && connectionKind !== undefined ? [`${connectionKind}//${connection}`] : []),
    ...(replication !== undefined ? [`RedisReplication/${namespace}/${replication}`] : []),
    ...(role !== undefined ? [`OpenSearchRole/${namespace}/${role}`] : []),
    ...(restoredBackup !== undefined ? [`RedisBackup/${namespace}/${restoredBackup}`] : []),
    ...(backupClaim !== undefined ? [`PersistentVolumeClaim/${namespace}/${backupClaim}`] : []),
  ];
}

/** A RedisBackup's S3 credentials Secret (in its own namespace), or `undefined` for any other spec. Pure. */
function backupCredentials(spec: Readonly<Record<string, unknown>>, namespace: string): { namespace: string; name: string } | undefined {
  const name = (spec['destination'] as { s3?: { credentialsSecretRef?: { name?: string } } } | undefined)?.s3?.credentialsSecretRef?.name;
  return name === undefined ? undefined : { namespace, name };
}

/** The S3 credentials Secret of a RedisReplication's `restore.s3` (in its own namespace), or `undefined`. Pure. */
function restoreCredentials(spec: Readonly<Record<string, unknown>>, namespace: string): { namespace: string; name: string } | undefined {
  const name = (spec['restore'] as { s3?: { credentialsSecretRef?: { name?: string } } } | undefined)?.s3?.credentialsSecretRef?.name;
  return name === undefined ? undefined : { namespace, name };
}

/** The CRDs of `charts/<system>-operator/crds`, as objects. */
export function chartCrds(system: string, root: string = REPO_ROOT): V1CustomResourceDefinition[] {
  const dir = join(root, 'charts', `${system}-operator`, 'crds');
  return readManifests(
    readdirSync(dir)
      .filter((file) => file.endsWith('.yaml'))
      .sort()
      .map((file) => join(dir, file)),
  ) as V1CustomResourceDefinition[];
}

/** The client {@link ResourceType} of each served version of a CRD. Pure. */
export function typesOfCrd(crd: V1CustomResourceDefinition): ResourceType[] {
  return crd.spec.versions
    .filter((version) => version.served)
    .map((version) => resourceType({ group: crd.spec.group, version: version.name, kind: crd.spec.names.kind, plural: crd.spec.names.plural, namespaced: crd.spec.scope === 'Namespaced' }));
}

/** PersistentVolumeClaims: an example may define one for a custom resource to use (a volume backup's claim). */
const persistentVolumeClaimType = resourceType({ group: '', version: 'v1', kind: 'PersistentVolumeClaim', plural: 'persistentvolumeclaims', namespaced: true });

/** The {@link ResourceType} of an example object among the built-in kinds the examples use and `customTypes`. */
export function typeOfExample(object: KubernetesObject, customTypes: readonly ResourceType[]): ResourceType {
  const builtIn: readonly ResourceType[] = [coreTypes.namespace, coreTypes.secret, coreTypes.configMap, persistentVolumeClaimType];
  const found = [...builtIn, ...customTypes].find((type) => `${type.group === '' ? '' : `${type.group}/`}${type.version}` === object.apiVersion && type.kind === object.kind);
  if (found === undefined) throw new Error(`no resource type for ${object.apiVersion ?? '?'} ${object.kind ?? '?'}`);
  return found;
}
