import type { KubernetesObject } from '@kubernetes/client-node';
import { requestKey, Result } from '@domain-operators/reconcile';
import type { ExternalAdapter, ReconcileContext } from '@domain-operators/reconcile';

/**
 * Polls a KafkaTopic while its replication factor change runs, without memory that outlives a reconcile: the
 * adapter calls of one reconcile report `status.replicasChange` (an object while a reassignment runs, `null` when
 * none does); {@link ReassignmentPoll.watch} passes them through and notes what they said, and
 * {@link ReassignmentPoll.reconcile} turns the reconcile's result into a requeue after `pollMs` when they said a
 * reassignment runs. The note is keyed by the request and dropped when the reconcile ends (the loop never runs two
 * reconciles of one key at once), so nothing is kept between reconciles and nothing needs forgetting.
 */
export class ReassignmentPoll {
  readonly #pollMs: number;
  /** Request keys of the reconciles running now whose adapter calls reported a reassignment under way. */
  readonly #reassigning = new Set<string>();

  /** `pollMs`: the requeue delay while a reassignment runs. Does no work. */
  constructor(pollMs: number) {
    this.#pollMs = pollMs;
  }

  /**
   * `adapter` unchanged, except that what `observe` (of an existing object) and `update` report as
   * `replicasChange` is noted for the running reconcile; a call that reports none leaves the note as it was.
   */
  watch<T extends KubernetesObject, D, O, C>(adapter: ExternalAdapter<T, D, O, C>): ExternalAdapter<T, D, O, C> {
    return {
      observe: async (desired, context) => {
        const observation = await adapter.observe(desired, context);
        if (observation.exists) this.#note(context, observation.status?.['replicasChange']);
        return observation;
      },
      create: (desired, context) => adapter.create(desired, context),
      update: async (desired, observed, context) => {
        const update = await adapter.update(desired, observed, context);
        this.#note(context, update.status?.['replicasChange']);
        return update;
      },
      delete: (target, context) => adapter.delete(target, context),
      ...(adapter.intent !== undefined && { intent: adapter.intent.bind(adapter) }),
    };
  }

  /**
   * Runs `reconcile` (one reconcile of `context.request`, through an adapter from {@link ReassignmentPoll.watch});
   * when its adapter calls reported a reassignment under way and `polling` holds, resolves to a requeue after
   * `pollMs` (or the reconcile's own sooner requeue), else to the reconcile's result. Rejects as `reconcile` does.
   */
  async reconcile(context: ReconcileContext, polling: boolean, reconcile: () => Promise<Result>): Promise<Result> {
    const key = requestKey(context.request);
    try {
      const result = await reconcile();
      if (!polling || !this.#reassigning.has(key)) return result;
      return result.kind === 'requeueAfter' && result.delayMs < this.#pollMs ? result : Result.requeueAfter(this.#pollMs);
    } finally {
      this.#reassigning.delete(key);
    }
  }

  #note(context: ReconcileContext, replicasChange: unknown): void {
    if (replicasChange === undefined) return;
    const key = requestKey(context.request);
    if (replicasChange === null) this.#reassigning.delete(key);
    else this.#reassigning.add(key);
  }
}
