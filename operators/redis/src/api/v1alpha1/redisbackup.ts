/**
 * The RedisBackup kind: one snapshot of a RedisReplication, taken over the network from one member and streamed to
 * object storage or into a PersistentVolumeClaim under a key of its own. One-shot: the spec cannot change.
 */
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { conditionColumn, defineCustomResource, deletionPolicy, READY_CONDITION } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { ConditionsSchema, GROUP, VERSION } from './common.ts';

/** An S3-compatible destination. */
export const S3DestinationSchema = Type.Object(
  {
    endpoint: Type.Optional(
      Type.String({ description: 'The S3 endpoint URL, e.g. https://s3.eu-west-1.amazonaws.com or http://minio.storage:9000. Absent: AWS for the region.', pattern: '^https?://', maxLength: 2048 }),
    ),
    bucket: Type.String({ description: 'The bucket; it must exist.', minLength: 3, maxLength: 63 }),
    prefix: Type.Optional(Type.String({ description: 'Key prefix; the key is <prefix>/<namespace>/<replication>/<UTC yyyymmddhhmmss>-<uid>.rdb.', maxLength: 512 })),
    region: Type.Optional(Type.String({ description: 'The region requests are signed for. Default us-east-1.', default: 'us-east-1', minLength: 1, maxLength: 64 })),
    forcePathStyle: Type.Optional(Type.Boolean({ description: 'Path-style URLs (<endpoint>/<bucket>/<key>), as most S3-compatible servers need. Default false.', default: false })),
    credentialsSecretRef: Type.Object(
      {
        name: Type.String({ description: 'A Secret in this namespace.', minLength: 1, maxLength: 253 }),
        accessKeyIdKey: Type.Optional(Type.String({ description: 'Its key holding the access key id. Default accessKeyId.', default: 'accessKeyId', minLength: 1 })),
        secretAccessKeyKey: Type.Optional(Type.String({ description: 'Its key holding the secret access key. Default secretAccessKey.', default: 'secretAccessKey', minLength: 1 })),
      },
      { description: 'The Secret with the S3 credentials (never copied into status, Events or logs).' },
    ),
    caSecretRef: Type.Optional(
      Type.Object(
        {
          name: Type.String({ description: 'A Secret in this namespace.', minLength: 1, maxLength: 253 }),
          key: Type.Optional(Type.String({ description: 'Its key holding the PEM certificates. Default ca.crt.', default: 'ca.crt', minLength: 1 })),
        },
        { description: "PEM CA certificates an https endpoint's certificate must chain to, instead of the bundled public CAs." },
      ),
    ),
  },
  { description: 'An S3-compatible bucket the backup is streamed into (multipart; the object appears only once complete).' },
);

/**
 * A PersistentVolumeClaim destination: the RDB is written into the claim by a short-lived agent Pod (the operator's
 * own image) that mounts it, as `<path>/<namespace>/<replication>/<UTC yyyymmddhhmmss>-<uid>.rdb`, published only
 * once complete and never over an existing file.
 */
export const VolumeDestinationSchema = Type.Object(
  {
    claimName: Type.String({ description: 'A PersistentVolumeClaim in this namespace; the agent Pod mounts it read-write.', minLength: 1, maxLength: 253 }),
    path: Type.Optional(
      Type.String({
        description: 'The directory inside the claim backups go under (created when absent). Default /.',
        default: '/',
        maxLength: 512,
        // Segments start with a letter, digit or underscore: no `.` or `..`, nothing outside the claim.
        pattern: '^/?([A-Za-z0-9_][A-Za-z0-9._-]*/?)*$',
      }),
    ),
  },
  { description: 'A PersistentVolumeClaim the backup is written into.' },
);

/**
 * Where a backup goes: exactly one of `s3` and `volume`. Shared by RedisBackup and the backup schedule of a
 * RedisReplication (keep the name: both embed this one schema).
 */
export const BackupDestinationSchema = Type.Object(
  { s3: Type.Optional(S3DestinationSchema), volume: Type.Optional(VolumeDestinationSchema) },
  {
    description: 'Where the backup goes: exactly one of s3 and volume.',
    'x-kubernetes-validations': [{ rule: 'has(self.s3) != has(self.volume)', message: 'exactly one of destination.s3 and destination.volume must be set' }],
  },
);

