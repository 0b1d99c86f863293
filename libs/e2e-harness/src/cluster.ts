import { randomBytes } from 'node:crypto';
import { KubeConfig } from '@kubernetes/client-node';
import { Client, coreTypes, HttpsRestTransport, isNotFound } from '@domain-operators/reconcile';
import type { RestTransport } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';

/** An admin connection to the cluster under test. */
export interface AdminConnection {
  readonly kubeConfig: KubeConfig;
  readonly rest: RestTransport;
  readonly client: Client;
}

/**
 * Whether the suites target an existing cluster (`$E2E_KUBECONFIG` set, e.g. kind in hosted CI) rather than testenv.
 * Scenarios that need testenv's processes (freezing the broker, killing a Redis server by pid) skip themselves then.
 */
export function targetsExistingCluster(env: NodeJS.ProcessEnv = process.env): boolean {
  const explicit = env['E2E_KUBECONFIG'];
  return explicit !== undefined && explicit !== '';
}

/**
 * Connects as cluster admin to the cluster the suites target: the kubeconfig named by `$E2E_KUBECONFIG` when set
 * (an existing cluster, e.g. kind in hosted CI), else testenv's apiserver, which is started if it is not running
 * (reusing a running one).
 */
export async function adminConnection(env: NodeJS.ProcessEnv = process.env): Promise<AdminConnection> {
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(targetsExistingCluster(env) ? (env['E2E_KUBECONFIG'] ?? '') : (await ensureTestEnv(['apiserver'])).apiserver.kubeconfig);
  const rest = await HttpsRestTransport.create(kubeConfig);
  return { kubeConfig, rest, client: new Client({ rest }) };
}

/** A {@link Client} authenticated as cluster admin (see {@link adminConnection} for which cluster). */
export async function adminClient(): Promise<Client> {
  return (await adminConnection()).client;
}

/** A lower-case random suffix of `length` characters, valid in Kubernetes names. */
export function randomSuffix(length = 6): string {
  return randomBytes(length).toString('hex').slice(0, length);
}

/**
 * Creates a namespace `e2e-<random>` (or `<prefix>-<random>`) with `labels` as admin and resolves with its name.
 * Each call makes a new one; delete it with {@link deleteNamespace}.
 */
export async function freshNamespace(labels: Readonly<Record<string, string>> = {}, prefix = 'e2e'): Promise<string> {
  const client = await adminClient();
  const name = `${prefix}-${randomSuffix()}`;
  await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { ...labels } } });
  return name;
}

/** Deletes a namespace as admin; resolves without error when it is already gone. Does not wait for it to vanish. */
export async function deleteNamespace(name: string): Promise<void> {
  const client = await adminClient();
  try {
    await client.delete(coreTypes.namespace, { namespace: undefined, name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}
