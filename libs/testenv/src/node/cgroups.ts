import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const CGROUP_MOUNT = '/sys/fs/cgroup';

/**
 * Creates `cgroupRoot` (the kubelet's `cgroupRoot`) in every mounted hierarchy, so the kubelet finds it in each
 * controller it checks: each cgroup v1 controller and the hybrid `unified` one (these machines), or the one cgroup2
 * hierarchy when `/sys/fs/cgroup` is cgroup2 itself (untested here: hosted runners). A new cpuset cgroup accepts no
 * task until `cpuset.cpus` and `cpuset.mems` are set, so those are copied from the parent. Idempotent.
 */
export async function ensureCgroupRoot(cgroupRoot: string): Promise<void> {
  if (existsSync(join(CGROUP_MOUNT, 'cgroup.controllers'))) {
    await mkdir(join(CGROUP_MOUNT, cgroupRoot), { recursive: true });
    return;
  }
  for (const hierarchy of await readdir(CGROUP_MOUNT)) {
    const parent = join(CGROUP_MOUNT, hierarchy);
    if (!existsSync(join(parent, 'cgroup.procs'))) continue;
    const dir = join(parent, cgroupRoot);
    await mkdir(dir, { recursive: true });
    for (const file of ['cpuset.cpus', 'cpuset.mems']) {
      if (!existsSync(join(dir, file))) continue;
      if ((await readFile(join(dir, file), 'utf8')).trim() !== '') continue;
      await writeFile(join(dir, file), await readFile(join(parent, file), 'utf8'));
    }
  }
}
