import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { V1Deployment, V1Pod, V1Service } from '@kubernetes/client-node';
import { coreTypes, isAlreadyExists, isNotFound, resourceType } from '@domain-operators/reconcile';
import { containerHostPid, loadOperatorImage, resolvePaths } from '@domain-operators/testenv';
import { buildOperator } from './bundle.ts';
import { adminConnection, randomSuffix, targetsExistingCluster } from './cluster.ts';
import type { AdminConnection } from './cluster.ts';
import { helm, helmTemplate } from './helm.ts';
import { installCrds } from './install.ts';
import type { ChartInstallation } from './install.ts';
import { clusterEndpoint, renderTokenKubeconfig, requestServiceAccountToken } from './kubeconfig.ts';
import { parseManifests, singleOfKind } from './manifests.ts';
import { preparedImage } from './prepared-image.ts';
import type { OperatorProcess, ProbeAnswer, ProcessExit, StartOperatorOptions } from './operator-handle.ts';
import { OperatorStartError, probeReadyz, scrapeMetrics } from './operator-handle.ts';
import { operatorLayout } from './system.ts';
import type { OperatorSystem } from './system.ts';
import { waitMetricsThroughService } from './service-reach.ts';
import { eventually } from './wait.ts';

/** The operator container's name in every chart's Deployment. */
const CONTAINER = 'operator';
const PROBES_PORT = 8081;
const deploymentType = resourceType({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true });

/** The release namespace an operator is installed into unless a test names another: `<system>-operator-system`. */
export function defaultReleaseNamespace(system: OperatorSystem): string {
  return `${system}-operator-system`;
}

/** The Pod annotation that carries the loaded image's digest, so a rebuilt image under the same tag rolls the Pods. */
export const IMAGE_DIGEST_ANNOTATION = 'e2e.domain-operators.io/image-digest';

/**
 * The chart values {@link startOperatorPod} installs with: the chart's admission policies off (issue #20; a test's
 * `admissionPolicies` value wins), the test's values, its `args` as `extraArgs` and its
 * `env` as `extraEnv` (after the chart's own), and on testenv the image the node already holds (pull policy `Never`:
 * nothing can be pulled here, and a missing image must fail at once rather than wait for a registry) with its
 * digest as a Pod annotation (the tag stays the chart's, so without it a new bundle would not roll out). Pure.
 */
export function podValues(options: Pick<StartOperatorOptions, 'values' | 'args' | 'env'>, imageDigest: string | undefined): Record<string, unknown> {
  // Off unless the test sets them: a suite checks the operator's own refusals, which an admission policy would
  // answer first (and a Deny binding is cluster-wide); the admission suites install and narrow the policies themselves.
  const values: Record<string, unknown> = { admissionPolicies: { enabled: false }, ...options.values };
  if (options.args !== undefined && options.args.length > 0) values['extraArgs'] = [...options.args];
  if (options.env !== undefined) values['extraEnv'] = Object.entries(options.env).map(([name, value]) => ({ name, value }));
  if (imageDigest !== undefined) {
    values['image'] = { ...(values['image'] as Record<string, unknown> | undefined), pullPolicy: 'Never' };
    values['podAnnotations'] = { ...(values['podAnnotations'] as Record<string, unknown> | undefined), [IMAGE_DIGEST_ANNOTATION]: imageDigest };
  }
  return values;
}

/**
 * Runs an operator as its users do: builds its bundle and image (loaded into testenv's node; on an existing cluster
 * the image must already be there), applies the chart's CRDs as admin, `helm upgrade --install`s the chart into the
 * release namespace (created with Pod Security `restricted` enforced when missing) and waits until the Deployment
 * is available with every Pod Ready by the chart's own probes. The handle then kills and restarts the container
 * through the kubelet, reads logs through the apiserver (`pods/log`), probes the Pod's address and scrapes
 * `/metrics` through the chart's metrics Service. Rejects with {@link OperatorStartError} (Pod state and log tail)
 * when the rollout does not finish in time; it then uninstalls.
 */
