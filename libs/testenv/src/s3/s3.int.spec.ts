// testenv's object storage against the real gateway: signed requests with the root credentials round-trip a
// multi-megabyte object byte for byte, the object is a file under dataDir, and wrong credentials are refused.
import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateBucketCommand, DeleteBucketCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { S3Info } from '../env-file.ts';
import { ensureTestEnv } from '../ensure.ts';
import { NODE_IP } from '../node/addresses.ts';

function clientFor(s3: S3Info, credentials: { accessKeyId: string; secretAccessKey: string }): S3Client {
  return new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials, maxAttempts: 1 });
}

describe('testenv s3 (real versitygw)', () => {
  let s3: S3Info;
  let client: S3Client;
  const bucket = `int-${randomBytes(4).toString('hex')}`;
  const key = 'backups/team-a/cache/20261201000000-abcd.rdb';

  beforeAll(async () => {
    s3 = (await ensureTestEnv(['s3'])).s3;
    client = clientFor(s3, s3);
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  });

  afterAll(async () => {
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch(() => undefined);
    await client.send(new DeleteBucketCommand({ Bucket: bucket })).catch(() => undefined);
    client.destroy();
  });

  it('serves the S3 API on the node address, path-style', () => {
    expect(s3.endpoint).toBe(`http://${NODE_IP}:19900`);
    expect(s3.version).toMatch(/^v\d+\.\d+\.\d+$/);
  });

  it('round-trips an object byte for byte and keeps it as a file under dataDir', async () => {
    const body = randomBytes(5 * 1024 * 1024 + 17);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const bytes = Buffer.from((await got.Body?.transformToByteArray()) ?? new Uint8Array());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
    const listed = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'backups/team-a/' }));
    expect(listed.Contents?.map((o) => [o.Key, o.Size])).toEqual([[key, body.length]]);
    expect((await readFile(join(s3.dataDir, bucket, key))).equals(body)).toBe(true);
  });

  it('refuses a wrong secret key and an unknown access key, each with its own error', async () => {
    const refusal = async (credentials: { accessKeyId: string; secretAccessKey: string }): Promise<string> => {
      const wrong = clientFor(s3, credentials);
      try {
        await wrong.send(new ListObjectsV2Command({ Bucket: bucket }));
        return 'accepted';
      } catch (err) {
        return err instanceof S3ServiceException ? `${err.$metadata.httpStatusCode ?? 0} ${err.name}` : String(err);
      } finally {
        wrong.destroy();
      }
    };
    expect(await refusal({ accessKeyId: s3.accessKeyId, secretAccessKey: 'not-the-secret' })).toBe('403 SignatureDoesNotMatch');
    // AWS answers 403 InvalidAccessKeyId here; versitygw 1.8 answers 404 XAdminUserNotFound (a client that maps
    // refusals to AccessDenied must know both).
    expect(await refusal({ accessKeyId: 'nobody', secretAccessKey: s3.secretAccessKey })).toBe('404 XAdminUserNotFound');
  });
});
