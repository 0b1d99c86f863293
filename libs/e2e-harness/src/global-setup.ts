import { ensureTestEnv, loadOperatorImage } from '@domain-operators/testenv';
import type { ComponentName } from '@domain-operators/testenv';
import { buildOperator } from './bundle.ts';
import { adminClient, targetsExistingCluster } from './cluster.ts';
import { installCrds } from './install.ts';
import { recordPreparedImage } from './prepared-image.ts';
import type { OperatorSystem } from './system.ts';

/** Options for {@link prepareE2eRun}. */
export interface PrepareE2eOptions {
  readonly system: OperatorSystem;
  /** testenv components the suite needs besides the apiserver, e.g. `['kafka']`. */
  readonly components?: readonly ComponentName[];
}

/**
 * For an e2e project's vitest global setup: brings up (or reuses) the testenv components the suite needs, unless
 * `$E2E_KUBECONFIG` names an existing cluster, builds the operator bundle once for the whole run, loads its image
 * into testenv's node and records the image's digest in `env` for the test files (so each file's operator start
 * does not rebuild them; see prepared-image.ts), and installs the chart's CRDs (so fixtures can create custom
 * resources before any operator starts).
 */
export async function prepareE2eRun(options: PrepareE2eOptions, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const existingCluster = targetsExistingCluster(env);
  if (!existingCluster) {
    await ensureTestEnv(['apiserver', ...(options.components ?? [])]);
  }
  await buildOperator(options.system);
  if (!existingCluster) recordPreparedImage(options.system, (await loadOperatorImage(options.system)).manifestDigest, env);
  await installCrds(await adminClient(), options.system);
}
