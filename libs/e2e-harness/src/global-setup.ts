import { ensureTestEnv } from '@domain-operators/testenv';
import type { ComponentName } from '@domain-operators/testenv';
import { buildOperator } from './bundle.ts';
import { adminClient, targetsExistingCluster } from './cluster.ts';
import { installCrds } from './install.ts';
import type { OperatorSystem } from './system.ts';

/** Options for {@link prepareE2eRun}. */
export interface PrepareE2eOptions {
  readonly system: OperatorSystem;
  /** testenv components the suite needs besides the apiserver, e.g. `['kafka']`. */
  readonly components?: readonly ComponentName[];
}

/**
 * For an e2e project's vitest global setup: brings up (or reuses) the testenv components the suite needs, unless
 * `$E2E_KUBECONFIG` names an existing cluster, builds the operator bundle once for the whole run, and installs the
 * chart's CRDs (so fixtures can create custom resources before any operator starts).
 */
export async function prepareE2eRun(options: PrepareE2eOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (!targetsExistingCluster(env)) {
    await ensureTestEnv(['apiserver', ...(options.components ?? [])]);
  }
  await buildOperator(options.system);
  await installCrds(await adminClient(), options.system);
}
