// Backups streamed into testenv's real S3 server (versitygw): a replica's RDB, read over the network, lands under
// its key byte for byte (SHA-256 of the object equals the stream's), a taken key is never overwritten, refused
// credentials are AccessDenied without the secret in the message, and what a crash leaves (an incomplete multipart
// upload) is aborted without a half object under the key.
import { createHash, randomBytes } from 'node:crypto';
import { CreateBucketCommand, CreateMultipartUploadCommand, GetObjectCommand, ListMultipartUploadsCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { ensureTestEnv } from '@domain-operators/testenv';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BootstrapUsers } from '../redis/bootstrap.ts';
import { IoredisMemberClient } from '../redis/client.ts';
import { appConnection, hostOctets, LocalRedis, randomUsers } from '../redis/local-redis.test-support.ts';
import { openRdbStream } from '../redis/rdb-stream.ts';
import { abortIncompleteUploads, objectExists, s3ClientFor, uploadBackup } from './s3-upload.ts';
import type { S3Target } from './s3-upload.ts';

let users: BootstrapUsers;
let servers: LocalRedis[] = [];
let primary: Redis;
let target: S3Target;
let client: S3Client;
const bucket = `backup-int-${randomBytes(3).toString('hex')}`;

beforeAll(async () => {
  const { s3 } = await ensureTestEnv(['s3']);
  target = { endpoint: s3.endpoint, bucket, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } };
  client = s3ClientFor(target);
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  users = randomUsers();
  servers = await Promise.all(hostOctets(2).map((octet) => LocalRedis.start(users, octet)));
  await new IoredisMemberClient({ credentials: users.operator, connectTimeoutMs: 500, commandTimeoutMs: 2_000 }).replicaOf(servers[1]!.address, servers[0]!.address);
  primary = await appConnection(servers[0]!.address, users.operator);
  // About 12 MiB of values: more than one 8 MiB part.
  const pipelined = primary.pipeline();
  for (let i = 0; i < 3_000; i++) pipelined.set(`k:${i}`, randomBytes(4_096).toString('base64'));
  await pipelined.exec();
  expect(await primary.call('WAIT', '1', '10000')).toBe(1);
});

afterAll(async () => {
  primary.disconnect();
  await Promise.all(servers.map((s) => s.dispose()));
  client.destroy();
});

describe('backups into S3', () => {
  it("stores a replica's snapshot under its key, byte for byte, in more than one part", async () => {
    const key = 'redis/team-a/cache/20261201000000-aaaaaaaa.rdb';
    const transfer = await openRdbStream({ ...servers[1]!.address, ...users.replication });
    await uploadBackup(client, target, key, transfer);
    const summary = await transfer.summary;
    expect(summary.sizeBytes).toBeGreaterThan(8 * 1024 * 1024);
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const bytes = Buffer.from((await object.Body?.transformToByteArray()) ?? new Uint8Array());
    expect(bytes.length).toBe(summary.sizeBytes);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(summary.sha256);
  });

  it('never overwrites an object under a taken key, and writes nothing then', async () => {
    const key = 'redis/team-a/cache/20261201000001-bbbbbbbb.rdb';
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: 'a good backup' }));
    const transfer = await openRdbStream({ ...servers[1]!.address, ...users.replication });
    await expect(uploadBackup(client, target, key, transfer)).rejects.toMatchObject({ reason: 'BackupExists' });
    transfer.abort();
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    expect(await object.Body?.transformToString()).toBe('a good backup');
  });

  it('reports refused credentials as AccessDenied, without the secret', async () => {
    const wrong = { ...target, credentials: { accessKeyId: target.credentials.accessKeyId, secretAccessKey: 'wrong-secret-value' } };
    const wrongClient = s3ClientFor(wrong);
    try {
      const failure = await objectExists(wrongClient, wrong, 'redis/x.rdb').then(() => undefined, (err: unknown) => err as Error & { reason?: string });
      expect(failure?.reason).toBe('AccessDenied');
      expect(failure?.message).toMatch(/^S3 refused to read redis\/x.rdb in bucket backup-int-[0-9a-f]+ at http:\/\/10.244.0.1:19900: HTTP 403$/);
      expect(failure?.message).not.toContain('wrong-secret-value');
      expect(failure?.message).not.toContain(target.credentials.secretAccessKey);
    } finally {
      wrongClient.destroy();
    }
  });

  it('aborts the incomplete multipart upload a crash leaves, and no object ever appeared under its key', async () => {
    const key = 'redis/team-a/crashed/20261201000002-cccccccc.rdb';
    const started = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
    await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: started.UploadId, PartNumber: 1, Body: randomBytes(5 * 1024 * 1024) }));
    expect(await objectExists(client, target, key)).toBe(false);
    expect(await abortIncompleteUploads(client, target, 'redis/team-a/crashed/')).toEqual([key]);
    const left = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: 'redis/team-a/crashed/' }));
    expect(left.Uploads ?? []).toEqual([]);
    expect(await objectExists(client, target, key)).toBe(false);
  });
});
