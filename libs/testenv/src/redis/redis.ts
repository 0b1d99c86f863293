import { execFile } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Component, ComponentContext } from '../component.ts';
import type { RedisInfo } from '../env-file.ts';
import { runningPid, startDaemon, stopDaemon, waitUntil } from '../process.ts';

/** Port of the standalone Redis server. */
export const REDIS_PORT = 16379;
const HOST = '127.0.0.1';

/**
 * Sends one inline command to a Redis server and resolves with its raw first reply line
 * (e.g. `+PONG`). Rejects on connection errors or after `timeoutMs`.
 */
export function redisCommand(host: string, port: number, command: string, timeoutMs = 1_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host, port });
    let reply = '';
    socket.setTimeout(timeoutMs, () => {
      socket.destroy(new Error(`redis ${host}:${port}: no reply within ${timeoutMs} ms`));
    });
    socket.once('connect', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      const end = reply.indexOf('\r\n');
      if (end >= 0) {
        socket.end();
        resolve(reply.slice(0, end));
      }
    });
    socket.once('error', reject);
  });
}

/** The version `redis-server --version` prints, e.g. `7.0.15`. */
export async function redisServerVersion(): Promise<string> {
  const { stdout } = await promisify(execFile)('redis-server', ['--version']);
  return /v=(\S+)/.exec(stdout)?.[1] ?? 'unknown';
}

function files(ctx: ComponentContext): { dir: string; pidFile: string; logFile: string } {
  return {
    dir: join(ctx.paths.runDir, 'redis'),
    pidFile: join(ctx.paths.runDir, 'redis.pid'),
    logFile: join(ctx.paths.logsDir, 'redis.log'),
  };
}

/** A standalone Debian `redis-server` on 127.0.0.1:16379, without persistence, for tests that need plain Redis. */
export const redisComponent: Component<RedisInfo> = {
  name: 'redis',

  async up(ctx) {
    const { dir, pidFile, logFile } = files(ctx);
    const info: RedisInfo = { url: `redis://${HOST}:${REDIS_PORT}`, version: await redisServerVersion() };
    if (await this.healthy(ctx)) return info;
    await stopDaemon(pidFile);
    await mkdir(dir, { recursive: true });
    const pid = await startDaemon({
      name: 'redis',
      command: 'redis-server',
      args: ['--bind', HOST, '--port', String(REDIS_PORT), '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
      logFile,
      pidFile,
    });
    await waitUntil(async () => (await redisCommand(HOST, REDIS_PORT, 'PING')) === '+PONG', {
      what: 'redis PING',
      timeoutMs: 15_000,
      logFile,
      pid,
    });
    ctx.progress(`redis ${info.version} on ${info.url}`);
    return info;
  },

  async down(ctx) {
    const { dir, pidFile } = files(ctx);
    await stopDaemon(pidFile);
    await rm(dir, { recursive: true, force: true });
  },

  async healthy(ctx) {
    if ((await runningPid(files(ctx).pidFile)) === undefined) return false;
    try {
      return (await redisCommand(HOST, REDIS_PORT, 'PING')) === '+PONG';
    } catch {
      return false;
    }
  },
};
