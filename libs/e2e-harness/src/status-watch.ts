import type { KubeConfig, KubernetesObject } from '@kubernetes/client-node';
import type { ResourceType } from '@domain-operators/reconcile';
import { HttpWatchTransport } from '@domain-operators/reconcile';
import { kstatus } from '@domain-operators/testenv';

/** One version of an object as a watch delivered it: what kstatus and `kubectl wait` would have judged. */
export interface WatchedVersion {
  readonly name: string;
  readonly namespace: string | undefined;
  readonly resourceVersion: string | undefined;
  readonly generation: number | undefined;
  readonly observedGeneration: number | undefined;
  readonly conditions: readonly { readonly type: string; readonly status: string; readonly observedGeneration?: number }[];
  /** The object as the apiserver sent it, for tools that judge it whole (kstatus). */
  readonly object: KubernetesObject;
}

/**
 * A running watch of one kind. {@link StatusWatch.stop} first lists the kind again and waits (up to
 * {@link CATCH_UP_MS}) until the watch has delivered every listed object at its listed resourceVersion (a watch
 * lags a GET on a loaded machine: a test that saw an object current by GET must also find that version in what
 * the watch saw), then ends the watch and returns every version it saw, in order.
 */
export interface StatusWatch {
  stop(): Promise<readonly WatchedVersion[]>;
}

/** How long {@link StatusWatch.stop} waits for the watch to catch up with a fresh list. */
export const CATCH_UP_MS = 30_000;

/**
 * Starts recording every version of the objects of `type` (in `namespace`, or cluster-wide for a cluster-scoped
 * kind) that the apiserver sends: the current ones from a list, then each ADDED or MODIFIED event of a watch from
 * that list's resourceVersion, resumed from the last one seen when the server ends a watch. Resolves once the list
 * is read, so every later change is seen. For e2e tests of what status shows during a change.
 */
