/**
 * The snapshot module's view of OpenSearch: repositories, snapshots and restores as the snapshot API reports them,
 * parsed from its JSON answers (`parseSnapshot`, `parseRecovery`). Pure data and pure functions.
 */
import type { JsonObject } from './json.ts';
import { isRecord, stringArrayField, stringField } from './json.ts';

/** A registered snapshot repository: its type and its settings, as `GET _snapshot/<name>` returns them (strings). */
export interface ObservedRepository {
  readonly type: string;
  readonly settings: Readonly<Record<string, string>>;
}

/** What `PUT _snapshot/<name>` registers. */
export interface RepositoryBody {
  readonly type: string;
  readonly settings: JsonObject;
}

/** A snapshot's state: `IN_PROGRESS`, `SUCCESS`, `PARTIAL`, `FAILED` or `INCOMPATIBLE`. */
export type SnapshotState = 'IN_PROGRESS' | 'SUCCESS' | 'PARTIAL' | 'FAILED' | 'INCOMPATIBLE';

/** One snapshot as `GET _snapshot/<repo>/<name>` lists it. Times are ISO 8601 (UTC); absent until known. */
export interface ObservedSnapshot {
  readonly name: string;
  readonly uuid: string;
  readonly state: SnapshotState;
  readonly indices: readonly string[];
  readonly startTime?: string;
  readonly endTime?: string;
  readonly shardsTotal: number;
  readonly shardsFailed: number;
  readonly shardsSuccessful: number;
  /** OpenSearch's reason for a failed or partial snapshot (its `reason`, else the first shard failure). */
  readonly reason?: string;
}

/** What `PUT _snapshot/<repo>/<name>` takes (the operator never waits for completion). */
export interface CreateSnapshotBody {
  readonly indices: readonly string[];
  readonly include_global_state: boolean;
  /** Whether missing indices are skipped rather than failing the snapshot. */
  readonly ignore_unavailable: boolean;
  /** Whether a snapshot with unavailable primaries is taken partially (false: it fails). */
  readonly partial: boolean;
}

/** What `POST _snapshot/<repo>/<name>/_restore` takes. */
export interface RestoreBody {
  readonly indices: readonly string[];
  readonly include_global_state: false;
  readonly include_aliases: boolean;
  readonly rename_pattern?: string;
  readonly rename_replacement?: string;
  readonly index_settings?: JsonObject;
}

/** Recovery of one restored index: shards done out of all, from `GET <index>/_recovery`. */
export interface IndexRecovery {
  readonly index: string;
  readonly shardsTotal: number;
  /** Shards whose recovery stage is `DONE`. */
  readonly shardsDone: number;
}

const STATES: readonly SnapshotState[] = ['IN_PROGRESS', 'SUCCESS', 'PARTIAL', 'FAILED', 'INCOMPATIBLE'];

/** Parses one entry of a snapshot listing; `undefined` when it has no name. Pure. */
export function parseSnapshot(value: unknown): ObservedSnapshot | undefined {
  const name = stringField(value, 'snapshot');
  if (name === undefined || !isRecord(value)) return undefined;
  const stateText = stringField(value, 'state') ?? 'IN_PROGRESS';
  const state = STATES.find((s) => s === stateText) ?? 'FAILED';
  const shards = isRecord(value['shards']) ? value['shards'] : {};
  const count = (key: string): number => (typeof shards[key] === 'number' ? shards[key] : 0);
  const failures = Array.isArray(value['failures']) ? value['failures'] : [];
  const reason = stringField(value, 'reason') ?? stringField(failures[0], 'reason');
  const startTime = stringField(value, 'start_time');
  const endTime = stringField(value, 'end_time');
  return {
    name,
    uuid: stringField(value, 'uuid') ?? '',
    state,
    indices: stringArrayField(value, 'indices'),
    ...(startTime === undefined ? {} : { startTime }),
    ...(endTime === undefined || state === 'IN_PROGRESS' ? {} : { endTime }),
    shardsTotal: count('total'),
    shardsFailed: count('failed'),
    shardsSuccessful: count('successful'),
    ...(reason === undefined || reason === '' ? {} : { reason }),
  };
}

/** Parses `GET <indices>/_recovery` into per-index shard counts (indices absent from the answer are left out). Pure. */
export function parseRecovery(body: unknown): IndexRecovery[] {
  if (!isRecord(body)) return [];
  return Object.entries(body).map(([index, entry]) => {
    const shards = isRecord(entry) && Array.isArray(entry['shards']) ? entry['shards'] : [];
    return { index, shardsTotal: shards.length, shardsDone: shards.filter((shard) => stringField(shard, 'stage') === 'DONE').length };
  });
}

/** The settings of a repository answer as strings (OpenSearch returns them so; other values are dropped). Pure. */
export function parseRepository(value: unknown): ObservedRepository | undefined {
  const type = stringField(value, 'type');
  if (type === undefined || !isRecord(value)) return undefined;
  const settings: Record<string, string> = {};
  if (isRecord(value['settings'])) for (const [key, setting] of Object.entries(value['settings'])) if (typeof setting === 'string') settings[key] = setting;
  return { type, settings };
}
