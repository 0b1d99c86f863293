import { afterEach, describe, expect, it } from 'vitest';
import { EndpointServer, parseBindAddress } from './endpoint-server.ts';

describe('parseBindAddress', () => {
  it('accepts host:port, :port and [v6]:port', () => {
    expect(parseBindAddress(':8081')).toEqual({ host: undefined, port: 8081 });
    expect(parseBindAddress('127.0.0.1:0')).toEqual({ host: '127.0.0.1', port: 0 });
    expect(parseBindAddress('[::1]:9090')).toEqual({ host: '::1', port: 9090 });
    expect(() => parseBindAddress('8081')).toThrow(/bind address/);
  });
});

describe('EndpointServer', () => {
  let server: EndpointServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('serves its routes on loopback, 404 elsewhere, 405 for writes, 500 when a handler fails', async () => {
    server = new EndpointServer(
      {},
      {
        bindAddress: '127.0.0.1:0',
        routes: {
          '/readyz': () => ({ status: 503, contentType: 'text/plain', body: 'not yet\n' }),
          '/metrics': () => Promise.reject(new Error('scrape failed')),
        },
      },
    );
    const { port } = await server.listen();
    const get = async (path: string, method = 'GET') => {
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method });
      return { status: response.status, body: await response.text() };
    };
    expect(await get('/readyz?verbose')).toEqual({ status: 503, body: 'not yet\n' });
    expect((await get('/nope')).status).toBe(404);
    expect((await get('/readyz', 'POST')).status).toBe(405);
    expect(await get('/metrics')).toEqual({ status: 500, body: 'internal error: scrape failed\n' });
  });

  it('rejects listen when the port is taken', async () => {
    server = new EndpointServer({}, { bindAddress: '127.0.0.1:0', routes: {} });
    const { port } = await server.listen();
    const second = new EndpointServer({}, { bindAddress: `127.0.0.1:${port}`, routes: {} });
    await expect(second.listen()).rejects.toThrow(/EADDRINUSE/);
  });
});