export async function watchStatuses(kubeConfig: KubeConfig, type: ResourceType, namespace?: string): Promise<StatusWatch> {
  const transport = new HttpWatchTransport({ kubeConfig }, { resource: type, ...(namespace !== undefined && { namespace }) });
  const abort = new AbortController();
  const versions: WatchedVersion[] = [];
  const page = await transport.list({ limit: 500, signal: abort.signal });
  for (const item of page.items) versions.push(versionOf(item));
  let resourceVersion = page.resourceVersion;
  const run = (async (): Promise<void> => {
    while (!abort.signal.aborted) {
      try {
        const events = transport.watch({ resourceVersion, timeoutSeconds: 60, allowWatchBookmarks: true, signal: abort.signal, onActivity: () => undefined });
        for await (const event of events) {
          if (event.type === 'BOOKMARK') {
            resourceVersion = event.resourceVersion;
            continue;
          }
          resourceVersion = event.object.metadata?.resourceVersion ?? resourceVersion;
          if (event.type !== 'DELETED') versions.push(versionOf(event.object));
        }
      } catch (err) {
        if (stopped(abort.signal)) return;
        throw err;
      }
    }
  })();
  return {
    stop: async () => {
      const latest = await transport.list({ limit: 500, signal: AbortSignal.timeout(CATCH_UP_MS) });
      const deadline = Date.now() + CATCH_UP_MS;
      while (!caughtUp(versions, latest.items) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      abort.abort(new Error('status watch stopped'));
      await run;
      return versions;
    },
  };
}

/**
 * Every version in which `status.observedGeneration` claims more than a condition does: observedGeneration set
 * while a condition carries an older `observedGeneration` (or none). Such a version tells kstatus that the object
 * is current at a generation whose conditions were not written yet. One human line each; empty when none. Pure.
 */
export function generationLies(versions: readonly WatchedVersion[]): string[] {
  const lies: string[] = [];
  for (const v of versions) {
    if (v.observedGeneration === undefined) continue;
    for (const c of v.conditions) {
      if (c.observedGeneration === undefined || c.observedGeneration < v.observedGeneration) {
        const where = v.namespace === undefined ? v.name : `${v.namespace}/${v.name}`;
        lies.push(`${where} at resourceVersion ${v.resourceVersion ?? '?'}: observedGeneration ${v.observedGeneration} but ${c.type}=${c.status} describes generation ${c.observedGeneration ?? '(none)'}`);
      }
    }
  }
  return lies;
}

/**
 * True when `version` is current as `kubectl wait --for=condition=Ready` and a careful reader judge it: `Ready=True`
 * at the object's generation and `status.observedGeneration` at it too. Pure.
 */
export function readyAtItsGeneration(version: WatchedVersion): boolean {
  const ready = version.conditions.find((c) => c.type === 'Ready');
  return version.generation !== undefined && ready?.status === 'True' && ready.observedGeneration === version.generation && version.observedGeneration === version.generation;
}

/** What the real kstatus made of a recording: {@link kstatusReading}. */
export interface KstatusReading {
  /**
   * One human line for each version kstatus calls `Current` that is not {@link readyAtItsGeneration} (what would let
   * Flux or kpt go on before the change is applied). A version with no status at all (just created: the apiserver
   * takes no status on create) is left out: kstatus calls every such object Current, and no status can change that.
   */
  readonly lies: readonly string[];
  /** How many versions at `generation` kstatus called `InProgress`: the change in flight, as Flux saw it. */
  readonly inProgress: number;
}

/** Runs the real kstatus over every recorded version; see {@link KstatusReading}. */
export async function kstatusReading(versions: readonly WatchedVersion[], generation: number): Promise<KstatusReading> {
  const verdicts = await kstatus(versions.map((v) => v.object));
  const inProgress = versions.filter((v, i) => v.generation === generation && verdicts[i]?.status === 'InProgress').length;
  const lies = versions.flatMap((v, i) => {
    const verdict = verdicts[i];
    const unwritten = v.observedGeneration === undefined && v.conditions.length === 0;
    if (verdict?.status !== 'Current' || unwritten || readyAtItsGeneration(v)) return [];
    const where = v.namespace === undefined ? v.name : `${v.namespace}/${v.name}`;
    return [`${where} at resourceVersion ${v.resourceVersion ?? '?'} (generation ${v.generation ?? '?'}): kstatus says Current, but ${v.conditions.map((c) => `${c.type}=${c.status}@${c.observedGeneration ?? '-'}`).join(', ')}`];
  });
  return { lies, inProgress };
}

/**
 * True when `seen` holds each of `listed` at its listed resourceVersion or a later one (resourceVersions compared
 * as the integers etcd gives, as the runtime does). Pure.
 */
export function caughtUp(seen: readonly WatchedVersion[], listed: readonly KubernetesObject[]): boolean {
  return listed.every(({ metadata }) => {
    const wanted = numericVersion(metadata?.resourceVersion);
    return seen.some((v) => v.name === metadata?.name && v.namespace === metadata.namespace && numericVersion(v.resourceVersion) >= wanted);
  });
}

function numericVersion(resourceVersion: string | undefined): bigint {
  return resourceVersion !== undefined && /^\d+$/.test(resourceVersion) ? BigInt(resourceVersion) : 0n;
}

/** Read through a call, so the compiler does not narrow `aborted` across the awaits of the loop. */
function stopped(signal: AbortSignal): boolean {
  return signal.aborted;
}

function versionOf(object: KubernetesObject): WatchedVersion {
  const status = (object as { status?: { observedGeneration?: unknown; conditions?: unknown } }).status;
  const conditions = Array.isArray(status?.conditions) ? (status.conditions as WatchedVersion['conditions']) : [];
  return {
    name: object.metadata?.name ?? '',
    namespace: object.metadata?.namespace,
    resourceVersion: object.metadata?.resourceVersion,
    generation: object.metadata?.generation,
    observedGeneration: typeof status?.observedGeneration === 'number' ? status.observedGeneration : undefined,
    conditions: conditions.map((c) => ({ type: c.type, status: c.status, ...(c.observedGeneration !== undefined && { observedGeneration: c.observedGeneration }) })),
    object,
  };
}
