import type { KubernetesObject, V1CustomResourceDefinition, V1Deployment } from '@kubernetes/client-node';
import { coreTypes, isAlreadyExists, isNotFound, resourceType } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { helmTemplate } from './helm.ts';
import { installableObjects, parseManifests, singleOfKind, typeOfManifest } from './manifests.ts';
import type { OperatorSystem } from './system.ts';
import { operatorLayout } from './system.ts';
import { eventually } from './wait.ts';

/** The field manager of everything the harness applies. */
export const HARNESS_FIELD_MANAGER = 'e2e-harness';

/** Options for {@link installChartForProcess}. */
export interface InstallChartOptions {
  readonly system: OperatorSystem;
  /** Helm release name; cluster-scoped objects are named after it, so it must be unique per running suite. */
  readonly releaseName: string;
  /** Release namespace: the ServiceAccount, Role and Lease live here. Created when missing. */
  readonly namespace: string;
  /** Chart values, each passed as `--set-json key=<json>` (merged deeply with the chart's defaults). */
  readonly values?: Readonly<Record<string, unknown>>;
}

/** What {@link installChartForProcess} rendered and applied. */
export interface ChartInstallation {
  readonly system: OperatorSystem;
  readonly releaseName: string;
  readonly namespace: string;
  /** Whether the harness created the namespace (and so deletes it on uninstall). */
  readonly createdNamespace: boolean;
  /** Everything the chart rendered, CRDs included. */
  readonly rendered: readonly KubernetesObject[];
  /** The objects applied: CRDs, ServiceAccount, ClusterRole and Role and their bindings. */
  readonly installed: readonly KubernetesObject[];
  /** The ServiceAccount the operator runs as. */
  readonly serviceAccount: string;
  /** The rendered (not applied) Deployment, the source of the operator's flags. */
  readonly deployment: V1Deployment;
}

/**
 * Renders the operator's chart with `helm template --include-crds` and applies, as admin with server-side apply,
 * only its CRDs, ServiceAccount, ClusterRole, ClusterRoleBinding, Role and RoleBinding; waits until every CRD is
 * Established. Idempotent. On failure it removes what it applied (CRDs excepted) and rethrows. The operator is then
 * run as a local process (see `startOperator`).
 */
export async function installChartForProcess(client: Client, options: InstallChartOptions): Promise<ChartInstallation> {
  const layout = operatorLayout(options.system);
  const rendered = parseManifests(
    await helmTemplate({
      chartDir: layout.chartDir,
      releaseName: options.releaseName,
      namespace: options.namespace,
      includeCrds: true,
      ...(options.values !== undefined && { setJson: options.values }),
    }),
  );
  const createdNamespace = await ensureNamespace(client, options.namespace);
  const installation: ChartInstallation = {
    system: options.system,
    releaseName: options.releaseName,
    namespace: options.namespace,
    createdNamespace,
    rendered,
    installed: installableObjects(rendered),
    serviceAccount: singleOfKind(rendered, 'ServiceAccount').metadata?.name ?? '',
    deployment: singleOfKind(rendered, 'Deployment'),
  };
  try {
    await applyAll(client, installation.installed);
  } catch (err) {
    // Leave nothing half-installed behind (the CRDs that did apply stay, as after a successful uninstall).
    await uninstallChartForProcess(client, installation);
    throw err;
  }
  return installation;
}

/**
 * Applies only the operator chart's CRDs (server-side apply as admin) and waits until each is Established and served.
 * Idempotent. For a suite's global setup, so fixtures may create custom resources before the operator starts.
 */
export async function installCrds(client: Client, system: OperatorSystem): Promise<void> {
  const layout = operatorLayout(system);
  const rendered = parseManifests(await helmTemplate({ chartDir: layout.chartDir, releaseName: `${system}-crds`, namespace: 'default', includeCrds: true }));
  await applyAll(client, rendered.filter((object) => object.kind === 'CustomResourceDefinition'));
}

async function applyAll(client: Client, objects: readonly KubernetesObject[]): Promise<void> {
  for (const object of objects) {
    await client.patch(
      typeOfManifest(object),
      { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' },
      { type: 'apply', body: object, fieldManager: HARNESS_FIELD_MANAGER, force: true },
    );
  }
  for (const crd of objects.filter((object) => object.kind === 'CustomResourceDefinition')) {
    const name = crd.metadata?.name ?? '';
    await eventually(
      async () => {
        const current: V1CustomResourceDefinition = await client.get(coreTypes.customResourceDefinition, { namespace: undefined, name });
        return current.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True') === true ? true : undefined;
      },
      { timeoutMs: 30_000, what: `CRD ${name} Established` },
    );
    // Established can come a moment before the apiserver serves the new resource (a POST then answers a plain
    // "404 page not found"): wait until a list of it answers.
    const current: V1CustomResourceDefinition = await client.get(coreTypes.customResourceDefinition, { namespace: undefined, name });
    const served = current.spec.versions.find((version) => version.served);
    if (served === undefined) continue;
    const type = resourceType({
      group: current.spec.group,
      version: served.name,
      kind: current.spec.names.kind,
      plural: current.spec.names.plural,
      namespaced: current.spec.scope === 'Namespaced',
    });
    await eventually(
      async () => {
        await client.list(type, { limit: 1 });
        return true;
      },
      { timeoutMs: 30_000, what: `${current.spec.names.plural}.${current.spec.group} served` },
    );
  }
}

/**
 * Removes what {@link installChartForProcess} applied, except the CRDs (other suites and their objects use them):
 * the cluster-scoped RBAC always, and the namespace when the harness created it (else the namespaced objects one by
 * one). Idempotent.
 */
export async function uninstallChartForProcess(client: Client, installation: ChartInstallation): Promise<void> {
  for (const object of installation.installed) {
    if (object.kind === 'CustomResourceDefinition') continue;
    const namespace = object.metadata?.namespace;
    if (namespace !== undefined && installation.createdNamespace) continue;
    await deleteIgnoringNotFound(client, object);
  }
  if (installation.createdNamespace) {
    await deleteIgnoringNotFound(client, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: installation.namespace } });
  }
}

async function ensureNamespace(client: Client, name: string): Promise<boolean> {
  try {
    await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'app.kubernetes.io/managed-by': HARNESS_FIELD_MANAGER } } });
    return true;
  } catch (err) {
    if (isAlreadyExists(err)) return false;
    throw err;
  }
}

async function deleteIgnoringNotFound(client: Client, object: KubernetesObject): Promise<void> {
  try {
    await client.delete(typeOfManifest(object), { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
