import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '../process.ts';
import { nodeHostLayout } from './host-layout.ts';

/**
 * The host pid of a running container's first process (what `ctr task ls` shows), read from the runc shim's
 * `init.pid` in the node's containerd state, so a test can kill, freeze (SIGSTOP) or measure a container's process
 * as the kernel sees it. `containerId` is the id without the `containerd://` scheme, as a Pod's
 * `status.containerStatuses[].containerID` ends. `undefined` when that container is not running on testenv's node.
 * Read-only; stale the moment it returns (the kubelet may restart the container).
 */
export function containerHostPid(containerId: string, stateDir: string = nodeHostLayout().containerdStateDir): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(stateDir, 'io.containerd.runtime.v2.task', 'k8s.io', containerId, 'init.pid'), 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}
