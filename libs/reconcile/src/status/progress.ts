/**
 * kstatus' two abnormal-true conditions, derived in the one status path so that Flux, kpt and `kubectl wait` read every
 * kind alike (sigs.k8s.io/cli-utils `kstatus`: `Stalled=True` is `Failed`, `Reconciling=True` is `InProgress`, neither
 * with `observedGeneration` at the current generation is `Current`; ADR 0031).
 */
import type { Condition, ConditionUpdate } from '../core/conditions.ts';
import { READY_CONDITION, RECONCILING_CONDITION, removeCondition, setCondition, STALLED_CONDITION } from '../core/conditions.ts';

/**
 * Where a resource stands, as a status write states it:
 * - `Settled`: nothing in progress and nothing stuck (the resource is Ready, or deliberately idle): both conditions go.
 * - `Reconciling`: the operator is still working on it, or retrying a failure that may pass without a change of the
 *   resource (a backend down, a member not Ready yet, a dependency not Ready).
 * - `Stalled`: it cannot make progress until someone changes the resource or the world outside it (an invalid spec, a
 *   tenancy refusal, a name claimed by another resource, an object that must be adopted explicitly).
 */
export type Progress =
  | { readonly state: 'Settled' }
  | { readonly state: 'Reconciling' | 'Stalled'; readonly reason: string; readonly message: string };

/** {@link Progress} `Settled`. */
export const settled: Progress = { state: 'Settled' };

/** {@link Progress} `Reconciling` with a CamelCase reason and a human message (never a secret). */
export function reconciling(reason: string, message: string): Progress {
  return { state: 'Reconciling', reason, message };
}

/** {@link Progress} `Stalled` with a CamelCase reason and a human message (never a secret). */
export function stalled(reason: string, message: string): Progress {
  return { state: 'Stalled', reason, message };
}

/**
 * The progress a write states when its author named none: derived from the `Ready` update among `updates`
 * (`True` → `Settled`; `False` or `Unknown` → `Reconciling` with Ready's reason and message), or `undefined` when the
 * write does not touch `Ready` (then `Stalled` and `Reconciling` stay as they are). Pure.
 */
export function progressFromReady(updates: readonly ConditionUpdate[]): Progress | undefined {
  const ready = updates.find((c) => c.type === READY_CONDITION);
  if (ready === undefined) return undefined;
  return ready.status === 'True' ? settled : reconciling(ready.reason, ready.message);
}

/**
 * `conditions` with `Stalled` and `Reconciling` brought to `progress`: `Settled` removes both; `Reconciling` sets
 * `Reconciling=True` and removes `Stalled`; `Stalled` sets `Stalled=True` and removes `Reconciling`. A set condition
 * carries `generation` (so it never holds `observedGeneration` back). Returns the same array when nothing changed. Pure.
 */
export function withProgress(conditions: readonly Condition[], progress: Progress, generation: number | undefined, now: Date): readonly Condition[] {
  if (progress.state === 'Settled') return removeCondition(removeCondition(conditions, STALLED_CONDITION), RECONCILING_CONDITION);
  const [set, cleared] = progress.state === 'Stalled' ? [STALLED_CONDITION, RECONCILING_CONDITION] : [RECONCILING_CONDITION, STALLED_CONDITION];
  const condition: ConditionUpdate = { type: set, status: 'True', reason: progress.reason, message: progress.message, ...(generation !== undefined && { observedGeneration: generation }) };
  return setCondition(removeCondition(conditions, cleared), condition, now);
}
