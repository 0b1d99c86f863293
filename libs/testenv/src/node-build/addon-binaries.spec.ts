import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeAddonPaths } from './addon-binaries.ts';
import type { NodeAddonVersions } from './addon-versions.ts';

const versions: NodeAddonVersions = {
  containerd: 'v2.2.1',
  coredns: 'v1.15.0',
  localPathProvisioner: 'v0.0.30',
  corednsBuild: '0123456789abcdef',
  pause: 'fedcba9876543210',
};

describe('nodeAddonPaths', () => {
  const paths = nodeAddonPaths('/cache', versions);

  it('puts containerd, its shim and ctr in one bin folder keyed by the containerd version', () => {
    expect(paths.binDir).toBe('/cache/node/containerd/v2.2.1/bin');
    for (const binary of [paths.containerd, paths.containerdShim, paths.ctr]) {
      expect(dirname(binary)).toBe(paths.binDir);
    }
    // containerd looks the shim up on its PATH by this exact name.
    expect(basename(paths.containerdShim)).toBe('containerd-shim-runc-v2');
    expect(basename(paths.containerd)).toBe('containerd');
    expect(basename(paths.ctr)).toBe('ctr');
  });

  it('keys upstream programs by version and ours by source hash', () => {
    expect(paths.localPathProvisioner).toBe('/cache/node/local-path-provisioner/v0.0.30/local-path-provisioner');
    expect(paths.coredns).toBe('/cache/node/coredns/v1.15.0-0123456789abcdef/coredns');
    expect(paths.pause).toBe('/cache/node/pause/fedcba9876543210/pause');
    expect(paths.versions).toBe(versions);
  });

  it('gives a changed source hash a new folder, so an old build is never taken for a new one', () => {
    const changed = nodeAddonPaths('/cache', {
      ...versions,
      pause: '1111111111111111',
      corednsBuild: '2222222222222222',
    });
    expect(changed.pause).not.toBe(paths.pause);
    expect(changed.coredns).not.toBe(paths.coredns);
    expect(changed.binDir).toBe(paths.binDir);
    expect(join(changed.binDir, '..', '..')).toBe('/cache/node/containerd');
  });
});
