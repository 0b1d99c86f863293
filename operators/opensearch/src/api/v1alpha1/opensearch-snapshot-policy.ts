import { defineCustomResource } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConditionSchema, ConnectionRef, GROUP, READY_COLUMN, VERSION } from './common.ts';

/** `spec.repositoryRef` of the snapshot kinds: a cluster-scoped `OpenSearchSnapshotRepository`. */
export const RepositoryRef = Type.Object(
  { name: Type.String({ description: 'The name of the OpenSearchSnapshotRepository (cluster-scoped).', minLength: 1, maxLength: 253 }) },
  { description: "The OpenSearchSnapshotRepository to use; its tenancy.namespaceSelector must admit this resource's namespace." },
);

/** A duration of retention, e.g. `7d`, `12h`, `90m`. */
const DURATION_PATTERN = '^[1-9][0-9]*(m|h|d|w)$';

/** `OpenSearchSnapshotPolicy.spec`. */
export const OpenSearchSnapshotPolicySpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    repositoryRef: RepositoryRef,
    indices: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      description: "Index names or patterns to snapshot; each must lie inside the namespace's index prefix on the connection.",
      minItems: 1,
      maxItems: 100,
    }),
    schedule: Type.String({
      description: 'When to snapshot, as a five-field cron expression (minute hour day-of-month month day-of-week), e.g. "0 2 * * *".',
      minLength: 9,
      maxLength: 100,
      pattern: '^\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\S+$',
    }),
    timeZone: Type.Optional(Type.String({ description: 'The IANA time zone the schedule is read in, e.g. Europe/Berlin. Default UTC.', default: 'UTC', minLength: 1, maxLength: 64 })),
    retention: Type.Optional(
      Type.Object(
        {
          maxCount: Type.Optional(Type.Integer({ description: "Keep at most this many of this policy's successful snapshots; the oldest go first.", minimum: 1, maximum: 10_000 })),
          maxAge: Type.Optional(Type.String({ description: "Delete this policy's snapshots older than this, e.g. 7d, 12h (m, h, d, w).", pattern: DURATION_PATTERN })),
          minCount: Type.Optional(Type.Integer({ description: 'Always keep at least this many successful snapshots, whatever maxAge says.', minimum: 0, maximum: 10_000 })),
        },
        {
          description: "Which of this policy's own snapshots are deleted (never another policy's, never one made by hand).",
          'x-kubernetes-validations': [{ rule: '!has(self.minCount) || !has(self.maxCount) || self.minCount <= self.maxCount', message: 'minCount must not exceed maxCount' }],
        },
      ),
    ),
    includeGlobalState: Type.Optional(
      Type.Boolean({ description: 'Whether the snapshot includes the cluster state; must be false (a namespace may not snapshot the cluster).', default: false }),
    ),
    suspend: Type.Optional(Type.Boolean({ description: 'Take no scheduled snapshots while true (snapshot-now and retention still run).', default: false })),
  },
  { description: 'OpenSearchSnapshotPolicySpec schedules snapshots of a namespace\'s indices and prunes its own old ones.' },
);

/** One snapshot as the policy's status reports it. */
export const SnapshotSummary = Type.Object(
  {
    name: Type.String({ description: 'The snapshot name: <namespace>-<policy>-<UTC yyyymmddhhmmss>.' }),
    state: Type.String({ description: 'IN_PROGRESS, SUCCESS, PARTIAL, FAILED or INCOMPATIBLE.' }),
    startTime: Type.Optional(Type.String({ description: 'When OpenSearch started it.', format: 'date-time' })),
    endTime: Type.Optional(Type.String({ description: 'When it ended.', format: 'date-time' })),
    shardsTotal: Type.Optional(Type.Integer({ description: 'Shards in the snapshot.' })),
    shardsFailed: Type.Optional(Type.Integer({ description: 'Shards that failed.' })),
  },
  { description: 'A snapshot taken by this policy.' },
);

/** `OpenSearchSnapshotPolicy.status`. */
export const OpenSearchSnapshotPolicyStatus = Type.Object(
  {
    observedGeneration: Type.Optional(Type.Integer({ description: 'The metadata.generation the status describes.' })),
    conditions: Type.Optional(
      Type.Array(ConditionSchema, {
        description: 'Ready (the policy is valid and its last snapshot succeeded; LastSnapshotFailed when not) and Synced (the last reconcile succeeded).',
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
      }),
    ),
    lastSnapshot: Type.Optional(SnapshotSummary),
    nextSnapshotTime: Type.Optional(Type.String({ description: 'When the next scheduled snapshot is due (absent while suspended).', format: 'date-time' })),
    snapshotCount: Type.Optional(Type.Integer({ description: "This policy's snapshots in the repository." })),
    lastManualToken: Type.Optional(Type.String({ description: 'The snapshot-now annotation value last acted on.' })),
  },
  { description: 'The observed state of the policy.' },
);

/** The `OpenSearchSnapshotPolicy` kind. */
export const openSearchSnapshotPolicies = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchSnapshotPolicy',
  plural: 'opensearchsnapshotpolicies',
  singular: 'opensearchsnapshotpolicy',
  shortNames: ['ossp'],
  categories: CATEGORIES,
  scope: 'Namespaced',
  description:
    'An OpenSearchSnapshotPolicy takes snapshots of its namespace\'s indices on a schedule, into a repository the namespace may use, and deletes its own old ones. ' +
    'The annotation opensearch.domain-operators.io/snapshot-now: "<token>" takes one at once.',
  spec: OpenSearchSnapshotPolicySpec,
  status: OpenSearchSnapshotPolicyStatus,
  validations: [{ rule: '!has(self.includeGlobalState) || self.includeGlobalState == false', message: 'includeGlobalState must be false: a namespace may not snapshot the cluster state', fieldPath: '.includeGlobalState' }],
  printerColumns: [
    { name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' },
    { name: 'Last', type: 'string', jsonPath: '.status.lastSnapshot.name' },
    { name: 'State', type: 'string', jsonPath: '.status.lastSnapshot.state' },
    { name: 'Next', type: 'date', jsonPath: '.status.nextSnapshotTime' },
    READY_COLUMN,
  ],
});

/** An `OpenSearchSnapshotPolicy` object. */
export type OpenSearchSnapshotPolicy = ResourceOf<typeof openSearchSnapshotPolicies>;
/** Its status. */
export type OpenSearchSnapshotPolicyStatus = Static<typeof OpenSearchSnapshotPolicyStatus>;
/** The annotation whose new value takes one snapshot at once. */
export const SNAPSHOT_NOW_ANNOTATION = `${GROUP}/snapshot-now`;
