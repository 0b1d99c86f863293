import * as http from 'node:http';
import * as https from 'node:https';
import { describe, expect, it } from 'vitest';
import { keepAliveAgent } from './keep-alive-agent.ts';

describe('keepAliveAgent', () => {
  it('turns a plain https.Agent into one keep-alive twin with the same TLS options, the same twin every call', () => {
    const agent = new https.Agent({ ca: 'CA', cert: 'CERT', key: 'KEY', servername: 'apiserver' });
    const twin = keepAliveAgent(agent);
    expect(twin).not.toBe(agent);
    expect(twin).toBeInstanceOf(https.Agent);
    expect((twin as https.Agent & { keepAlive: boolean }).keepAlive).toBe(true);
    expect((twin as https.Agent & { options: https.AgentOptions }).options).toMatchObject({ ca: 'CA', cert: 'CERT', key: 'KEY', servername: 'apiserver' });
    expect(keepAliveAgent(agent)).toBe(twin);
  });

  it('gives a plain http.Agent an http twin, and two different agents two twins', () => {
    const first = new http.Agent();
    const second = new http.Agent();
    const twin = keepAliveAgent(first);
    expect(twin).toBeInstanceOf(http.Agent);
    expect(twin).not.toBeInstanceOf(https.Agent);
    expect((twin as http.Agent & { keepAlive: boolean }).keepAlive).toBe(true);
    expect(keepAliveAgent(second)).not.toBe(twin);
  });

  it('leaves a keep-alive agent, a subclass (such as a proxy agent) and a missing agent alone', () => {
    class ProxyAgent extends https.Agent {}
    const keptAlive = new https.Agent({ keepAlive: true });
    const proxy = new ProxyAgent();
    expect(keepAliveAgent(keptAlive)).toBe(keptAlive);
    expect(keepAliveAgent(proxy)).toBe(proxy);
    expect(keepAliveAgent(undefined)).toBeUndefined();
  });
});
