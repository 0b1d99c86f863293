import { ensureTestEnv, readEnvFile } from '@domain-operators/testenv';
import type { TestEnv } from '@domain-operators/testenv';

/** A backend an e2e suite talks to besides the Kubernetes API. */
export type BackendName = 'kafka' | 'opensearch' | 'redis';

/** The connection details of the named backends, each guaranteed present (testenv's `env.json` shapes). */
export type Backends<N extends BackendName> = { readonly [K in N]-?: NonNullable<TestEnv[K]> };

/**
 * The named backends out of an environment description, or an error naming every missing one and where it was
 * looked for (`source`). Pure.
 */
export function selectBackends<N extends BackendName>(env: TestEnv, names: readonly N[], source: string): Backends<N> {
  const missing = names.filter((name) => env[name] === undefined);
  if (missing.length > 0) throw new Error(`${source} describes no ${missing.join(', ')}`);
  return Object.fromEntries(names.map((name) => [name, env[name]])) as Backends<N>;
}

/**
 * The backends the e2e suites run against, chosen by configuration: the file named by `$E2E_BACKENDS` when set
 * (testenv's `env.json` shape; the kind workflow writes it for the backends it deploys in the cluster, see
 * `.github/kind/deploy-backends.sh`), else testenv's own, started when they are not running. Pair it with
 * `$E2E_KUBECONFIG`, which picks the cluster ({@link adminConnection}). Its addresses serve both the suite (on the
 * host) and the operator it installs (a Pod): testenv's node bridge address, kind's node address with NodePorts.
 * Rejects naming what is missing.
 */
export async function backendsUnderTest<N extends BackendName>(names: readonly N[], env: NodeJS.ProcessEnv = process.env): Promise<Backends<N>> {
  const file = env['E2E_BACKENDS'];
  if (file !== undefined && file !== '') return selectBackends(await readEnvFile(file), names, `$E2E_BACKENDS (${file})`);
  return selectBackends(await ensureTestEnv(['apiserver', ...names]), names, 'testenv');
}
