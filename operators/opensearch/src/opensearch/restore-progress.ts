/**
 * How a restore stands in OpenSearch, read from the restored indices themselves: whether they are this restore's
 * (their primaries recovered from its snapshot, as the recovery API reports it), and how far their shards are. Pure.
 */
import type { IndexRecovery } from './snapshot-types.ts';

/** What was read about one target index of a restore. */
export interface TargetObservation {
  readonly target: string;
  readonly exists: boolean;
  /** `green`, `yellow` or `red`; absent when unknown. */
  readonly health?: string | undefined;
  /** Its recovery entry; absent when the recovery API listed no shard of it. */
  readonly recovery?: IndexRecovery | undefined;
}

/**
 * Whose the target indices are: `absent` (none exists: the restore did not take effect), `ours` (every one exists
 * and each listed primary recovered from `snapshot` in `repository`, at least one per index), `foreign` (some index
 * has a primary that did not: an index someone else made, listed in `foreign`), or `unsettled` (some exist and
 * others not, or an index lists no primary yet): look again shortly.
 */
export type Recognition =
  | { readonly kind: 'absent' }
  | { readonly kind: 'ours' }
  | { readonly kind: 'foreign'; readonly foreign: readonly string[] }
  | { readonly kind: 'unsettled'; readonly message: string };

/** Recognises a restore from its target indices (see {@link Recognition}). Pure. */
export function recognise(observations: readonly TargetObservation[], source: { readonly repository: string; readonly snapshot: string }): Recognition {
  const existing = observations.filter((o) => o.exists);
  if (existing.length === 0) return { kind: 'absent' };
  const foreign = existing.filter((o) => primariesOf(o).some((shard) => shard.snapshot?.repository !== source.repository || shard.snapshot.snapshot !== source.snapshot)).map((o) => o.target);
  if (foreign.length > 0) return { kind: 'foreign', foreign };
  const missing = observations.filter((o) => !o.exists).map((o) => o.target);
  if (missing.length > 0) return { kind: 'unsettled', message: `indices ${missing.join(', ')} do not exist while the other restored indices do` };
  const unlisted = existing.filter((o) => primariesOf(o).length === 0).map((o) => o.target);
  if (unlisted.length > 0) return { kind: 'unsettled', message: `indices ${unlisted.join(', ')} list no recovering primary yet` };
  return { kind: 'ours' };
}

/**
 * The progress of a started restore: `missing` when a target index no longer exists; else shard counts over the
 * shards the recovery API lists (`shardsDone`: stage `DONE`), `done` once every target's health is green or yellow
 * (all primaries started) and every listed shard is `DONE`, and `stalled`: the targets that are red with no shard
 * recovering (a primary whose restore failed stays unassigned). Pure.
 */
export type Progress =
  | { readonly kind: 'missing'; readonly indices: readonly string[] }
  | { readonly kind: 'progress'; readonly done: boolean; readonly shardsTotal: number; readonly shardsDone: number; readonly stalled: readonly string[] };

/** Computes the {@link Progress} of a started restore. Pure. */
export function progressOf(observations: readonly TargetObservation[]): Progress {
  const missing = observations.filter((o) => !o.exists).map((o) => o.target);
  if (missing.length > 0) return { kind: 'missing', indices: missing };
  let shardsTotal = 0;
  let shardsDone = 0;
  let done = true;
  const stalled: string[] = [];
  for (const o of observations) {
    const shards = o.recovery?.shards ?? [];
    const finished = shards.filter((shard) => shard.stage === 'DONE').length;
    shardsTotal += shards.length;
    shardsDone += finished;
    const started = o.health === 'green' || o.health === 'yellow';
    if (!started || shards.length === 0 || finished < shards.length) done = false;
    if (o.health === 'red' && finished === shards.length) stalled.push(o.target);
  }
  return { kind: 'progress', done, shardsTotal, shardsDone, stalled };
}

function primariesOf(observation: TargetObservation): IndexRecovery['shards'] {
  return (observation.recovery?.shards ?? []).filter((shard) => shard.primary);
}