export async function startOperatorPod(options: StartOperatorOptions): Promise<OperatorProcess> {
  const existingCluster = targetsExistingCluster();
  const imageDigest = existingCluster ? undefined : (preparedImage(options.system) ?? (await buildAndLoad(options.system)));
  const admin = options.admin ?? (await adminConnection());
  const namespace = options.releaseNamespace ?? defaultReleaseNamespace(options.system);
  const releaseName = namespace === defaultReleaseNamespace(options.system) ? `${options.system}-operator` : `e2e-${randomSuffix()}`;
  const values = podValues(options, imageDigest);
  const layout = operatorLayout(options.system);
  const rendered = parseManifests(await helmTemplate({ chartDir: layout.chartDir, releaseName, namespace, includeCrds: true, setJson: values }));
  const createdNamespace = await ensureRestrictedNamespace(admin, namespace);
  const installation: ChartInstallation = {
    system: options.system,
    releaseName,
    namespace,
    createdNamespace,
    rendered,
    installed: rendered,
    serviceAccount: singleOfKind(rendered, 'ServiceAccount').metadata?.name ?? '',
    deployment: singleOfKind(rendered, 'Deployment'),
  };
  await installCrds(admin.client, options.system);
  const args = [
    'upgrade', '--install', releaseName, layout.chartDir, '--namespace', namespace, '--skip-crds',
    '--kubeconfig', adminKubeconfigFile(),
    ...Object.entries(values).flatMap(([key, value]) => ['--set-json', `${key}=${JSON.stringify(value)}`]),
  ];
  let installed = await helm(args);
  if (installed.exitCode !== 0 && installed.stderr.includes(NO_DEPLOYED_RELEASE)) {
    // An earlier uninstall of this release stopped half-way (its record says "uninstalling"): finish it, install again.
    await uninstallRelease(releaseName, namespace);
    installed = await helm(args);
  }
  if (installed.exitCode !== 0) throw new Error(`helm ${args.slice(0, 3).join(' ')} failed (exit ${installed.exitCode}): ${installed.stderr.trim()}`);
  const operator = new PodOperator(admin, installation);
  try {
    await operator.start(options.readyTimeoutMs ?? 120_000);
  } catch (err) {
    await operator.stop();
    throw err;
  }
  return operator;
}

/** Builds the bundle and loads the image into testenv's node; resolves with the image's manifest digest. */
async function buildAndLoad(system: OperatorSystem): Promise<string> {
  await buildOperator(system);
  return (await loadOperatorImage(system)).manifestDigest;
}

/** helm's answer to an upgrade of a release whose last record is not deployed (a failed or half-done uninstall). */
const NO_DEPLOYED_RELEASE = 'has no deployed releases';

/**
 * `helm uninstall --wait` of `releaseName`, tried up to three times (2 s apart): a second run deletes what the first
 * left and removes the record (in CI one uninstall failed with "failed to delete release" after deleting every object
 * but the ServiceAccount, and every later install of that release failed). `--debug` puts helm's reasons in the
 * error. A release that is not there counts as uninstalled.
 */
