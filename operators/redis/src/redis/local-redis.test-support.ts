/**
 * Real redis-server processes for integration tests, started the way the operator's Pods will start: a
 * redis.conf with the bootstrap ACL lines and a separate (0600) include file holding `masterauth`. Each server
 * listens on its own 127.0.0.N address (outside testenv's pod range 127.0.2-254.x) on a free port.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { aclBootstrapLines, replicationAuthLines } from './bootstrap.ts';
import type { BootstrapUsers } from './bootstrap.ts';
import type { MemberAddress } from './topology.ts';

/** Random credentials for the operator and replication users; `default` keeps Redis's defaults (nopass). */
export function randomUsers(): BootstrapUsers {
  return {
    operator: { username: 'operator', password: randomBytes(12).toString('hex') },
    replication: { username: 'replication', password: randomBytes(12).toString('hex') },
  };
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/** One redis-server process that can be killed, paused and started again on the same address. */
export class LocalRedis {
  readonly address: MemberAddress;
  readonly #dir: string;
  #process: ChildProcess | undefined;

  private constructor(address: MemberAddress, dir: string) {
    this.address = address;
    this.#dir = dir;
  }

  /** Writes the config and starts the server; resolves once it answers PING as the operator. */
  static async start(users: BootstrapUsers, hostOctet: number): Promise<LocalRedis> {
    const host = `127.0.0.${hostOctet}`;
    const port = await freePort(host);
    const dir = await mkdtemp(join(tmpdir(), 'redis-int-'));
    const secretFile = join(dir, 'replication-auth.conf');
    await writeFile(secretFile, `${replicationAuthLines(users.replication).join('\n')}\n`, { mode: 0o600 });
    const conf = [
      `bind ${host}`,
      `port ${port}`,
      `dir ${dir}`,
      'save ""',
      'appendonly no',
      'repl-diskless-sync-delay 0',
      'logfile redis.log',
      ...aclBootstrapLines(users),
      `include ${secretFile}`,
    ];
    await writeFile(join(dir, 'redis.conf'), `${conf.join('\n')}\n`, { mode: 0o600 });
    const redis = new LocalRedis({ host, port }, dir);
    await redis.startProcess(users);
    return redis;
  }

  /** Starts the process again (empty: no persistence) after {@link kill}. */
  async startProcess(users: BootstrapUsers): Promise<void> {
    const child = spawn('redis-server', [join(this.#dir, 'redis.conf')], { cwd: this.#dir, stdio: 'ignore' });
    this.#process = child;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`redis-server exited with ${child.exitCode}; see ${this.#dir}/redis.log`);
      const probe = new Redis({ ...this.address, ...users.operator, lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0 });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.call('PING');
        return;
      } catch {
        if (Date.now() > deadline) throw new Error(`redis-server on ${this.address.host}:${this.address.port} did not answer`);
        await sleep(50);
      } finally {
        probe.disconnect();
      }
    }
  }

  /** Sends `signal` to the process (SIGKILL to crash it, SIGSTOP/SIGCONT to freeze and thaw it). */
  signal(signal: NodeJS.Signals): void {
    this.#process?.kill(signal);
  }

  /** Kills the process with SIGKILL and waits for it to exit. */
  async kill(): Promise<void> {
    const child = this.#process;
    if (child?.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGCONT');
    child.kill('SIGKILL');
    await exited;
  }

  /** Kills the process and removes its directory. */
  async dispose(): Promise<void> {
    await this.kill();
    await rm(this.#dir, { recursive: true, force: true });
  }
}

/** A distinct random 127.0.0.N octet for each of `count` servers. */
export function hostOctets(count: number): number[] {
  const base = randomInt(20, 240 - count);
  return Array.from({ length: count }, (_, i) => base + i);
}

/**
 * A plain ioredis connection for a test acting as an application; rejects with the server's refusal (e.g.
 * WRONGPASS) when authentication fails. Disconnect it when done.
 */
export async function appConnection(address: MemberAddress, user?: { username: string; password: string }): Promise<Redis> {
  const redis = new Redis({ ...address, ...(user ?? {}), lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, enableReadyCheck: false });
  let failure: Error | undefined;
  redis.on('error', (err: Error) => {
    failure = err;
  });
  try {
    await redis.connect();
  } catch (err) {
    throw failure ?? err;
  }
  return redis;
}
