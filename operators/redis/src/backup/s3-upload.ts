/**
 * Streams one backup into S3-compatible object storage with the AWS SDK v3 (`@aws-sdk/client-s3`): multipart in
 * parts of 8 MiB with at most two in flight, over a pool of three part buffers allocated per upload
 * (`uploadParts`), so memory stays bounded whatever the dataset's size, and the object appears under its key only
 * when the upload completes (a crash leaves at most an incomplete multipart upload, which
 * {@link abortIncompleteUploads} removes, never a half object). An existing object under the key is never
 * overwritten.
 */
import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
import { AbortMultipartUploadCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { uploadParts } from './part-upload.ts';
import type { PayloadSource } from './payload.ts';
import { BACKUP_REASONS } from './reasons.ts';
import { classifyS3Error, S3CallError } from './s3-errors.ts';

/** An S3 destination with its credentials (read from the user's Secret; secrets, never logged). */
export interface S3Target {
  /** e.g. `https://s3.eu-west-1.amazonaws.com` or `http://10.244.0.1:19900`; absent: AWS's endpoint for `region`. */
  readonly endpoint?: string;
  readonly bucket: string;
  readonly region: string;
  /** Path-style URLs (`<endpoint>/<bucket>/<key>`), which most S3-compatible servers need. */
  readonly forcePathStyle: boolean;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /** PEM certificates the endpoint's TLS certificate must chain to, instead of Node's bundled CAs; absent: those. */
  readonly ca?: string;
}

/** Bytes per part: S3's minimum is 5 MiB; 8 MiB × (2 in flight + 1 being filled) bounds the upload's buffers to 24 MiB. */
export const PART_SIZE_BYTES = 8 * 1024 * 1024;
/** Parts uploaded at once. */
export const PARTS_IN_FLIGHT = 2;

/**
 * A client for `target` (one attempt per call: the backup's retry is the reconcile's). With `target.ca`, HTTPS
 * connections trust exactly those certificates (an https Agent with `ca`, handed to the SDK's Node HTTP handler).
 * Destroy it when done.
 */
export function s3ClientFor(target: S3Target): S3Client {
  return new S3Client({
    region: target.region,
    forcePathStyle: target.forcePathStyle,
    credentials: { ...target.credentials },
    maxAttempts: 1,
    ...(target.endpoint === undefined ? {} : { endpoint: target.endpoint }),
    ...(target.ca === undefined ? {} : { requestHandler: { httpsAgent: new Agent({ ca: target.ca, keepAlive: true }) } }),
  });
}

function where(target: S3Target): { endpoint: string; bucket: string } {
  return { endpoint: target.endpoint ?? `s3.${target.region}.amazonaws.com`, bucket: target.bucket };
}

/** Whether an object exists under `key` (HEAD). Throws a classified {@link S3CallError} on any other failure. */
export async function objectExists(client: S3Client, target: S3Target, key: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }), signal === undefined ? {} : { abortSignal: signal });
    return true;
  } catch (err) {
    const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (status === 404 && (err as { name?: string }).name !== 'NoSuchBucket') return false;
    throw classifyS3Error(err, `read ${key}`, where(target));
  }
}

/**
 * Uploads what `body` writes to `key`. Rejects with `BackupExists` when the key is taken (checked first; nothing is
 * written, `body` left untouched), and with a classified {@link S3CallError} when S3 refuses or fails; on any
 * failure `body` is aborted and so is the multipart upload. Aborting `signal` stops the upload the same way.
 */
export async function uploadBackup(client: S3Client, target: S3Target, key: string, body: PayloadSource, signal?: AbortSignal): Promise<void> {
  if (await objectExists(client, target, key, signal)) {
    throw new S3CallError(`an object already exists at ${key} in bucket ${target.bucket}: a backup never overwrites one`, BACKUP_REASONS.backupExists, undefined);
  }
  try {
    await uploadParts(client, { bucket: target.bucket, key }, body, { partSizeBytes: PART_SIZE_BYTES, partsInFlight: PARTS_IN_FLIGHT }, signal);
  } catch (err) {
    body.abort(err instanceof Error ? err : new Error(String(err)));
    throw err instanceof S3CallError ? err : classifyS3Error(err, `upload ${key}`, where(target));
  }
}

/**
 * Aborts every incomplete multipart upload under `prefix` (what a crash mid-backup leaves), returning their keys.
 * Completed objects are never touched.
 */
export async function abortIncompleteUploads(client: S3Client, target: S3Target, prefix: string): Promise<string[]> {
  const aborted: string[] = [];
  try {
    const listing = await client.send(new ListMultipartUploadsCommand({ Bucket: target.bucket, Prefix: prefix }));
    for (const upload of listing.Uploads ?? []) {
      if (upload.Key === undefined || upload.UploadId === undefined) continue;
      await client.send(new AbortMultipartUploadCommand({ Bucket: target.bucket, Key: upload.Key, UploadId: upload.UploadId }));
      aborted.push(upload.Key);
    }
  } catch (err) {
    throw classifyS3Error(err, `abort incomplete uploads under ${prefix}`, where(target));
  }
  return aborted;
}

/** Size and SHA-256 of the object under `key`, read as a stream (never held in memory); `undefined` when absent. */
export async function objectDigest(client: S3Client, target: S3Target, key: string, signal?: AbortSignal): Promise<{ sizeBytes: number; sha256: string } | undefined> {
  if (!(await objectExists(client, target, key, signal))) return undefined;
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }), signal === undefined ? {} : { abortSignal: signal });
    const hash = createHash('sha256');
    let sizeBytes = 0;
    for await (const chunk of object.Body as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      sizeBytes += chunk.length;
    }
    return { sizeBytes, sha256: hash.digest('hex') };
  } catch (err) {
    throw classifyS3Error(err, `read ${key}`, where(target));
  }
}

/** Deletes the object under `key` (a backup whose resource has `deletionPolicy: Delete`); absent is fine. */
export async function deleteBackupObject(client: S3Client, target: S3Target, key: string, signal?: AbortSignal): Promise<void> {
  try {
    await client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }), signal === undefined ? {} : { abortSignal: signal });
  } catch (err) {
    throw classifyS3Error(err, `delete ${key}`, where(target));
  }
}
