// HttpsRestTransport against a local HTTPS server that closes a kept-alive connection when its second request
// arrives, unanswered: the race a client loses when the apiserver closes an idle connection (after 90 s) just as a
// request is sent on it. The request must be sent again on a new connection, its body intact; a connection that was
// new when it closed is a real failure and must reject.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { HttpsRestTransport } from './rest.ts';

const run = promisify(execFile);
let dir = '';
let server: Server;
let kubeConfig: KubeConfig;
/** A new transport per test, so that no test starts on another's kept-alive connection. */
let transport: HttpsRestTransport;
/** What the server does with the n-th request (1-based) of a connection. */
let behaviour: (nth: number) => 'answer' | 'close' = () => 'answer';
const seen: { connection: number; method: string; body: string }[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rest-spec-'));
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')]);
  const cert = await readFile(join(dir, 'cert.pem'));
  const connections = new WeakMap<Socket, { id: number; requests: number }>();
  let nextId = 0;
  server = createServer({ key: await readFile(join(dir, 'key.pem')), cert }, (req, res) => {
    const socket = req.socket;
    const state = connections.get(socket) ?? { id: ++nextId, requests: 0 };
    connections.set(socket, state);
    state.requests += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ connection: state.id, method: req.method ?? '', body: Buffer.concat(chunks).toString('utf8') });
      if (behaviour(state.requests) === 'close') {
        socket.destroy();
        return;
      }
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ connection: state.id }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [{ name: 'local', server: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, caData: cert.toString('base64') }],
    users: [{ name: 'nobody' }],
    contexts: [{ name: 'local', cluster: 'local', user: 'nobody' }],
    currentContext: 'local',
  });
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => { resolve(); }));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(async () => {
  seen.length = 0;
  transport = await HttpsRestTransport.create(kubeConfig);
});

it('sends a request again on a new connection when its reused connection is closed unanswered, body and all', async () => {
  behaviour = (nth) => (nth === 2 ? 'close' : 'answer');
  const first = (await transport.json({ method: 'GET', path: '/api/v1/namespaces' })) as { connection: number };
  const second = (await transport.json({ method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'n' } } })) as { connection: number };
  expect(second.connection).not.toBe(first.connection);
  expect(seen.map((s) => [s.connection === first.connection ? 'first' : 'new', s.method, s.body])).toEqual([
    ['first', 'GET', ''],
    ['first', 'POST', '{"metadata":{"name":"n"}}'],
    ['new', 'POST', '{"metadata":{"name":"n"}}'],
  ]);
});

it('rejects, without sending again, when a new connection is closed unanswered', async () => {
  behaviour = () => 'close';
  await expect(transport.json({ method: 'GET', path: '/api/v1/pods' })).rejects.toThrow(/socket hang up|ECONNRESET/);
  expect(seen).toHaveLength(1);
});

it('sends again only once: a second unanswered close rejects', async () => {
  behaviour = (nth) => (nth === 1 ? 'answer' : 'close');
  await transport.json({ method: 'GET', path: '/a' });
  // The retry goes out on a new connection, whose first request the server answers: so make every connection close.
  behaviour = () => 'close';
  await expect(transport.json({ method: 'GET', path: '/b' })).rejects.toThrow(/socket hang up|ECONNRESET/);
  expect(seen.map((s) => s.method)).toEqual(['GET', 'GET', 'GET']);
});
