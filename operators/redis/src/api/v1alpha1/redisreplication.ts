/**
 * The RedisReplication kind: one primary and `replicas - 1` replicas of Redis, with automatic failover.
 */
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { defineCustomResource } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { ConditionsSchema, GROUP, SecretKeyRefSchema, VERSION } from './common.ts';
import { RestoreSchema } from './restore.ts';
import { BackupScheduleSchema, BackupScheduleStatusSchema } from './backup-schedule.ts';

/**
 * redis.conf parameters the operator sets itself (listening address, data directory, users, replication):
 * `spec.config` may not name them.
 */
export const MANAGED_CONFIG_KEYS = [
  'bind',
  'port',
  'dir',
  'daemonize',
  'logfile',
  'include',
  'user',
  'aclfile',
  'requirepass',
  'masteruser',
  'masterauth',
  'replicaof',
  'slaveof',
  'rename-command',
  'unixsocket',
  'pidfile',
  'supervised',
  'min-replicas-to-write',
  'min-replicas-max-lag',
  'min-slaves-to-write',
  'min-slaves-max-lag',
] as const;

const Quantity = Type.Union([Type.Integer(), Type.String()], { description: 'A Kubernetes quantity, e.g. 100m, 256Mi or 1.' });

const ResourcesSchema = Type.Object(
  {
    requests: Type.Optional(Type.Record(Type.String(), Quantity, { description: 'Minimum compute resources, e.g. cpu: 100m, memory: 256Mi.' })),
    limits: Type.Optional(Type.Record(Type.String(), Quantity, { description: 'Maximum compute resources, e.g. memory: 512Mi.' })),
  },
  { description: 'Compute resources of the redis container.' },
);

const StorageSchema = Type.Object(
  {
    size: Quantity,
    storageClassName: Type.Optional(Type.String({ description: 'StorageClass of the claims; the cluster default when absent.' })),
    accessModes: Type.Optional(
      Type.Array(Type.String({ description: 'An access mode, e.g. ReadWriteOnce.' }), { description: 'Access modes of the claims. Defaults to [ReadWriteOnce].' }),
    ),
  },
  { description: 'A persistent volume claim per member for /data. Without it members use an emptyDir and no persistence. Immutable.' },
);

const TolerationSchema = Type.Object(
  {
    key: Type.Optional(Type.String({ description: 'The taint key the toleration applies to; empty matches all keys.' })),
    operator: Type.Optional(Type.Union([Type.Literal('Exists'), Type.Literal('Equal')], { description: 'Exists or Equal (default Equal).' })),
    value: Type.Optional(Type.String({ description: 'The taint value the toleration matches (operator Equal).' })),
    effect: Type.Optional(
      Type.Union([Type.Literal('NoSchedule'), Type.Literal('PreferNoSchedule'), Type.Literal('NoExecute')], { description: 'The taint effect to match; empty matches all.' }),
    ),
    tolerationSeconds: Type.Optional(Type.Integer({ description: 'For NoExecute: how long the Pod stays bound after the taint appears.' })),
  },
  { description: 'A Pod toleration (core/v1).' },
);

const PodTemplateSchema = Type.Object(
  {
    labels: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Extra labels on every member Pod.' })),
    annotations: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Extra annotations on every member Pod.' })),
    nodeSelector: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Node labels a member Pod requires.' })),
    tolerations: Type.Optional(Type.Array(TolerationSchema, { description: 'Tolerations of the member Pods.' })),
    affinity: Type.Optional(Type.Unknown({ description: 'A core/v1 Affinity for the member Pods, passed through as written.' })),
  },
  { description: 'Overrides merged into the member Pods.' },
);

/** The desired state of a RedisReplication. */
export const RedisReplicationSpec = Type.Object(
  {
    replicas: Type.Integer({ description: 'Total members: one primary and replicas-1 replicas.', minimum: 1, maximum: 100, default: 3 }),
    image: Type.String({ description: 'The Redis container image (Redis 7).', minLength: 1, default: 'redis:7.2' }),
    resources: Type.Optional(ResourcesSchema),
    storage: Type.Optional(StorageSchema),
    config: Type.Optional(
      Type.Record(Type.String(), Type.String({ description: 'The parameter value as written in redis.conf, e.g. "3600 1 300 100" for save.', maxLength: 4096 }), {
        maxProperties: 256,
        description:
          'redis.conf parameters. Dynamic ones are applied live with CONFIG SET on every member; static ones (e.g. databases) ' +
          'through the config file and a rolling restart. Parameters the operator manages (port, bind, dir, user, masterauth, …) are refused.',
        'x-kubernetes-validations': [
          {
            // Key membership is O(1) for the CEL cost estimator; iterating the keys is not (keys have no length bound).
            rule: MANAGED_CONFIG_KEYS.map((k) => `!('${k}' in self)`).join(' && '),
            message: `the operator manages ${MANAGED_CONFIG_KEYS.join(', ')}: remove them from config`,
          },
        ],
      }),
    ),
    auth: Type.Optional(
      Type.Object(
        {
          secretRef: Type.Optional(SecretKeyRefSchema),
        },
        { description: 'Password of the default user. Without secretRef a password is generated into the Secret <name>-auth.' },
      ),
    ),
    failover: Type.Optional(
      Type.Object(
        {
          enabled: Type.Boolean({ description: 'Promote a replica when the primary fails. When false the operator only reports it.', default: true }),
          downAfterMilliseconds: Type.Integer({ description: 'How long the primary must not answer before a replica is promoted.', minimum: 500, default: 5000 }),
          minReplicasToWrite: Type.Optional(
            Type.Integer({
              description:
                'Write fencing: a primary refuses writes (NOREPLICAS) while fewer than this many replicas are linked with an ' +
                'acknowledgement within minReplicasMaxLagSeconds (Redis min-replicas-to-write, set on every member, since any may ' +
                'become primary). 0 (the default) turns fencing off. At most replicas - 1.',
              minimum: 0,
              maximum: 99,
              default: 0,
            }),
          ),
          minReplicasMaxLagSeconds: Type.Optional(
            Type.Integer({
              description:
                'With minReplicasToWrite: how recent (seconds) a replica\'s last acknowledgement must be for it to count (Redis ' +
                'min-replicas-max-lag; default 10, as in Redis). A primary cut off from its replicas keeps taking writes for up to ' +
                'this long (plus about 1 s) after it last heard from them, and those writes are lost when it is demoted; below ' +
                'downAfterMilliseconds / 1000 it stops before a replica is promoted.',
              minimum: 1,
              maximum: 3600,
              default: 10,
            }),
          ),
        },
        { description: 'Automatic failover and write fencing.', default: { enabled: true, downAfterMilliseconds: 5000, minReplicasToWrite: 0, minReplicasMaxLagSeconds: 10 } },
      ),
    ),
    podTemplate: Type.Optional(PodTemplateSchema),
    restore: Type.Optional(RestoreSchema),
    backup: Type.Optional(BackupScheduleSchema),
  },
  {
    description: 'RedisReplicationSpec is the desired state of a RedisReplication.',
  },
);

