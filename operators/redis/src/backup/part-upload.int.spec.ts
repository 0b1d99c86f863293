// The pooled multipart upload against testenv's real S3 server (versitygw): more parts than buffers, so every buffer
// is filled again after S3 answered, and the object is the source byte for byte; a source that fails half-way leaves
// neither an object nor an incomplete upload.
import { createHash, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { CreateBucketCommand, GetObjectCommand, ListMultipartUploadsCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadParts } from './part-upload.ts';
import { readablePayload } from './payload.ts';
import { objectExists, s3ClientFor } from './s3-upload.ts';
import type { S3Target } from './s3-upload.ts';

const MIB = 1024 * 1024;
/** A pool of two 5 MiB buffers (one in flight, one being filled). */
const SMALL_POOL = { partSizeBytes: 5 * MIB, partsInFlight: 1 };

let target: S3Target;
let client: S3Client;
const bucket = `part-upload-int-${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  const { s3 } = await ensureTestEnv(['s3']);
  target = { endpoint: s3.endpoint, bucket, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } };
  client = s3ClientFor(target);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
});

afterAll(() => {
  client.destroy();
});

/** `bytes` as a Readable of uneven chunks (as a socket delivers them). */
function chunked(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0, i = 0; offset < bytes.length; i++) {
    const size = [1, 4_000, 65_536, 100_000][i % 4] ?? 1;
    chunks.push(bytes.subarray(offset, offset + size));
    offset += size;
  }
  return Readable.from(chunks);
}

describe('uploadParts', () => {
  it('stores more parts than its pool has buffers, byte for byte', async () => {
    const bytes = randomBytes(23 * MIB + 12_345);
    await uploadParts(client, { bucket, key: 'pooled/five-parts.rdb' }, readablePayload(chunked(bytes)), SMALL_POOL);
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: 'pooled/five-parts.rdb' }));
    const stored = Buffer.from((await object.Body?.transformToByteArray()) ?? new Uint8Array());
    expect(stored.length).toBe(bytes.length);
    expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'));
  });

  it('leaves neither an object nor an incomplete upload when its source fails half-way', async () => {
    const half = randomBytes(12 * MIB);
    const failing = Readable.from(
      (async function* () {
        yield half;
        await new Promise((resolve) => setTimeout(resolve, 200));
        throw new Error('the member went away');
      })(),
    );
    await expect(uploadParts(client, { bucket, key: 'pooled/failed.rdb' }, readablePayload(failing), SMALL_POOL)).rejects.toThrow('the member went away');
    expect(await objectExists(client, target, 'pooled/failed.rdb')).toBe(false);
    const left = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: 'pooled/failed' }));
    expect(left.Uploads ?? []).toEqual([]);
  });
});
