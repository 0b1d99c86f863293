import { existsSync } from 'node:fs';
import { readdir, readFile, readlink, rm, rmdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from '../process.ts';
import type { HostCommand } from './host-command.ts';
import type { NodeHostLayout } from './host-layout.ts';
import { ownedChains, withoutOwnedChains } from './iptables-dump.ts';
import { removeHostNetwork } from './network.ts';

const CGROUP_MOUNT = '/sys/fs/cgroup';

/** What {@link sweepNode} needs besides the layout. */
export interface SweepDeps {
  readonly run: HostCommand;
  /** Receives one line per thing removed. Must not throw. */
  readonly log: (line: string) => void;
}

/** What {@link sweepNode} acts on besides the fixed layout. */
export interface SweepOptions {
  /**
   * Absolute paths of executables that are the node's (the kubelet, kube-proxy, containerd and its shim, as built into
   * the cache): any process running one of them is killed, whoever started it. A pid file alone is not enough: a
   * SIGKILLed `up`, or another clone's, leaves processes whose pid files this clone never wrote.
   */
  readonly executables: readonly string[];
  /** Also remove the bridge and restore `ip_forward` (a full `down`); false keeps them for a node restart. */
  readonly network: boolean;
}

/**
 * Removes everything the node put on the host, in the order that lets each step succeed: the kubelet first (so it
 * restarts nothing), then every process in the Pods' cgroups and every process of ours (shims, containerd,
 * kube-proxy), then the mounts under our state directories (volumes, rootfs overlays, network namespaces), the
 * cgroups, our iptables chains in every table (IPv4 and IPv6), the bridge and `ip_forward` (when `network`), and
 * last the state directories. Idempotent, and safe on a host where nothing of ours is left. Throws only when
 * something of ours could not be removed, naming it.
 */
export async function sweepNode(deps: SweepDeps, layout: NodeHostLayout, options: SweepOptions): Promise<void> {
  const problems: string[] = [];
  const kubelet = options.executables.filter((exe) => exe.endsWith('/kubelet'));
  await killProcesses(deps, await processesRunning(kubelet));
  await killCgroupProcesses(deps, layout.cgroupRoot);
  await killProcesses(deps, await processesRunning(options.executables));
  await unmountUnder(deps, [layout.varDir, layout.runDir], problems);
  await removeCgroups(deps, layout.cgroupRoot, problems);
  for (const tool of ['iptables', 'ip6tables']) await removeOwnedChains(deps, tool, problems);
  if (options.network) await removeHostNetwork(deps.run, layout);
  for (const dir of [layout.runDir, ...(options.network ? [layout.varDir] : [join(layout.varDir, 'kubelet'), join(layout.varDir, 'containerd')])]) {
    try {
      await rm(dir, { recursive: true, force: true });
    } catch (err) {
      problems.push(`cannot remove ${dir}: ${(err as Error).message}`);
    }
  }
  if (problems.length > 0) throw new Error(`node: the sweep left something behind:\n${problems.join('\n')}`);
}

/** Pids of the processes whose `/proc/<pid>/exe` is one of `executables`. Read-only; may be stale at once. */
export async function processesRunning(executables: readonly string[]): Promise<number[]> {
  if (executables.length === 0) return [];
  const wanted = new Set(executables);
  const pids: number[] = [];
  for (const entry of await readdir('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const exe = (await readlink(`/proc/${pid}/exe`)).replace(/ \(deleted\)$/, '');
      if (wanted.has(exe)) pids.push(pid);
    } catch {
      // gone, or a kernel thread
    }
  }
  return pids;
}

async function killProcesses(deps: SweepDeps, pids: readonly number[]): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
      deps.log(`killed pid ${pid}`);
    } catch {
      // already gone
    }
  }
  const deadline = Date.now() + 10_000;
  while (pids.some((pid) => isAlive(pid)) && Date.now() < deadline) await sleep(50);
}

