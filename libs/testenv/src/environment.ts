import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentContext, ComponentName } from './component.ts';
import { COMPONENT_NAMES, COMPONENTS } from './components.ts';
import type { ComponentInfos } from './components.ts';
import { readEnvFile, writeEnvFile } from './env-file.ts';
import type { TestEnv } from './env-file.ts';
import { acquireLock } from './lock.ts';
import type { TestenvPaths } from './paths.ts';
import { resolvePaths } from './paths.ts';
import { progressContexts, writeStderr } from './progress.ts';
import { kafkaPairComponent } from './kafka/kafka.ts';
import { runHostCommand } from './node/host-command.ts';
import { nodeHostLayout } from './node/host-layout.ts';
import { ensureHostNetwork } from './node/network.ts';
import { nodeComponent } from './node/node.ts';
import { s3Leftovers } from './s3/s3.ts';

/** Options shared by {@link upEnvironment}, {@link downEnvironment} and {@link environmentStatus}. */
export interface EnvironmentOptions {
  /** Components to act on; all when absent or empty. */
  readonly only?: readonly ComponentName[];
  readonly paths?: TestenvPaths;
  /** Receives one progress line at a time, already prefixed with elapsed time and component. */
  readonly log?: (line: string) => void;
}

/** Whether each component is up, for `testenv status`. */
export type EnvironmentStatus = Record<ComponentName | 'node', 'up' | 'down'>;

const LOCK_TIMEOUT_MS = 45 * 60_000;

/**
 * Creates the node's bridge (every component serves Pods on its address, `NODE_IP`), brings up the selected
 * components (all by default) concurrently, reusing the ones already healthy, then the node once the apiserver is up. Writes `.testenv/env.json` with every component that is up (including
 * ones started earlier and not selected now). Idempotent. Rejects, after the others finished, with every failed
 * component's name and log tail; the env file still lists what did come up.
 */
export async function upEnvironment(options: EnvironmentOptions = {}): Promise<TestEnv> {
  const paths = options.paths ?? resolvePaths();
  await mkdir(paths.logsDir, { recursive: true });
  const release = await acquireLock(join(paths.stateDir, 'lock'), LOCK_TIMEOUT_MS);
  try {
    const selected = selection(options.only);
    const contextFor = progressContexts(paths, options.log);
    await ensureHostNetwork(runHostCommand, nodeHostLayout());
    let env: TestEnv = await currentEnv(paths);
    const failures: string[] = [];
    await Promise.all(
      selected.map(async (name) => {
        const ctx = contextFor(name);
        ctx.progress('starting');
        try {
          const info = await COMPONENTS[name].up(ctx);
          env = withInfo(env, name, info);
          ctx.progress('up');
        } catch (err) {
          failures.push(`${name}: ${(err as Error).message}`);
          ctx.progress('FAILED');
        }
      }),
    );
    if (env.apiserver !== undefined && selected.includes('apiserver')) {
      const ctx = contextFor('node');
      ctx.progress('starting');
      try {
        // A healthy node recorded in env.json is kept as it is (the common case: every test file calls `up`).
        if (env.node !== undefined && (await nodeComponent.healthy(ctx))) ctx.progress('already running');
        else env = { ...env, node: await nodeComponent.up(ctx, env.apiserver) };
        ctx.progress('up');
      } catch (err) {
        failures.push(`node: ${(err as Error).message}`);
        ctx.progress('FAILED');
      }
    }
    await writeEnvFile(paths.envFile, env);
    if (failures.length > 0) throw new Error(`testenv up failed:\n${failures.join('\n\n')}`);
    return env;
  } finally {
    await release();
  }
}

/**
 * Stops the selected components (all by default) and removes them from `env.json`; stopping `apiserver` stops the
 * node first and sweeps what it left on the host, stopping `kafka` also stops the two-node cluster of `upKafkaPair`,
 * and stopping everything also removes the bridge and restores `ip_forward`. Never throws when nothing runs.
 */
