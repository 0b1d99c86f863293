import type { KubernetesObject, V1Container, V1Deployment } from '@kubernetes/client-node';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { ResourceType } from '@domain-operators/reconcile';
import { parseAllDocuments } from 'yaml';

/**
 * Splits `helm template` output into objects, dropping empty documents (templates switched off by a value).
 * Pure. Throws on YAML that does not parse, or a document that is not an object with apiVersion, kind and name.
 */
export function parseManifests(yaml: string): KubernetesObject[] {
  const objects: KubernetesObject[] = [];
  for (const document of parseAllDocuments(yaml)) {
    if (document.errors.length > 0) throw new Error(`helm output is not valid YAML: ${document.errors[0]?.message ?? ''}`);
    const value: unknown = document.toJS();
    if (value === null || value === undefined) continue;
    const object = value as KubernetesObject;
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string' || typeof object.metadata?.name !== 'string') {
      throw new Error(`helm output has a document without apiVersion, kind or metadata.name: ${JSON.stringify(value).slice(0, 200)}`);
    }
    objects.push(object);
  }
  return objects;
}

/**
 * The kinds an e2e suite installs from a chart: the CRDs and the operator's identity and permissions. The
 * Deployment, Service, ServiceMonitor and PodDisruptionBudget are left out: the suite runs the operator as a local
 * process instead of a Pod.
 */
export const INSTALLED_KINDS: readonly string[] = ['CustomResourceDefinition', 'ServiceAccount', 'ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'];

/** The objects of `objects` whose kind is in {@link INSTALLED_KINDS}, CRDs first so that they are served first. Pure. */
export function installableObjects(objects: readonly KubernetesObject[]): KubernetesObject[] {
  const rank = (object: KubernetesObject): number => INSTALLED_KINDS.indexOf(object.kind ?? '');
  return objects.filter((object) => rank(object) >= 0).sort((a, b) => rank(a) - rank(b));
}

const RBAC = { group: 'rbac.authorization.k8s.io', version: 'v1' } as const;

const KNOWN_TYPES: readonly ResourceType[] = [
  coreTypes.customResourceDefinition,
  coreTypes.serviceAccount,
  coreTypes.namespace,
  coreTypes.service,
  coreTypes.secret,
  coreTypes.configMap,
  coreTypes.pod,
  resourceType({ ...RBAC, kind: 'ClusterRole', plural: 'clusterroles', namespaced: false }),
  resourceType({ ...RBAC, kind: 'ClusterRoleBinding', plural: 'clusterrolebindings', namespaced: false }),
  resourceType({ ...RBAC, kind: 'Role', plural: 'roles', namespaced: true }),
  resourceType({ ...RBAC, kind: 'RoleBinding', plural: 'rolebindings', namespaced: true }),
  resourceType({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true }),
  resourceType({ group: 'policy', version: 'v1', kind: 'PodDisruptionBudget', plural: 'poddisruptionbudgets', namespaced: true }),
  resourceType({ group: 'monitoring.coreos.com', version: 'v1', kind: 'ServiceMonitor', plural: 'servicemonitors', namespaced: true }),
  resourceType({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', namespaced: false }),
  resourceType({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings', namespaced: false }),
];

/**
 * The {@link ResourceType} of a rendered chart object, for the client. Pure. Throws for a kind the charts do not
 * render (add it to the table above when a chart grows one).
 */
export function typeOfManifest(object: KubernetesObject): ResourceType {
  const found = KNOWN_TYPES.find((type) => `${type.group === '' ? '' : `${type.group}/`}${type.version}` === object.apiVersion && type.kind === object.kind);
  if (found === undefined) throw new Error(`no resource type known for ${object.apiVersion ?? '?'} ${object.kind ?? '?'}`);
  return found;
}

/** The one object of `kind` in `objects`; throws when there is none or more than one. Pure. */
export function singleOfKind(objects: readonly KubernetesObject[], kind: string): KubernetesObject {
  const found = objects.filter((object) => object.kind === kind);
  const [first] = found;
  if (first === undefined || found.length > 1) throw new Error(`expected exactly one ${kind} in the chart, found ${found.length}`);
  return first;
}

/** The operator container of a rendered Deployment (the first container). Throws when there is none. Pure. */
export function operatorContainer(deployment: V1Deployment): V1Container {
  const container = deployment.spec?.template.spec?.containers[0];
  if (container === undefined) throw new Error(`Deployment ${deployment.metadata?.name ?? '?'} has no container`);
  return container;
}

/** Local addresses for an operator run as a process. */
export interface LocalEndpoints {
  /** `host:port` for `/metrics`. */
  readonly metricsBindAddress: string;
  /** `host:port` for `/healthz` and `/readyz`. */
  readonly healthProbeBindAddress: string;
}

/**
 * The command-line flags of a local operator process: the chart Deployment's `args`, with the metrics and probe
 * addresses replaced by `endpoints` (a Pod has its own ports; a local process must not collide), followed by
 * `extraArgs` (which win, as the operator's parser keeps the last value of a flag). Pure.
 */
export function localOperatorArgs(deployment: V1Deployment, endpoints: LocalEndpoints, extraArgs: readonly string[] = []): string[] {
  const replaced = new Map<string, string>([
    ['--metrics-bind-address', endpoints.metricsBindAddress],
    ['--health-probe-bind-address', endpoints.healthProbeBindAddress],
  ]);
  const args = (operatorContainer(deployment).args ?? []).filter((arg) => !replaced.has(arg.split('=', 1)[0] ?? ''));
  return [...args, ...[...replaced].map(([flag, value]) => `${flag}=${value}`), ...extraArgs];
}