/** Every cgroup directory at or below `cgroupRoot` in every mounted hierarchy, deepest first. Read-only. */
export async function cgroupDirs(cgroupRoot: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) if (entry.isDirectory()) await walk(join(dir, entry.name));
    found.push(dir);
  };
  let hierarchies: string[];
  try {
    hierarchies = await readdir(CGROUP_MOUNT);
  } catch {
    return [];
  }
  for (const hierarchy of hierarchies) {
    const top = join(CGROUP_MOUNT, hierarchy, cgroupRoot);
    // cgroup2 mounted at /sys/fs/cgroup itself (no hybrid): the root is directly below the mount.
    if (existsSync(top)) await walk(top);
  }
  const direct = join(CGROUP_MOUNT, cgroupRoot);
  if (existsSync(join(direct, 'cgroup.procs')) && !found.includes(direct)) await walk(direct);
  return found;
}

async function killCgroupProcesses(deps: SweepDeps, cgroupRoot: string): Promise<void> {
  for (let round = 0; round < 20; round += 1) {
    const pids = new Set<number>();
    for (const dir of await cgroupDirs(cgroupRoot)) {
      try {
        for (const line of (await readFile(join(dir, 'cgroup.procs'), 'utf8')).split('\n')) {
          const pid = Number(line);
          if (Number.isInteger(pid) && pid > 0) pids.add(pid);
        }
      } catch {
        // removed meanwhile
      }
    }
    if (pids.size === 0) return;
    // SIGKILL also ends stopped (SIGSTOPped) processes; a frozen cgroup would need thawing, and we never freeze.
    await killProcesses(deps, [...pids]);
  }
}

/** Mount points below any of `dirs`, deepest first, from `/proc/self/mountinfo` (octal escapes decoded). Pure. */
export function mountPointsUnder(mountinfo: string, dirs: readonly string[]): string[] {
  const points = mountinfo
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point): point is string => point !== undefined)
    .map((point) => point.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8))))
    .filter((point) => dirs.some((dir) => point === dir || point.startsWith(`${dir}/`)));
  return [...new Set(points)].sort((a, b) => b.split('/').length - a.split('/').length || b.localeCompare(a));
}

async function unmountUnder(deps: SweepDeps, dirs: readonly string[], problems: string[]): Promise<void> {
  for (let round = 0; round < 5; round += 1) {
    const points = mountPointsUnder(await readFile('/proc/self/mountinfo', 'utf8'), dirs);
    if (points.length === 0) return;
    for (const point of points) {
      const result = await deps.run('umount', [point]);
      if (result.code === 0) {
        deps.log(`unmounted ${point}`);
        continue;
      }
      const lazy = await deps.run('umount', ['-l', point]);
      if (lazy.code === 0) deps.log(`unmounted ${point} (lazily)`);
      else if (round === 4) problems.push(`cannot unmount ${point}: ${lazy.stderr.trim()}`);
    }
  }
}

async function removeCgroups(deps: SweepDeps, cgroupRoot: string, problems: string[]): Promise<void> {
  for (let round = 0; round < 50; round += 1) {
    const dirs = await cgroupDirs(cgroupRoot);
    if (dirs.length === 0) return;
    let failed: string | undefined;
    for (const dir of dirs) {
      try {
        await rmdir(dir);
      } catch (err) {
        failed = `${dir}: ${(err as Error).message}`;
      }
    }
    if (failed === undefined) {
      deps.log(`removed ${dirs.length} cgroups under ${cgroupRoot}`);
      return;
    }
    // A process that just died is still counted until the kernel has reaped it.
    await sleep(100);
    if (round === 49) problems.push(`cannot remove cgroup ${failed}`);
  }
}

async function removeOwnedChains(deps: SweepDeps, tool: string, problems: string[]): Promise<void> {
  const saved = await deps.run(`${tool}-save`, []);
  if (saved.code !== 0) return; // no such tool, or no IPv6: nothing of ours can be there
  const cleaned = withoutOwnedChains(saved.stdout);
  if (cleaned === undefined) return;
  const chains = ownedChains(saved.stdout);
  const restored = await restore(deps.run, tool, cleaned);
  if (restored !== 0) problems.push(`${tool}-restore failed; left: ${chains.join(' ')}`);
  else deps.log(`${tool}: removed ${chains.length} chains (${chains.join(' ')})`);
}

async function restore(run: HostCommand, tool: string, dump: string): Promise<number> {
  // iptables-restore reads the dump from a file given as its argument.
  const file = join('/tmp', `domain-operators-${tool}-${process.pid}-${Date.now()}.rules`);
  await writeFile(file, dump);
  try {
    return (await run(`${tool}-restore`, [file])).code;
  } finally {
    await rm(file, { force: true });
  }
}
