/**
 * The backup store the RedisBackup reconciler writes through: an interface (so its unit tests use a fake) and
 * {@link s3Storage}, the real one over the AWS SDK (a client per call, destroyed after it).
 */
import type { PayloadSource } from './payload.ts';
import { abortIncompleteUploads, deleteBackupObject, objectDigest, s3ClientFor, uploadBackup } from './s3-upload.ts';
import type { S3Target } from './s3-upload.ts';

/** Size and SHA-256 of a stored backup. */
export interface StoredDigest {
  readonly sizeBytes: number;
  readonly sha256: string;
}

/** What a backup needs from its destination. Every method rejects with a classified `S3CallError`. */
export interface BackupStorage {
  /** Streams what `body` writes to `key`; rejects with `BackupExists` (writing nothing) when the key is taken. */
  upload(target: S3Target, key: string, body: PayloadSource, signal?: AbortSignal): Promise<void>;
  /** The stored object's digest, read as a stream; `undefined` when absent. */
  digest(target: S3Target, key: string, signal?: AbortSignal): Promise<StoredDigest | undefined>;
  /** Aborts the incomplete multipart uploads under `prefix`; resolves with their keys. */
  abortIncomplete(target: S3Target, prefix: string, signal?: AbortSignal): Promise<string[]>;
  /** Deletes the object under `key`; absent is fine. */
  delete(target: S3Target, key: string, signal?: AbortSignal): Promise<void>;
}

async function withClient<R>(target: S3Target, use: (client: ReturnType<typeof s3ClientFor>) => Promise<R>): Promise<R> {
  const client = s3ClientFor(target);
  try {
    return await use(client);
  } finally {
    client.destroy();
  }
}

/** The S3 {@link BackupStorage}. */
export function s3Storage(): BackupStorage {
  return {
    upload: (target, key, body, signal) => withClient(target, (client) => uploadBackup(client, target, key, body, signal)),
    digest: (target, key, signal) => withClient(target, (client) => objectDigest(client, target, key, signal)),
    abortIncomplete: (target, prefix) => withClient(target, (client) => abortIncompleteUploads(client, target, prefix)),
    delete: (target, key, signal) => withClient(target, (client) => deleteBackupObject(client, target, key, signal)),
  };
}