async function uninstallRelease(releaseName: string, namespace: string): Promise<void> {
  let last = '';
  for (let attempt = 1; attempt <= 3; attempt++) {
    const result = await helm(['uninstall', releaseName, '--namespace', namespace, '--kubeconfig', adminKubeconfigFile(), '--wait', '--timeout', '90s', '--debug']);
    if (result.exitCode === 0 || /not found/i.test(result.stderr)) return;
    last = result.stderr.trim();
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
  throw new Error(`helm uninstall ${releaseName} failed three times; the last time: ${last.split('\n').slice(-15).join('\n')}`);
}

/** The admin kubeconfig file helm runs with: `$E2E_KUBECONFIG`, else testenv's. */
function adminKubeconfigFile(): string {
  const explicit = process.env['E2E_KUBECONFIG'];
  return explicit !== undefined && explicit !== '' ? explicit : join(resolvePaths().stateDir, 'kubeconfig');
}

async function ensureRestrictedNamespace(admin: AdminConnection, name: string): Promise<boolean> {
  const labels = {
    'app.kubernetes.io/managed-by': 'e2e-harness',
    'pod-security.kubernetes.io/enforce': 'restricted',
    'pod-security.kubernetes.io/warn': 'restricted',
    'pod-security.kubernetes.io/audit': 'restricted',
  };
  try {
    await admin.client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
    return true;
  } catch (err) {
    if (isAlreadyExists(err)) return false;
    throw err;
  }
}

/** How a container's exit code reads as a process exit: 128 + n is signal n, as the kubelet reports it. Pure. */
export function exitOf(exitCode: number): ProcessExit {
  const signals: Readonly<Record<number, NodeJS.Signals>> = { 1: 'SIGHUP', 2: 'SIGINT', 6: 'SIGABRT', 9: 'SIGKILL', 15: 'SIGTERM' };
  const signal = exitCode > 128 ? signals[exitCode - 128] : undefined;
  return signal === undefined ? { code: exitCode, signal: null } : { code: null, signal };
}

class PodOperator implements OperatorProcess {
  readonly system: OperatorSystem;
  readonly releaseName: string;
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly kubeconfigPath: string;
  readonly installation: ChartInstallation;
  readonly #admin: AdminConnection;
  #pod: V1Pod | undefined;
  #metricsUrl = '';
  /** The container id the last `kill` ended, until `restart` has seen the kubelet start its successor. */
  #killed: string | undefined;
  #uninstalled = false;

  constructor(admin: AdminConnection, installation: ChartInstallation) {
    this.#admin = admin;
    this.installation = installation;
    this.system = installation.system;
    this.releaseName = installation.releaseName;
    this.namespace = installation.namespace;
    this.serviceAccount = installation.serviceAccount;
    this.kubeconfigPath = join(resolvePaths().runDir, 'e2e', `${this.releaseName}.${this.namespace}.kubeconfig`);
  }

  get metricsUrl(): string {
    return this.#metricsUrl;
  }

  get probesUrl(): string {
    return `http://${this.#pod?.status?.podIP ?? '0.0.0.0'}:${PROBES_PORT}`;
  }

  /** Waits for the rollout, then writes a kubeconfig with a token of the chart's ServiceAccount (for tests acting as it). */
  async start(timeoutMs: number): Promise<void> {
    try {
      this.#pod = await this.#waitAvailable(timeoutMs);
    } catch (err) {
      throw new OperatorStartError(`${this.system}-operator not available within ${timeoutMs} ms: ${(err as Error).message}`, undefined, await this.#describePods());
    }
    await this.#resolveMetrics();
    const token = await requestServiceAccountToken(this.#admin.rest, { namespace: this.namespace, serviceAccount: this.serviceAccount });
    await mkdir(dirname(this.kubeconfigPath), { recursive: true });
    const name = `system:serviceaccount:${this.namespace}:${this.serviceAccount}`;
    await writeFile(this.kubeconfigPath, renderTokenKubeconfig({ ...clusterEndpoint(this.#admin.kubeConfig), token, namespace: this.namespace, name }), { mode: 0o600 });
  }

  pid(): number | undefined {
    const id = runningContainerId(this.#pod);
    return id === undefined || targetsExistingCluster() ? undefined : containerHostPid(id);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ProcessExit | undefined> {
    const pod = await this.#refresh();
    const id = runningContainerId(pod);
    const pid = id === undefined ? undefined : containerHostPid(id);
    if (id === undefined || pid === undefined) return undefined;
    process.kill(pid, signal);
    this.#killed = id;
    // The kubelet records the ended container as lastState once it starts the next one (or as state, while it waits).
    const exitCode = await eventually(
      async () => {
        const status = (await this.#refresh())?.status?.containerStatuses?.find((c) => c.name === CONTAINER);
        for (const state of [status?.lastState?.terminated, status?.state?.terminated]) {
          if (state !== undefined && withoutScheme(state.containerID) === id) return state.exitCode;
        }
        return undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100, what: `${this.system}-operator container ${id.slice(0, 25)} ended after ${signal}` },
    );
    return exitOf(exitCode);
  }

  async restart(): Promise<void> {
    const killed = this.#killed;
    this.#killed = undefined;
    if (killed !== undefined) {
      // The kubelet restarts a killed container by itself: wait for its successor to be Ready.
      this.#pod = await eventually(
        async () => {
          const pod = await this.#refresh();
          const id = runningContainerId(pod);
          return id !== undefined && id !== killed && podReady(pod) ? pod : undefined;
        },
        { timeoutMs: 120_000, intervalMs: 200, what: `${this.system}-operator restarted by the kubelet and Ready` },
      );
      return;
    }
    const old = await this.#refresh();
    if (old?.metadata?.name !== undefined) {
      try {
        await this.#admin.client.delete(coreTypes.pod, { namespace: this.namespace, name: old.metadata.name });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
    this.#pod = await this.#waitAvailable(120_000, old?.metadata?.uid);
    // A new Pod has a new address.
    await this.#resolveMetrics();
  }

  async stop(): Promise<void> {
    if (this.#uninstalled) return;
    this.#uninstalled = true;
    await rm(this.kubeconfigPath, { force: true });
    await uninstallRelease(this.releaseName, this.namespace);
    if (this.installation.createdNamespace && this.namespace !== defaultReleaseNamespace(this.system)) {
      try {
        await this.#admin.client.delete(coreTypes.namespace, { namespace: undefined, name: this.namespace });
      } catch (err) {
        if (!isNotFound(err)) throw err;
      }
    }
  }

  async readyz(): Promise<ProbeAnswer> {
    await this.#refresh();
    return probeReadyz(this.probesUrl);
  }

  async metricsText(): Promise<string> {
    return scrapeMetrics(this.metricsUrl);
  }

  /** The previous container's log (after a kill or crash) and the current one's, as `kubectl logs [-p]` shows them. */
  async logTail(lines = 50): Promise<string> {
    const pod = await this.#refresh();
    const name = pod?.metadata?.name;
    if (name === undefined) return '';
    const parts: string[] = [];
    for (const previous of [true, false]) {
      try {
        parts.push(await this.#log(name, previous));
      } catch {
        // no previous container, or none yet
      }
    }
    return parts.join('').split('\n').slice(-lines - 1).join('\n');
  }

  async #log(pod: string, previous: boolean): Promise<string> {
    const response = await this.#admin.rest.stream({
      method: 'GET',
      path: `/api/v1/namespaces/${encodeURIComponent(this.namespace)}/pods/${encodeURIComponent(pod)}/log`,
      query: { container: CONTAINER, previous },
    });
    const chunks: Buffer[] = [];
    for await (const chunk of response) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  /** The operator's Pods, newest first, without those being deleted. */
  async #pods(): Promise<V1Pod[]> {
    const selector = this.installation.deployment.spec?.selector.matchLabels ?? {};
    const labelSelector = Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(',');
    const pods = (await this.#admin.client.list(coreTypes.pod, { namespace: this.namespace, labelSelector })) as unknown as { items: V1Pod[] };
    return pods.items
      .filter((pod) => pod.metadata?.deletionTimestamp === undefined)
      .sort((a, b) => String(b.metadata?.creationTimestamp ?? '').localeCompare(String(a.metadata?.creationTimestamp ?? '')));
  }

  /** Re-reads the Pod this handle follows (the same one while it lives; else the newest live one). */
  async #refresh(): Promise<V1Pod | undefined> {
    const pods = await this.#pods();
    this.#pod = pods.find((pod) => pod.metadata?.uid === this.#pod?.metadata?.uid) ?? pods[0];
    return this.#pod;
  }

  /** Waits until the Deployment is fully rolled out and available, and returns a Ready Pod (not `notUid`). */
  async #waitAvailable(timeoutMs: number, notUid?: string): Promise<V1Pod> {
    const name = this.installation.deployment.metadata?.name ?? '';
    return eventually(
      async () => {
        const deployment = (await this.#admin.client.get(deploymentType, { namespace: this.namespace, name })) as V1Deployment;
        const wanted = deployment.spec?.replicas ?? 1;
        const status = deployment.status;
        const rolledOut =
          (status?.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 1) &&
          status?.updatedReplicas === wanted &&
          status.availableReplicas === wanted &&
          (status.replicas ?? 0) === wanted;
        if (!rolledOut) return undefined;
        const pods = await this.#pods();
        const ready = pods.filter((pod) => podReady(pod) && pod.metadata?.uid !== notUid);
        return ready.length === wanted ? ready[0] : undefined;
      },
      { timeoutMs, intervalMs: 250, what: `Deployment ${this.namespace}/${name} available` },
    );
  }

  /**
   * Sets {@link metricsUrl} to the followed Pod's metrics as its chart's Service reaches them (its EndpointSlice, as
   * Prometheus scrapes). Throws {@link OperatorStartError} with the Pods' state when that does not happen in time.
   */
  async #resolveMetrics(): Promise<void> {
    const service: V1Service = await this.#admin.client.get(coreTypes.service, { namespace: this.namespace, name: `${this.installation.deployment.metadata?.name ?? ''}-metrics` });
    try {
      this.#metricsUrl = await waitMetricsThroughService(this.#admin.client, service, this.#pod);
    } catch (err) {
      throw new OperatorStartError(`${this.system}-operator: ${(err as Error).message}`, undefined, await this.#describePods());
    }
  }

  /** Phase, container states and events of the operator's Pods, for a start error. */
  async #describePods(): Promise<string> {
    try {
      const pods = await this.#pods();
      const lines = pods.map((pod) => `${pod.metadata?.name ?? '?'}: ${pod.status?.phase ?? '?'} ${JSON.stringify(pod.status?.containerStatuses?.map((c) => c.state) ?? [])}`);
      const tail = pods[0]?.metadata?.name === undefined ? '' : await this.#log(pods[0].metadata.name, false).catch(() => '');
      const ip = pods[0]?.status?.podIP;
      const readyz = ip === undefined ? '' : await fetch(`http://${ip}:${PROBES_PORT}/readyz?verbose`, { signal: AbortSignal.timeout(3_000) }).then(async (r) => `/readyz ${r.status}: ${await r.text()}`, () => '');
      return [...lines, readyz, tail.split('\n').slice(-40).join('\n')].join('\n');
    } catch (err) {
      return `(cannot describe the Pods: ${(err as Error).message})`;
    }
  }
}

/** The id (without the `containerd://` scheme) of the operator container when it runs. Pure. */
function runningContainerId(pod: V1Pod | undefined): string | undefined {
  const status = pod?.status?.containerStatuses?.find((c) => c.name === CONTAINER);
  if (status?.state?.running === undefined || status.containerID === undefined) return undefined;
  return withoutScheme(status.containerID);
}

/** `containerd://abc` → `abc`. Pure. */
function withoutScheme(containerId: string | undefined): string | undefined {
  return containerId?.replace(/^[a-z]+:\/\//, '');
}

function podReady(pod: V1Pod | undefined): boolean {
  return pod?.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}
