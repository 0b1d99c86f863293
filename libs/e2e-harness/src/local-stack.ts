import type { KubernetesObject, V1Pod } from '@kubernetes/client-node';
import { coreTypes } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { resolvePaths, upEnvironment } from '@domain-operators/testenv';
import type { ComponentName } from '@domain-operators/testenv';
import { adminConnection } from './cluster.ts';
import { describeObject, fillPlaceholders, forInstance, localReleaseNamespace, placeholderValues, readLocalExamples, systemOf, typeOfExample, typesOfCrds } from './local-examples.ts';
import { logsCommand } from './local-stack-pods.ts';
import type { OperatorProcess } from './operator-handle.ts';
import { startOperatorPod } from './operator-pod.ts';
import { OPERATOR_SYSTEMS } from './system.ts';
import type { OperatorSystem } from './system.ts';
import { waitForCondition } from './wait.ts';

/** The field manager of everything the local stack applies. */
export const LOCAL_STACK_FIELD_MANAGER = 'local-stack';

/** What {@link startLocalStack} needs from its caller. */
export interface LocalStackDeps {
  /** Receives one progress line at a time (no secrets). */
  readonly log: (line: string) => void;
}

/** Options for {@link startLocalStack}. */
export interface LocalStackOptions {
  /** The operators to run and whose examples to apply; default all three. */
  readonly systems?: readonly OperatorSystem[];
  /**
   * Another instance beside `npm start`'s (tests): every namespace and cluster-scoped name gets `-<instance>` (see
   * `forInstance`), and the operators watch only the instance's team namespaces and their release namespace (the
   * chart's `watchNamespaces`), so that they leave other runs' objects alone. The default instance's operators watch every namespace.
   */
  readonly instance?: string;
  /** How long each example resource may take to become Ready; default 240 s. */
  readonly readyTimeoutMs?: number;
  /** Aborts the start: the operators started so far are stopped and the promise rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** The checkout; default the one holding this file. */
  readonly root?: string;
}

/** A running local stack: the operators as Pods of their Helm releases, their example resources Ready. */
export interface LocalStack {
  /** The admin kubeconfig of testenv's apiserver. */
  readonly kubeconfig: string;
  /** The running operators, in start order. */
  readonly operators: readonly OperatorProcess[];
  /** The custom resources applied, as applied (no secrets: Secrets are not listed). */
  readonly resources: readonly KubernetesObject[];
  /** The live (not terminating) Pods of an operator's Deployment, as the apiserver lists them now, by name. */
  operatorPods(operator: OperatorProcess): Promise<V1Pod[]>;
  /**
   * Uninstalls every operator's Helm release (`helm uninstall --wait`: the Deployment, its Pods, the ServiceAccount
   * and RBAC go). Leaves testenv, the CRDs, the namespaces, the Secrets and the custom resources in place, so that the
   * next start finds them. Idempotent.
   */
  stop(): Promise<void>;
}

/**
 * What a release installed at admission, from its rendered manifests: `admission policies: a, b (bindings: Deny)`, or
 * that there are none (`admissionPolicies.enabled: false`). Pure.
 */