const MemberSchema = Type.Object(
  {
    pod: Type.String({ description: 'The Pod name.' }),
    role: Type.Union([Type.Literal('primary'), Type.Literal('replica'), Type.Literal('unknown')], { description: 'The role the member reports; unknown while it does not answer.' }),
    linkUp: Type.Boolean({ description: 'Replica: its link to the primary is up. Primary: it answers.' }),
    lagBytes: Type.Optional(Type.Integer({ description: 'Replica: how many bytes it is behind the primary.', minimum: 0 })),
  },
  { description: 'One member of the replication.' },
);

/** The observed state of a RedisReplication. */
export const RedisReplicationStatus = Type.Object(
  {
    conditions: Type.Optional(ConditionsSchema),
    observedGeneration: Type.Optional(Type.Integer({ description: 'The generation the status describes.' })),
    primary: Type.Optional(Type.String({ description: 'The Pod that is the primary.' })),
    members: Type.Optional(Type.Array(MemberSchema, { description: 'Every member, in ordinal order.' })),
    readyReplicas: Type.Optional(Type.Integer({ description: 'Members serving correctly: the primary when it answers plus replicas linked to it.' })),
    lastFailoverTime: Type.Optional(Type.String({ description: 'When a replica was last promoted (RFC 3339).', format: 'date-time' })),
    restoredFrom: Type.Optional(Type.String({ description: 'Set once spec.restore is done: the RDB the first member started from (s3://<bucket>/<key> or pvc://<claim>/<path>).' })),
    restoredKeys: Type.Optional(Type.Integer({ description: 'The key count the primary reported when the restore was done.', minimum: 0 })),
    backup: Type.Optional(BackupScheduleStatusSchema),
  },
  { description: 'RedisReplicationStatus is the observed state of a RedisReplication.' },
);

/** The RedisReplication kind: `redisreplications.redis.domain-operators.io`. */
export const redisReplications = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'RedisReplication',
  plural: 'redisreplications',
  singular: 'redisreplication',
  shortNames: ['rr'],
  categories: ['redis'],
  scope: 'Namespaced',
  description: 'A RedisReplication is a replicated Redis: one primary and its replicas, with failover, managed by the redis operator.',
  spec: RedisReplicationSpec,
  status: RedisReplicationStatus,
  printerColumns: [
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Ready', type: 'integer', jsonPath: '.status.readyReplicas' },
    { name: 'Primary', type: 'string', jsonPath: '.status.primary' },
  ],
  validations: [
    {
      rule: '!has(self.failover) || !has(self.failover.minReplicasToWrite) || self.failover.minReplicasToWrite <= self.replicas - 1',
      message: 'failover.minReplicasToWrite must be at most replicas - 1: a primary waiting for more replicas than exist refuses every write',
      fieldPath: '.failover.minReplicasToWrite',
    },
    { rule: '!has(oldSelf.storage) == !has(self.storage) && (!has(self.storage) || self.storage == oldSelf.storage)', message: 'storage is immutable', fieldPath: '.storage' },
    {
      rule: 'has(self.restore) == has(oldSelf.restore) && (!has(self.restore) || self.restore == oldSelf.restore)',
      message: 'restore is accepted only when the RedisReplication is created: it cannot be added, changed or removed later (create a new RedisReplication to restore)',
      fieldPath: '.restore',
    },
  ],
});

/** A RedisReplication object. */
export type RedisReplication = ResourceOf<typeof redisReplications>;
/** A RedisReplication's spec. */
export type RedisReplicationSpec = Static<typeof RedisReplicationSpec>;
/** A RedisReplication's status. */
export type RedisReplicationStatus = Static<typeof RedisReplicationStatus>;
/** One member in `status.members`. */
export type RedisMemberStatus = Static<typeof MemberSchema>;
/** A member's role as Redis reports it; `unknown` while the member cannot be asked. */
export type MemberRole = RedisMemberStatus['role'];