/** The desired state of a RedisBackup. */
export const RedisBackupSpec = Type.Object(
  {
    replicationRef: Type.Object(
      { name: Type.String({ description: 'Name of the RedisReplication in the same namespace.', minLength: 1, maxLength: 253 }) },
      { description: 'The RedisReplication to back up.' },
    ),
    source: Type.Optional(
      Type.Union([Type.Literal('PreferReplica'), Type.Literal('Primary')], {
        description: 'The member the snapshot is taken from: PreferReplica (default) takes the linked replica with the highest offset, the primary only when none is linked.',
        default: 'PreferReplica',
      }),
    ),
    destination: BackupDestinationSchema,
    deletionPolicy: deletionPolicy('Retain'),
  },
  {
    description: 'RedisBackupSpec is one backup of a RedisReplication. One-shot: create a new RedisBackup for another backup.',
    'x-kubernetes-validations': [
      { rule: 'self == oldSelf', message: 'a RedisBackup is one-shot: its spec is immutable (create a new one)' },
      {
        rule: "!has(self.destination.volume) || !has(self.deletionPolicy) || self.deletionPolicy != 'Delete'",
        message: 'deletionPolicy Delete is not supported for a volume destination: the file stays in the claim (delete it from a Pod that mounts the claim)',
      },
    ],
  },
);

/** The phases of a backup. */
export const BACKUP_PHASES = ['Pending', 'Running', 'Succeeded', 'Failed'] as const;

/** The observed state of a RedisBackup. */
export const RedisBackupStatus = Type.Object(
  {
    conditions: Type.Optional(ConditionsSchema),
    observedGeneration: Type.Optional(Type.Integer({ description: 'The generation the status describes.' })),
    phase: Type.Optional(Type.Union(BACKUP_PHASES.map((p) => Type.Literal(p)), { description: 'Pending, Running, Succeeded or Failed.' })),
    member: Type.Optional(Type.String({ description: 'The member Pod the snapshot was taken from.' })),
    replicationOffset: Type.Optional(Type.Integer({ description: 'The replication offset the snapshot is consistent with.' })),
    sizeBytes: Type.Optional(Type.Integer({ description: 'Size of the RDB.' })),
    sha256: Type.Optional(Type.String({ description: 'SHA-256 of the RDB (lower-case hex); a restore checks it.' })),
    location: Type.Optional(Type.String({ description: 'Where the backup is: s3://<bucket>/<key> or pvc://<claimName>/<key>. Chosen when it starts, never reused.' })),
    startTime: Type.Optional(Type.String({ description: 'When the snapshot was started.', format: 'date-time' })),
    completionTime: Type.Optional(Type.String({ description: 'When it succeeded or failed.', format: 'date-time' })),
  },
  { description: 'RedisBackupStatus is the observed state of a RedisBackup.' },
);

/** The RedisBackup kind: `redisbackups.redis.domain-operators.io`. */
export const redisBackups = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'RedisBackup',
  plural: 'redisbackups',
  singular: 'redisbackup',
  shortNames: ['rb'],
  categories: ['redis'],
  scope: 'Namespaced',
  description: 'A RedisBackup is one snapshot of a RedisReplication, streamed from one member to object storage or a volume claim under its own key.',
  spec: RedisBackupSpec,
  status: RedisBackupStatus,
  printerColumns: [
    { name: 'Replication', type: 'string', jsonPath: '.spec.replicationRef.name' },
    { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
    { name: 'Size', type: 'integer', jsonPath: '.status.sizeBytes' },
    conditionColumn(READY_CONDITION),
  ],
});

/** A RedisBackup object. */
export type RedisBackup = ResourceOf<typeof redisBackups>;
/** A RedisBackup's spec. */
export type RedisBackupSpec = Static<typeof RedisBackupSpec>;
/** A backup's destination (exactly one of `s3` and `volume`). */
export type BackupDestination = Static<typeof BackupDestinationSchema>;
/** A volume destination. */
export type VolumeDestination = Static<typeof VolumeDestinationSchema>;
/** A RedisBackup's status. */
export type RedisBackupStatus = Static<typeof RedisBackupStatus>;
