// caSecretRef's CA reaches the AWS SDK: testenv's real S3 server (versitygw) behind a TLS front on 127.0.0.1 whose
// certificate is signed by a CA made for this test (openssl). The front only terminates TLS and pipes the bytes
// through, so every S3 answer is versitygw's own (the SigV4 signature covers the Host the client sent). With that CA
// the upload lands byte for byte; with another CA, or with Node's bundled CAs, every call fails as
// DestinationUnavailable with a message that names the certificate problem.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createServer } from 'node:tls';
import type { Server } from 'node:tls';
import { promisify } from 'node:util';
import { CreateBucketCommand, GetObjectCommand } from '@aws-sdk/client-s3';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKUP_REASONS } from './reasons.ts';
import { S3CallError } from './s3-errors.ts';
import { readablePayload } from './payload.ts';
import { objectExists, s3ClientFor, uploadBackup } from './s3-upload.ts';
import type { S3Target } from './s3-upload.ts';

const run = promisify(execFile);
let dir = '';
let front: Server;
let plain: S3Target;
let tls: Omit<S3Target, 'ca'>;
let ca = '';
let otherCa = '';
const bucket = `backup-tls-${randomBytes(3).toString('hex')}`;

/** A self-signed CA `<name>.crt`/`<name>.key` in `dir`. */
async function makeCa(name: string): Promise<void> {
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', `/CN=${name}`, '-keyout', join(dir, `${name}.key`), '-out', join(dir, `${name}.crt`)]);
}

beforeAll(async () => {
  const { s3 } = await ensureTestEnv(['s3']);
  plain = { endpoint: s3.endpoint, bucket, region: s3.region, forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } };
  const admin = s3ClientFor(plain);
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  admin.destroy();

  dir = await mkdtemp(join(tmpdir(), 's3-tls-'));
  await makeCa('ca');
  await makeCa('other');
  await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'server.key'), '-out', join(dir, 'server.csr')]);
  await writeFile(join(dir, 'server.ext'), 'subjectAltName=IP:127.0.0.1\n');
  await run('openssl', ['x509', '-req', '-in', join(dir, 'server.csr'), '-CA', join(dir, 'ca.crt'), '-CAkey', join(dir, 'ca.key'), '-CAcreateserial', '-days', '1', '-extfile', join(dir, 'server.ext'), '-out', join(dir, 'server.crt')]);
  ca = await readFile(join(dir, 'ca.crt'), 'utf8');
  otherCa = await readFile(join(dir, 'other.crt'), 'utf8');

  const upstream = new URL(s3.endpoint);
  front = createServer({ key: await readFile(join(dir, 'server.key')), cert: await readFile(join(dir, 'server.crt')) }, (socket) => {
    const back = connect({ host: upstream.hostname, port: Number(upstream.port) });
    socket.pipe(back).pipe(socket);
    back.on('error', () => {
      socket.destroy();
    });
    socket.on('error', () => {
      back.destroy();
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  tls = { ...plain, endpoint: `https://127.0.0.1:${(front.address() as AddressInfo).port}` };
}, 120_000);

afterAll(async () => {
  await new Promise<void>((resolve) => {
    front.close(() => {
      resolve();
    });
  });
  if (dir !== '') await rm(dir, { recursive: true, force: true });
});

describe('an https S3 endpoint with a private CA', () => {
  it('uploads through TLS when the client trusts that CA, and the object is the bytes sent', async () => {
    const target: S3Target = { ...tls, ca };
    const body = randomBytes(9 * 1024 * 1024 + 17);
    const client = s3ClientFor(target);
    try {
      await uploadBackup(client, target, 'tls/one.rdb', readablePayload(Readable.from([body])));
      expect(await objectExists(client, target, 'tls/one.rdb')).toBe(true);
    } finally {
      client.destroy();
    }
    // Read back over plain HTTP, straight from versitygw.
    const reader = s3ClientFor(plain);
    try {
      const object = await reader.send(new GetObjectCommand({ Bucket: bucket, Key: 'tls/one.rdb' }));
      const stored = Buffer.from((await object.Body?.transformToByteArray()) ?? new Uint8Array());
      expect(createHash('sha256').update(stored).digest('hex')).toBe(createHash('sha256').update(body).digest('hex'));
    } finally {
      reader.destroy();
    }
  });

  it.each([
    ['another CA', (): S3Target => ({ ...tls, ca: otherCa })],
    ["Node's bundled CAs", (): S3Target => ({ ...tls })],
  ])('refuses the endpoint with %s: DestinationUnavailable naming the certificate problem, nothing written', async (_what, make) => {
    const target = make();
    const client = s3ClientFor(target);
    try {
      const err = await uploadBackup(client, target, 'tls/refused.rdb', readablePayload(Readable.from([Buffer.from('x')]))).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(S3CallError);
      expect((err as S3CallError).reason).toBe(BACKUP_REASONS.destinationUnavailable);
      expect((err as S3CallError).message).toMatch(/certificate/i);
      expect((err as S3CallError).message).toContain(tls.endpoint ?? '');
      expect((err as S3CallError).message).not.toContain(plain.credentials.secretAccessKey);
    } finally {
      client.destroy();
    }
    const reader = s3ClientFor(plain);
    try {
      expect(await objectExists(reader, plain, 'tls/refused.rdb')).toBe(false);
    } finally {
      reader.destroy();
    }
  });
});
