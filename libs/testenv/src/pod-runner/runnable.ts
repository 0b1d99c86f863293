import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { isRedisImage } from './image.ts';

/** Pod condition the runner sets to False on pods it cannot run (a qualified name, as custom conditions need). */
export const RUNNABLE_CONDITION = 'testenv.domain-operators.io/Runnable';
/** Waiting reason of every container of a pod the runner cannot run. */
export const NOT_RUNNABLE_REASON = 'ImageNotRunnable';

/** Why a pod cannot run here. */
export interface NotRunnable {
  readonly runnable: false;
  /** The first container that cannot run. */
  readonly container: string;
  /** Human-readable, shown in the condition and in every container's waiting state. */
  readonly message: string;
}

/** A pod whose containers are all Redis servers. */
export interface Runnable {
  readonly runnable: true;
  readonly containers: readonly V1Container[];
}

/**
 * The argv a Redis container runs, without the leading `redis-server`, or `undefined` when it would run
 * something else. Follows the official image's entrypoint: without `command`, args that start with `-` or whose
 * first word ends in `.conf` are passed to `redis-server`, and args starting with `redis-server` run it. With a
 * `command`, its first word must be `redis-server` (bare or a path). Pure.
 */
export function redisArgv(container: V1Container): string[] | undefined {
  const command = container.command ?? [];
  const args = container.args ?? [];
  const isServer = (word: string | undefined): boolean => word !== undefined && /(^|\/)redis-server$/.test(word);
  if (command.length > 0) return isServer(command[0]) ? [...command.slice(1), ...args] : undefined;
  const first = args[0];
  if (first === undefined) return [];
  if (isServer(first)) return args.slice(1);
  if (first.startsWith('-') || first.endsWith('.conf')) return [...args];
  return undefined;
}

/**
 * Decides whether the runner can run `pod`: every container must use a Redis image (see `isRedisImage`) and run
 * `redis-server` (see {@link redisArgv}). Init containers (including native sidecars) are never run: a Redis
 * server never completes, and anything else is not Redis, so a pod with init containers is not runnable. Pure.
 */
export function runnability(pod: V1Pod): Runnable | NotRunnable {
  const prefix = "testenv's pod runner runs only redis images";
  for (const init of pod.spec?.initContainers ?? []) {
    const message = isRedisImage(init.image ?? '')
      ? `${prefix}; init container ${init.name} (${init.image ?? ''}) cannot run here: init containers are not supported`
      : `${prefix}; ${init.image ?? '(no image)'} cannot run here (init container ${init.name})`;
    return { runnable: false, container: init.name, message };
  }
  const containers = pod.spec?.containers ?? [];
  for (const container of containers) {
    const image = container.image ?? '';
    if (!isRedisImage(image)) {
      return { runnable: false, container: container.name, message: `${prefix}; ${image || '(no image)'} cannot run here` };
    }
    if (redisArgv(container) === undefined) {
      const argv = [...(container.command ?? []), ...(container.args ?? [])].join(' ');
      return {
        runnable: false,
        container: container.name,
        message: `${prefix} as redis-server; ${image} with command "${argv}" cannot run here`,
      };
    }
  }
  if (containers.length === 0) return { runnable: false, container: '', message: `${prefix}; the pod has no containers` };
  return { runnable: true, containers };
}
