import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { NODE_BRIDGE, NODE_IP, POD_CIDR, POD_PREFIX_LENGTH } from './addresses.ts';
import type { HostCommand } from './host-command.ts';
import { mustRun } from './host-command.ts';
import type { NodeHostLayout } from './host-layout.ts';

/** Our filter chain that keeps Pod traffic on the bridge (see {@link forwardGuardRules}). */
export const FORWARD_GUARD_CHAIN = 'DOP-FORWARD';

const IP_FORWARD = '/proc/sys/net/ipv4/ip_forward';

/**
 * The rules of {@link FORWARD_GUARD_CHAIN}, jumped to first from `FORWARD`: traffic between Pods is accepted (also
 * on a host whose FORWARD policy is DROP, as Docker leaves it on hosted runners), anything else a Pod sends through
 * the host is rejected, and so is anything forwarded into the Pod subnet from elsewhere. Pods reach host processes on {@link NODE_IP} through
 * INPUT, and Services through kube-proxy's DNAT before this chain sees the packet, so both keep working; no Pod can
 * reach an address off this machine, whatever `ip_forward` says. Pure.
 */
export function forwardGuardRules(): string[][] {
  return [
    ['-s', POD_CIDR, '-d', POD_CIDR, '-j', 'ACCEPT'],
    ['-s', POD_CIDR, '-j', 'REJECT'],
    ['-d', POD_CIDR, '-j', 'REJECT'],
  ];
}

/**
 * Creates the node's bridge with {@link NODE_IP} and the forward guard, and records `ip_forward` before the CNI bridge
 * plugin turns it on. Idempotent: an existing bridge (left by a crashed run) is reused and its address ensured, the
 * guard chain is rewritten, and the first record of `ip_forward` is kept. Must run before any process binds
 * {@link NODE_IP}.
 */
export async function ensureHostNetwork(run: HostCommand, layout: NodeHostLayout): Promise<void> {
  if (!existsSync(layout.ipForwardRecord)) {
    await mkdir(dirname(layout.ipForwardRecord), { recursive: true });
    await writeFile(layout.ipForwardRecord, (await readFile(IP_FORWARD, 'utf8')).trim());
  }
  if ((await run('ip', ['link', 'show', 'dev', NODE_BRIDGE])).code !== 0) {
    await mustRun(run, 'ip', ['link', 'add', 'name', NODE_BRIDGE, 'type', 'bridge']);
  }
  const addresses = await mustRun(run, 'ip', ['-4', '-o', 'addr', 'show', 'dev', NODE_BRIDGE]);
  if (!addresses.includes(` ${NODE_IP}/${POD_PREFIX_LENGTH} `)) {
    await mustRun(run, 'ip', ['addr', 'add', `${NODE_IP}/${POD_PREFIX_LENGTH}`, 'dev', NODE_BRIDGE]);
  }
  await mustRun(run, 'ip', ['link', 'set', 'dev', NODE_BRIDGE, 'up']);

  if ((await run('iptables', ['-w', '-N', FORWARD_GUARD_CHAIN])).code !== 0) {
    await mustRun(run, 'iptables', ['-w', '-F', FORWARD_GUARD_CHAIN]);
  }
  for (const rule of forwardGuardRules()) await mustRun(run, 'iptables', ['-w', '-A', FORWARD_GUARD_CHAIN, ...rule]);
  if ((await run('iptables', ['-w', '-C', 'FORWARD', '-j', FORWARD_GUARD_CHAIN])).code !== 0) {
    await mustRun(run, 'iptables', ['-w', '-I', 'FORWARD', '1', '-j', FORWARD_GUARD_CHAIN]);
  }
}

/**
 * Removes the bridge and puts `ip_forward` back as recorded (then forgets the record). Never throws when nothing is
 * there. iptables chains are the sweep's business ({@link removeOwnedChains} in `sweep.ts`).
 */
export async function removeHostNetwork(run: HostCommand, layout: NodeHostLayout): Promise<void> {
  if ((await run('ip', ['link', 'show', 'dev', NODE_BRIDGE])).code === 0) {
    await mustRun(run, 'ip', ['link', 'delete', 'dev', NODE_BRIDGE]);
  }
  if (existsSync(layout.ipForwardRecord)) {
    const original = (await readFile(layout.ipForwardRecord, 'utf8')).trim();
    if (original === '0' || original === '1') await writeFile(IP_FORWARD, original);
    await rm(layout.ipForwardRecord, { force: true });
  }
}
