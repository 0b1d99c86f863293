/**
 * The snapshot module's view of OpenSearch: repositories, snapshots and restores as the snapshot API reports them,
 * parsed from its JSON answers (`parseSnapshot`, `parseRecovery`). Pure data and pure functions.
 */
import type { JsonObject } from './json.ts';
import { isRecord, stringArrayField, stringField } from './json.ts';
import { flattenSettings } from './repository-plan.ts';

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
  /** The `metadata` given when it was created (string values only); absent when it had none. */
  readonly metadata?: Readonly<Record<string, string>>;
}

/** What `PUT _snapshot/<repo>/<name>` takes (the operator never waits for completion). */
export interface CreateSnapshotBody {
  readonly indices: readonly string[];
  readonly include_global_state: boolean;
  /** Whether missing indices are skipped rather than failing the snapshot. */
  readonly ignore_unavailable: boolean;
  /** Whether a snapshot with unavailable primaries is taken partially (false: it fails). */
  readonly partial: boolean;
  /** Kept with the snapshot and listed back with it (`metadata`; OpenSearch allows at most 1 KiB). */
  readonly metadata?: Readonly<Record<string, string>>;
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

/** Where a shard recovered from when it came from a snapshot: the recovery API's `source` of a `SNAPSHOT` recovery. */
export interface SnapshotSource {
  readonly repository: string;
  readonly snapshot: string;
  /** The index's name in the snapshot (before any rename). */
  readonly index: string;
}

/** One shard's recovery: `type` is `SNAPSHOT` for a restore, `PEER` for a replica, `EXISTING_STORE`, `EMPTY_STORE`, … */
export interface ShardRecovery {
  readonly id: number;
  readonly primary: boolean;
  readonly type: string;
  /** `INIT`, `INDEX`, `VERIFY_INDEX`, `TRANSLOG`, `FINALIZE` or `DONE`. */
  readonly stage: string;
  /** Present for `SNAPSHOT` recoveries. */
  readonly snapshot?: SnapshotSource;
}

/** Recovery of one restored index: shards done out of all, from `GET <index>/_recovery`, and each shard's recovery. */
export interface IndexRecovery {
  readonly index: string;
  readonly shardsTotal: number;
  /** Shards whose recovery stage is `DONE`. */
  readonly shardsDone: number;
  readonly shards: readonly ShardRecovery[];
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
  const metadata: Record<string, string> = {};
  if (isRecord(value['metadata'])) for (const [key, entry] of Object.entries(value['metadata'])) if (typeof entry === 'string') metadata[key] = entry;
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
    ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
  };
}

/** Parses `GET <indices>/_recovery` into per-index shard counts (indices absent from the answer are left out). Pure. */
export function parseRecovery(body: unknown): IndexRecovery[] {
  if (!isRecord(body)) return [];
  return Object.entries(body).map(([index, entry]) => {
    const shards = (isRecord(entry) && Array.isArray(entry['shards']) ? entry['shards'] : []).map(parseShardRecovery);
    return { index, shardsTotal: shards.length, shardsDone: shards.filter((shard) => shard.stage === 'DONE').length, shards };
  });
}

/** One entry of a recovery answer's `shards`; missing fields read as empty. Pure. */
function parseShardRecovery(value: unknown): ShardRecovery {
  const record = isRecord(value) ? value : {};
  const type = stringField(record, 'type') ?? '';
  const source = record['source'];
  const repository = stringField(source, 'repository');
  const snapshot = stringField(source, 'snapshot');
  const index = stringField(source, 'index');
  return {
    id: typeof record['id'] === 'number' ? record['id'] : -1,
    primary: record['primary'] === true,
    type,
    stage: stringField(record, 'stage') ?? '',
    ...(type === 'SNAPSHOT' && repository !== undefined && snapshot !== undefined && index !== undefined ? { snapshot: { repository, snapshot, index } } : {}),
  };
}

/**
 * A repository answer with its settings flat and as strings, as the desired ones are compared (`flattenSettings`):
 * OpenSearch renders `a.b` nested as `{a: {b: …}}` unless asked for flat settings, and a list as an array. Pure.
 */
export function parseRepository(value: unknown): ObservedRepository | undefined {
  const type = stringField(value, 'type');
  if (type === undefined || !isRecord(value)) return undefined;
  const settings = isRecord(value['settings']) ? flattenSettings(value['settings'] as JsonObject) : {};
  return { type, settings };
}