export async function downEnvironment(options: EnvironmentOptions = {}): Promise<void> {
  const paths = options.paths ?? resolvePaths();
  const release = await acquireLock(join(paths.stateDir, 'lock'), LOCK_TIMEOUT_MS);
  try {
    const selected = selection(options.only);
    const log = options.log ?? writeStderr;
    const everything = selected.length === COMPONENT_NAMES.length;
    if (selected.includes('apiserver')) await nodeComponent.down({ paths, progress: (m) => { log(`node: ${m}`); } }, { network: false });
    // The two-node cluster a test may have left behind goes with testenv's own Kafka.
    if (selected.includes('kafka')) await kafkaPairComponent.down({ paths, progress: (m) => { log(`kafka-pair: ${m}`); } });
    await Promise.all(
      selected.map((name) =>
        COMPONENTS[name].down({
          paths,
          progress: (m) => {
            log(`${name}: ${m}`);
          },
        }),
      ),
    );
    // The bridge goes last: kube-apiserver, Kafka and OpenSearch listen on its address until they are stopped.
    if (everything) await nodeComponent.down({ paths, progress: (m) => { log(`node: ${m}`); } }, { network: true });
    let env = await readEnvFile(paths.envFile);
    for (const name of selected) env = withoutInfo(env, name);
    await writeEnvFile(paths.envFile, env);
  } finally {
    await release();
  }
}

/**
 * What the node left on the host after a full `down` (processes, mounts, cgroups, iptables chains, the bridge, its
 * state directories) and what the S3 gateway left (its process, its folder), one line each; empty when the host is
 * clean. Read-only.
 */
export async function environmentLeftovers(options: EnvironmentOptions = {}): Promise<string[]> {
  const paths = options.paths ?? resolvePaths();
  const ctx: ComponentContext = { paths, progress: () => undefined };
  return [...(await nodeComponent.leftovers(ctx, { network: true })), ...(await s3Leftovers(ctx))];
}

/** Asks every component whether it is up (processes alive and answering). Read-only. */
export async function environmentStatus(options: EnvironmentOptions = {}): Promise<EnvironmentStatus> {
  const paths = options.paths ?? resolvePaths();
  const ctx: ComponentContext = { paths, progress: () => undefined };
  const entries = await Promise.all(
    COMPONENT_NAMES.map(async (name) => [name, (await COMPONENTS[name].healthy(ctx)) ? 'up' : 'down'] as const),
  );
  const node = (await nodeComponent.healthy(ctx)) ? 'up' : 'down';
  return { ...(Object.fromEntries(entries) as Record<ComponentName, 'up' | 'down'>), node };
}

/** The env file's entries for components that are still healthy (stale entries are dropped). */
async function currentEnv(paths: TestenvPaths): Promise<TestEnv> {
  let env = await readEnvFile(paths.envFile);
  const ctx: ComponentContext = { paths, progress: () => undefined };
  for (const name of COMPONENT_NAMES) {
    if (env[name] !== undefined && !(await COMPONENTS[name].healthy(ctx))) env = withoutInfo(env, name);
  }
  return env;
}

function selection(only: readonly ComponentName[] | undefined): ComponentName[] {
  return only === undefined || only.length === 0 ? [...COMPONENT_NAMES] : COMPONENT_NAMES.filter((n) => only.includes(n));
}

function withInfo<N extends ComponentName>(env: TestEnv, name: N, info: ComponentInfos[N]): TestEnv {
  if (name === 'apiserver') {
    const api = info as ComponentInfos['apiserver'];
    return { ...env, apiserver: api, kubeconfig: api.kubeconfig, kubernetesVersion: api.kubernetesVersion, auditLog: api.auditLog };
  }
  return { ...env, [name]: info };
}

function withoutInfo(env: TestEnv, name: ComponentName): TestEnv {
  const dropped = new Set<string>(name === 'apiserver' ? ['apiserver', 'node', 'kubeconfig', 'kubernetesVersion', 'auditLog'] : [name]);
  return Object.fromEntries(Object.entries(env).filter(([key]) => !dropped.has(key)));
}
