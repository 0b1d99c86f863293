import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { NODE_BRIDGE } from './addresses.ts';
import type { HostCommand } from './host-command.ts';
import type { NodeHostLayout } from './host-layout.ts';
import { ownedChains } from './iptables-dump.ts';
import { cgroupDirs, mountPointsUnder, processesRunning } from './sweep.ts';

/** What {@link findLeftovers} looks for besides the fixed layout. */
export interface LeftoverOptions {
  /** The node's executables (as for the sweep): any process running one is a leftover. */
  readonly executables: readonly string[];
  /** Also count the bridge and the `ip_forward` record (after a full `down`); false after a node-only sweep. */
  readonly network: boolean;
}

/**
 * Everything of the node still on the host, one line each: processes running our executables or living in our
 * cgroups, mounts under our state directories, our cgroups, KUBE-/CNI-/DOP- chains in any iptables table (IPv4
 * and IPv6), the state directories and, with `network`, the bridge and the `ip_forward` record. Empty when the host
 * is clean. Read-only.
 */
export async function findLeftovers(run: HostCommand, layout: NodeHostLayout, options: LeftoverOptions): Promise<string[]> {
  const found: string[] = [];
  for (const pid of await processesRunning(options.executables)) found.push(`process ${pid} runs a node executable`);
  const cgroups = await cgroupDirs(layout.cgroupRoot);
  if (cgroups.length > 0) found.push(`${cgroups.length} cgroups under ${layout.cgroupRoot}, e.g. ${cgroups[0] ?? ''}`);
  for (const point of mountPointsUnder(await readFile('/proc/self/mountinfo', 'utf8'), [layout.varDir, layout.runDir])) found.push(`mount ${point}`);
  for (const tool of ['iptables', 'ip6tables']) {
    const saved = await run(`${tool}-save`, []);
    if (saved.code === 0) for (const chain of ownedChains(saved.stdout)) found.push(`${tool} chain ${chain}`);
  }
  if (existsSync(layout.runDir)) found.push(`directory ${layout.runDir}`);
  if (existsSync(layout.kubeletRootDir)) found.push(`directory ${layout.kubeletRootDir}`);
  if (options.network) {
    if ((await run('ip', ['link', 'show', 'dev', NODE_BRIDGE])).code === 0) found.push(`bridge ${NODE_BRIDGE}`);
    if (existsSync(layout.varDir)) found.push(`directory ${layout.varDir}`);
  }
  return found;
}
