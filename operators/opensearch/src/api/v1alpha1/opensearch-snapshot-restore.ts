import { defineCustomResource } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConditionSchema, ConnectionRef, GROUP, jsonObject, READY_COLUMN, VERSION } from './common.ts';
import { RepositoryRef } from './opensearch-snapshot-policy.ts';

/** `OpenSearchSnapshotRestore.spec`: one restore, immutable once created. */
export const OpenSearchSnapshotRestoreSpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    repositoryRef: RepositoryRef,
    snapshot: Type.Optional(Type.String({ description: 'The snapshot to restore, by name. Exactly one of snapshot and latestOf.', minLength: 1, maxLength: 255 })),
    latestOf: Type.Optional(
      Type.Object(
        { policyRef: Type.Object({ name: Type.String({ description: 'An OpenSearchSnapshotPolicy of this namespace.', minLength: 1, maxLength: 253 }) }, { description: 'The policy.' }) },
        { description: "Restore the newest successful snapshot of this namespace's policy, chosen once when the restore starts." },
      ),
    ),
    indices: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      description: "Indices or patterns to restore from the snapshot; each must lie inside the namespace's index prefix.",
      minItems: 1,
      maxItems: 100,
    }),
    renamePattern: Type.Optional(Type.String({ description: 'A regular expression on the index names; with renameReplacement, restored indices get new names.', minLength: 1, maxLength: 255 })),
    renameReplacement: Type.Optional(
      Type.String({ description: 'The replacement ($1, $2, … for groups); every resulting name must lie inside the prefix, checked before any call.', minLength: 1, maxLength: 255 }),
    ),
    indexSettings: Type.Optional(jsonObject('Index settings to override on the restored indices, e.g. {"index.number_of_replicas": 0}.')),
    includeAliases: Type.Optional(
      Type.Boolean({
        description: "Must be false (the default): a snapshot's aliases cannot be read before restoring it, so they could not be checked against the prefix. Add aliases afterwards.",
        default: false,
      }),
    ),
  },
  {
    description: 'OpenSearchSnapshotRestoreSpec restores indices of one snapshot once. Restoring onto an existing index is refused (IndexExists) and changes nothing.',
    'x-kubernetes-validations': [
      { rule: 'self == oldSelf', message: 'an OpenSearchSnapshotRestore is one-shot: its spec is immutable (create a new one)' },
      { rule: 'has(self.snapshot) != has(self.latestOf)', message: 'exactly one of snapshot and latestOf must be set' },
      { rule: 'has(self.renamePattern) == has(self.renameReplacement)', message: 'renamePattern and renameReplacement go together' },
      { rule: '!has(self.includeAliases) || self.includeAliases == false', message: "includeAliases must be false: a snapshot's aliases cannot be checked against the prefix before the restore" },
    ],
  },
);

/** The phases of a restore. */
export const RESTORE_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed'] as const;

/** `OpenSearchSnapshotRestore.status`. */
export const OpenSearchSnapshotRestoreStatus = Type.Object(
  {
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation the status describes.' })),
    conditions: Type.Optional(
      Type.Array(ConditionSchema, {
        description: 'Ready (True once Succeeded) and Synced (the last reconcile succeeded), with reasons.',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    ),
    phase: Type.Optional(Type.Union(RESTORE_PHASES.map((p) => Type.Literal(p)), { description: 'Pending, Running, Succeeded or Failed.' })),
    snapshot: Type.Optional(Type.String({ description: 'The snapshot restored (resolved from latestOf when given).' })),
    restoredIndices: Type.Optional(Type.Array(Type.String(), { description: 'The indices the restore creates, by their new names.' })),
    shardsTotal: Type.Optional(Type.Integer({ description: 'Shards of the restored indices that the recovery API lists (primaries, and replicas once assigned).' })),
    shardsDone: Type.Optional(Type.Integer({ description: 'Of those, the shards whose recovery is DONE.' })),
    startTime: Type.Optional(Type.String({ description: 'When the restore was started.', format: 'date-time' })),
    completionTime: Type.Optional(Type.String({ description: 'When it succeeded or failed.', format: 'date-time' })),
  },
  { description: 'The observed state of the restore.' },
);

/** The `OpenSearchSnapshotRestore` kind. */
export const openSearchSnapshotRestores = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchSnapshotRestore',
  plural: 'opensearchsnapshotrestores',
  singular: 'opensearchsnapshotrestore',
  shortNames: ['osrestore'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description: "An OpenSearchSnapshotRestore restores indices of one snapshot into new indices inside its namespace's prefix, once.",
  spec: OpenSearchSnapshotRestoreSpec,
  status: OpenSearchSnapshotRestoreStatus,
  printerColumns: [
    { name: 'Snapshot', type: 'string', jsonPath: '.status.snapshot' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    READY_COLUMN,
  ],
});

/** An `OpenSearchSnapshotRestore` object. */
export type OpenSearchSnapshotRestore = ResourceOf<typeof openSearchSnapshotRestores>;
/** Its status. */
export type OpenSearchSnapshotRestoreStatus = Static<typeof OpenSearchSnapshotRestoreStatus>;
