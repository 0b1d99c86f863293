import type { KubernetesObject } from '@kubernetes/client-node';
import { apiStatusOf, isNotFound, isRetryable } from '@domain-operators/reconcile';
import type { Client, Condition, ConditionStatus, Request, ResourceType } from '@domain-operators/reconcile';

/** Options for {@link eventually}. */
export interface EventuallyOptions {
  readonly timeoutMs: number;
  /** Pause between attempts; default 100 ms. */
  readonly intervalMs?: number;
  /** What is awaited, for the timeout message. */
  readonly what?: string;
}

/**
 * Calls `check` until it resolves with a value other than `undefined`, and resolves with that value. A rejection
 * counts as "not yet". Rejects after `timeoutMs` with `what` and the last rejection's message.
 */
export async function eventually<T>(check: () => Promise<T | undefined>, options: EventuallyOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() >= deadline) {
      const why = last instanceof Error ? `: ${last.message}` : '';
      throw new Error(`${options.what ?? 'condition'} not met within ${options.timeoutMs} ms${why}`);
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

/** An object with `status.conditions` (every custom resource of this repository). */
export interface ObjectWithConditions extends KubernetesObject {
  readonly status?: { readonly conditions?: readonly Condition[] };
}

/**
 * Whether `object` has condition `type` with `status`, computed from its current generation (a condition with an
 * older `observedGeneration` is stale and does not count; one without `observedGeneration` is taken as is). Pure.
 */
export function hasCondition(object: ObjectWithConditions, type: string, status: ConditionStatus): boolean {
  const condition = object.status?.conditions?.find((c) => c.type === type);
  if (condition?.status !== status) return false;
  const generation = object.metadata?.generation;
  return condition.observedGeneration === undefined || generation === undefined || condition.observedGeneration >= generation;
}

/** One line describing an object's conditions, for failure messages. Pure. */
export function describeConditions(object: ObjectWithConditions | undefined): string {
  if (object === undefined) return 'the object does not exist';
  const conditions = object.status?.conditions ?? [];
  if (conditions.length === 0) return `no conditions (generation ${object.metadata?.generation ?? '?'})`;
  return conditions.map((c) => `${c.type}=${c.status} ${c.reason} (gen ${c.observedGeneration ?? '?'}): ${c.message}`).join('; ');
}

/**
 * Polls the object through `client` (a live read, no cache; 404, 5xx and network errors are retried) every 250 ms
 * until condition `conditionType` has
 * `status` for its current generation, and resolves with the object. Rejects after `timeoutMs`, naming the
 * object and the conditions it had last.
 */
export async function waitForCondition<T extends ObjectWithConditions>(
  client: Client,
  type: ResourceType<T>,
  request: Request,
  conditionType: string,
  status: ConditionStatus,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    try {
      last = await client.get(type, request);
      if (hasCondition(last, conditionType, status)) return last;
    } catch (err) {
      // Not found yet, or the apiserver restarting (5xx, or no HTTP answer at all): keep polling. 403, 400: fail now.
      if (isNotFound(err)) last = undefined;
      else if (!isRetryable(err) && apiStatusOf(err) !== undefined) throw err;
    }
    if (Date.now() >= deadline) {
      const where = request.namespace === undefined ? request.name : `${request.namespace}/${request.name}`;
      throw new Error(`${type.kind} ${where}: ${conditionType}=${status} not reached within ${timeoutMs} ms; last seen: ${describeConditions(last)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