export function admissionPoliciesLine(rendered: readonly KubernetesObject[]): string {
  const policies = rendered.filter((o) => o.kind === 'ValidatingAdmissionPolicy').map((o) => o.metadata?.name ?? '?');
  if (policies.length === 0) return 'admission policies: none (admissionPolicies.enabled is false)';
  const actions = new Set(rendered.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding').flatMap((o) => (o as { readonly spec?: { readonly validationActions?: readonly string[] } }).spec?.validationActions ?? []));
  return `admission policies: ${policies.join(', ')} (bindings: ${[...actions].join(', ')})`;
}

/** `[  12.3s] who: message`, the progress format testenv's own lines use. Pure. */
export function formatProgress(elapsedMs: number, who: string, message: string): string {
  return `[${(elapsedMs / 1000).toFixed(1).padStart(6)}s] ${who}: ${message}`;
}

/**
 * The testenv components a stack of `systems` needs: the apiserver (which brings the node up with it) and the Kafka
 * and OpenSearch each operator talks to. Redis needs none: its members are the operator's own Pods, from the node's
 * Redis image. Pure.
 */
export function componentsFor(systems: readonly OperatorSystem[]): ComponentName[] {
  return ['apiserver', ...(['kafka', 'opensearch'] as const).filter((system) => systems.includes(system))];
}

/** The name of an operator's Deployment, as its chart rendered it. Pure. */
export function deploymentName(operator: Pick<OperatorProcess, 'installation'>): string {
  return operator.installation.deployment.metadata?.name ?? '';
}

/** The image of an operator's container, as its chart rendered it. Pure. */
export function operatorImage(operator: Pick<OperatorProcess, 'installation'>): string {
  return operator.installation.deployment.spec?.template.spec?.containers.find((c) => c.name === 'operator')?.image ?? '?';
}

/**
 * Whether an example object belongs to one of `systems`: a custom resource by its API group, a Namespace named
 * `<system>-operator-system…` and anything in such a namespace by that name; everything else (a team's namespace)
 * belongs to all. Pure.
 */
export function belongsTo(object: KubernetesObject, systems: readonly OperatorSystem[]): boolean {
  const system = systemOf(object) ?? releaseSystemOf(object.kind === 'Namespace' ? object.metadata?.name : object.metadata?.namespace);
  return system === undefined || systems.includes(system);
}

function releaseSystemOf(namespace: string | undefined): OperatorSystem | undefined {
  return OPERATOR_SYSTEMS.find((system) => namespace?.startsWith(`${system}-operator-system`) === true);
}

/**
 * Brings the local environment up (testenv's components for `systems`, reusing what runs), applies the namespaces of
 * `examples/local`, runs each operator as its users do ({@link startOperatorPod}: its image built and loaded into the
 * node, its chart `helm upgrade --install`ed into the release namespace `<system>-operator-system`, its Deployment
 * available), applies the rest of `examples/local` with the placeholders filled from `.testenv/env.json` (logins:
 * never logged), and resolves once every custom resource is `Ready=True` for its current generation. Idempotent over
 * what already exists (server-side apply, `helm upgrade`). On failure or abort it uninstalls the releases it
 * installed and rejects.
 */
export async function startLocalStack(deps: LocalStackDeps, options: LocalStackOptions = {}): Promise<LocalStack> {
  const started = Date.now();
  const progress = (who: string, message: string): void => {
    deps.log(formatProgress(Date.now() - started, who, message));
  };
  const systems = options.systems ?? OPERATOR_SYSTEMS;
  const root = options.root ?? resolvePaths().root;
  const signal = options.signal ?? new AbortController().signal;

  const env = await upEnvironment({ only: componentsFor(systems), log: deps.log });
  signal.throwIfAborted();
  const kubeconfig = env.apiserver?.kubeconfig;
  if (kubeconfig === undefined) throw new Error('testenv did not report its apiserver');
  const objects = fillPlaceholders(
    forInstance(readLocalExamples(root), options.instance).filter((object) => belongsTo(object, systems)),
    placeholderValues(env),
  );
  // This very apiserver, without a testenv health check per call (adminConnection's default).
  const admin = await adminConnection({ E2E_KUBECONFIG: kubeconfig });
  const { client } = admin;

  const namespaces = objects.filter((object) => object.kind === 'Namespace');
  for (const namespace of namespaces) await apply(client, namespace, typeOfExample(namespace, []));
  progress('local-stack', `namespaces ${namespaces.map((namespace) => namespace.metadata?.name ?? '').join(', ')}`);

  const teamNamespaces = namespaces.map((namespace) => namespace.metadata?.name ?? '').filter((name) => releaseSystemOf(name) === undefined);
  // The stack a newcomer starts is the chart's defaults, admission policies on (the harness turns them off unless told).
  // An instance (the stack's own test, beside other suites) keeps them off, since a Deny binding is cluster-wide and
  // those suites check the operators' own refusals; its operators watch its team namespaces and their own release
  // namespace (the login Secrets are there).
  const valuesFor = (system: OperatorSystem): Record<string, unknown> =>
    options.instance === undefined ? { admissionPolicies: { enabled: true } } : { watchNamespaces: [...teamNamespaces, localReleaseNamespace(system, options.instance)] };
  const operators: OperatorProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const operator of operators) await operator.stop();
  };
  const operatorPods = async (operator: OperatorProcess): Promise<V1Pod[]> => {
    const selector = operator.installation.deployment.spec?.selector.matchLabels ?? {};
    const labelSelector = Object.entries(selector).map(([key, value]) => `${key}=${value}`).join(',');
    const pods = await client.list(coreTypes.pod, { namespace: operator.namespace, labelSelector });
    return pods.items.filter((pod) => pod.metadata?.deletionTimestamp === undefined).sort((a, b) => (a.metadata?.name ?? '').localeCompare(b.metadata?.name ?? ''));
  };
  try {
    for (const system of systems) {
      signal.throwIfAborted();
      progress(`${system}-operator`, 'building its bundle and image, installing its chart with helm');
      const operator = await startOperatorPod({ system, admin, releaseNamespace: localReleaseNamespace(system, options.instance), values: valuesFor(system) });
      operators.push(operator);
      const pods = (await operatorPods(operator)).map((pod) => pod.metadata?.name ?? '?');
      progress(
        `${system}-operator`,
        `ready: Pod ${operator.namespace}/${pods.join(',')} (release ${operator.releaseName}, image ${operatorImage(operator)}, as ${operator.namespace}/${operator.serviceAccount}); logs: ${logsCommand(operator.namespace, deploymentName(operator))}`,
      );
      progress(`${system}-operator`, admissionPoliciesLine(operator.installation.rendered));
    }
    const customTypes = typesOfCrds(operators.flatMap((operator) => operator.installation.rendered));
    const rest = objects.filter((object) => object.kind !== 'Namespace');
    for (const object of rest) {
      signal.throwIfAborted();
      await apply(client, object, typeOfExample(object, customTypes));
      progress('local-stack', `applied ${describeObject(object)}`);
    }
    const resources = rest.filter((object) => systemOf(object) !== undefined);
    progress('local-stack', `waiting for ${resources.length} resources to be Ready`);
    const pending = new Set(resources.map(describeObject));
    const ticker = setInterval(() => {
      progress('local-stack', `still waiting for ${[...pending].join(', ')}`);
    }, 15_000);
    try {
      await untilAborted(
        Promise.all(
          resources.map(async (object) => {
            const request = { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' };
            await waitForCondition(client, typeOfExample(object, customTypes), request, 'Ready', 'True', options.readyTimeoutMs ?? 240_000);
            pending.delete(describeObject(object));
            progress('local-stack', `Ready: ${describeObject(object)}`);
          }),
        ),
        signal,
      );
    } finally {
      clearInterval(ticker);
    }
    return { kubeconfig, operators, resources, operatorPods, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function apply(client: Client, object: KubernetesObject, type: ReturnType<typeof typeOfExample>): Promise<void> {
  await client.patch(type, { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' }, { type: 'apply', body: object, fieldManager: LOCAL_STACK_FIELD_MANAGER, force: true });
}

/** `work`, or a rejection with the signal's reason as soon as `signal` aborts (`work` then goes on unobserved). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

/** The line `local-stack.main.ts` prints once every operator runs and every example resource is Ready. */
export const LOCAL_STACK_READY = 'local-stack: ready';

/** The arguments of `kubectl … get kafka,opensearch,redis -A` for `systems` (each CRD's category is its system). Pure. */
export function kubectlGetArgs(kubeconfig: string, systems: readonly OperatorSystem[]): string[] {
  return ['--kubeconfig', kubeconfig, 'get', systems.join(','), '-A'];
}
