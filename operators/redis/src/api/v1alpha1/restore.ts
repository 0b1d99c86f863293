/**
 * `RedisReplication.spec.restore`: where a new RedisReplication's first member takes its data from. Accepted only
 * when the RedisReplication is created (see the transition rule on the spec in `redisreplication.ts`).
 */
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { S3DestinationSchema } from './redisbackup.ts';

const Sha256 = Type.String({ description: 'The SHA-256 of the RDB (64 lower-case hex digits); the member does not start unless the data has it.', pattern: '^[0-9a-f]{64}$' });

const s3 = S3DestinationSchema.properties;

/** An RDB object in an S3-compatible bucket, with the digest it must have. */
export const RestoreS3Schema = Type.Object(
  {
    endpoint: s3.endpoint,
    bucket: s3.bucket,
    region: s3.region,
    forcePathStyle: s3.forcePathStyle,
    credentialsSecretRef: s3.credentialsSecretRef,
    key: Type.String({ description: 'The object key, e.g. redis/prod/cache/20261201120000-1a2b3c4d.rdb.', minLength: 1, maxLength: 1024 }),
    sha256: Sha256,
  },
  { description: 'An RDB object in an S3-compatible bucket.' },
);

/** An RDB file in a PersistentVolumeClaim of the namespace, with the digest it must have. */
export const RestoreVolumeSchema = Type.Object(
  {
    claimName: Type.String({ description: 'A PersistentVolumeClaim in this namespace; mounted read-only by the first member while it restores.', minLength: 1, maxLength: 253 }),
    path: Type.String({
      description: 'The RDB file inside the claim, relative to its root, e.g. backups/cache.rdb.',
      minLength: 1,
      maxLength: 1024,
      pattern: '^[^/]',
      'x-kubernetes-validations': [{ rule: "!self.split('/').exists(p, p == '..')", message: 'path may not contain ..' }],
    }),
    sha256: Sha256,
  },
  { description: 'An RDB file in a volume claim.' },
);

/** `spec.restore`: exactly one of a RedisBackup, an S3 object or a file in a claim. */
export const RestoreSchema = Type.Object(
  {
    backupRef: Type.Optional(
      Type.Object(
        { name: Type.String({ description: 'A RedisBackup in this namespace; it must have Succeeded (its location and sha256 are used).', minLength: 1, maxLength: 253 }) },
        { description: 'Restore a RedisBackup of this namespace.' },
      ),
    ),
    s3: Type.Optional(RestoreS3Schema),
    volume: Type.Optional(RestoreVolumeSchema),
  },
  {
    description:
      'Start every member from an RDB whose SHA-256 is checked first (a mismatch is RestoreVerificationFailed and the member does not start); ' +
      'ordinal 0 is the first primary and the others join it as replicas. Only when the RedisReplication is created: it cannot be added, changed or removed later.',
    'x-kubernetes-validations': [
      {
        rule: '(has(self.backupRef) ? 1 : 0) + (has(self.s3) ? 1 : 0) + (has(self.volume) ? 1 : 0) == 1',
        message: 'restore takes exactly one of backupRef, s3 and volume',
      },
    ],
  },
);

/** A RedisReplication's `spec.restore`. */
export type RestoreSpec = Static<typeof RestoreSchema>;
