import { execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { mkdtemp, open, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths } from '../paths.ts';
import { ensureNodeAddonBinaries, type NodeAddonBinaries } from './addon-binaries.ts';

const run = promisify(execFile);

/** stdout and stderr of `binary args`, which must exit 0. */
async function output(binary: string, ...args: string[]): Promise<string> {
  const { stdout, stderr } = await run(binary, args, { timeout: 30_000 });
  return stdout + stderr;
}

/** True when the ELF file has no PT_INTERP program header: no dynamic loader, a static executable. */
async function isStatic(file: string): Promise<boolean> {
  const handle = await open(file, 'r');
  try {
    const header = Buffer.alloc(64);
    await handle.read(header, 0, 64, 0);
    expect(header.subarray(0, 4).toString('latin1')).toBe('\x7fELF');
    expect(header[4]).toBe(2); // ELFCLASS64
    const phoff = Number(header.readBigUInt64LE(32));
    const phentsize = header.readUInt16LE(54);
    const phnum = header.readUInt16LE(56);
    const table = Buffer.alloc(phentsize * phnum);
    await handle.read(table, 0, table.length, phoff);
    for (let i = 0; i < phnum; i++) if (table.readUInt32LE(i * phentsize) === 3) return false; // PT_INTERP
    return true;
  } finally {
    await handle.close();
  }
}

/** A UDP port on 127.0.0.1 that was free a moment ago. */
async function freeUdpPort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolveBind) => {
    socket.bind(0, '127.0.0.1', resolveBind);
  });
  const { port } = socket.address();
  await new Promise<void>((resolveClose) => {
    socket.close(resolveClose);
  });
  return port;
}

/** Resolves with the exit code (or the signal's name) once `child` exits. */
function exited(child: ReturnType<typeof spawn>): Promise<number | string> {
  return new Promise((resolveExit) => {
    child.once('exit', (code, signal) => {
      resolveExit(code ?? signal ?? 'unknown');
    });
  });
}

/** The pids of every child of `pid`'s threads (an exited child stays listed until its parent reaps it). */
async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`);
  const lists = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8')));
  return lists.flatMap((list) => list.trim().split(/\s+/).filter((word) => word !== '').map(Number));
}

/** Polls `probe` every 50 ms until it returns a value other than `undefined`, for up to `timeoutMs`. */
async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await sleep(50);
  }
}

const canUnshare = process.getuid?.() === 0 && existsSync('/usr/bin/unshare') && existsSync('/usr/bin/nsenter');

describe('node add-on binaries (containerd, CoreDNS, local-path-provisioner, pause)', () => {
  let bins: NodeAddonBinaries;

  beforeAll(async () => {
    bins = await ensureNodeAddonBinaries({
      paths: resolvePaths(),
      progress: (message) => {
        console.log(`[node-build] ${message}`);
      },
    });
  }, 3_600_000);

  it('returns at once when everything is cached', async () => {
    const started = Date.now();
    const again = await ensureNodeAddonBinaries({ paths: resolvePaths(), progress: () => undefined });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(again).toEqual(bins);
  });

  it('built static executables', async () => {
    const all = [bins.containerd, bins.containerdShim, bins.ctr, bins.coredns, bins.localPathProvisioner, bins.pause];
    for (const binary of all) {
      expect((await stat(binary)).mode & 0o111, binary).not.toBe(0);
      expect(await isStatic(binary), binary).toBe(true);
    }
  });

  it('stamped the pinned versions', async () => {
    const { versions } = bins;
    const containerd = await output(bins.containerd, '--version');
    expect(containerd).toContain(`github.com/containerd/containerd/v2 ${versions.containerd}`);
    expect(await output(bins.ctr, '--version')).toContain(versions.containerd);
    expect(await output(bins.containerdShim, '-v')).toMatch(new RegExp(`Version:\\s+${versions.containerd}`));
    const coredns = await output(bins.coredns, '-version');
    expect(coredns).toContain(`CoreDNS-${versions.coredns.replace(/^v/, '')}`);
    expect(coredns).toContain(`testenv-${versions.corednsBuild}`);
    expect(await output(bins.localPathProvisioner, '--version')).toContain(`version ${versions.localPathProvisioner}`);
    expect(await output(bins.pause, '--version')).toBe(`pause ${versions.pause}\n`);
  });

  it('has the cluster-DNS plugins in CoreDNS and no forward', async () => {
    const plugins = (await output(bins.coredns, '-plugins')).split(/\s+/);
    for (const plugin of ['errors', 'health', 'ready', 'kubernetes', 'cache', 'loop', 'reload', 'loadbalance', 'log']) {
      expect(plugins).toContain(plugin);
    }
    expect(plugins).not.toContain('forward');
  });

  it('answers DNS queries from CoreDNS on 127.0.0.1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'coredns-int-'));
    const port = await freeUdpPort();
    await writeFile(
      join(dir, 'Corefile'),
      `.:${port} {\n  bind 127.0.0.1\n  errors\n  hosts {\n    10.96.0.42 probe.testenv.internal\n  }\n}\n`,
    );
    const child = spawn(bins.coredns, ['-conf', join(dir, 'Corefile')], { stdio: 'ignore' });
    const exit = exited(child);
    try {
      const resolver = new Resolver({ timeout: 500, tries: 1 });
      resolver.setServers([`127.0.0.1:${port}`]);
      let answer: string[] = [];
      for (let attempt = 0; attempt < 40 && answer.length === 0; attempt++) {
        answer = await resolver.resolve4('probe.testenv.internal').catch(() => []);
        if (answer.length === 0) await sleep(250);
      }
      expect(answer).toEqual(['10.96.0.42']);
    } finally {
      child.kill('SIGTERM');
      await exit;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('runs pause until SIGTERM, then it exits 0', async () => {
    const child = spawn(bins.pause, [], { stdio: 'ignore' });
    const exit = exited(child);
    await sleep(1_000);
    expect(child.exitCode).toBeNull();
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it.skipIf(!canUnshare)('reaps orphans as PID 1 of a pid namespace', async () => {
    const child = spawn('/usr/bin/unshare', ['--pid', '--fork', bins.pause], { stdio: 'ignore' });
    const exit = exited(child);
    try {
      const unsharePid = child.pid!;
      const pausePid = await eventually(async () => (await childrenOf(unsharePid))[0], 5_000);
      // A shell inside the namespace starts a short sleep and exits: the sleep is orphaned, re-parented to pause.
      // (Its output goes to /dev/null, or execFile would wait for it to close the pipes, that is, to exit.)
      const orphan = '/bin/sleep 2 </dev/null >/dev/null 2>&1 & exit 0';
      await run('/usr/bin/nsenter', ['-t', String(pausePid), '-p', '--', '/bin/sh', '-c', orphan]);
      expect((await childrenOf(pausePid)).length).toBe(1);
      // Once it exits, pause must reap it: a zombie would stay listed as its child.
      await eventually(async () => ((await childrenOf(pausePid)).length === 0 ? true : undefined), 10_000);
      process.kill(pausePid, 'SIGTERM');
      expect(await exit).toBe(0);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
