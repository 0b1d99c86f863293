import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { versionLdflags } from './build.ts';
import { majorMinor, readPinnedVersions, requirement } from './versions.ts';

describe('requirement', () => {
  it('finds a module in a require block and on a single require line', () => {
    const goMod = 'module x\n\nrequire k8s.io/kubernetes v1.35.8\n\nrequire (\n\tgo.etcd.io/etcd/server/v3 v3.6.5 // indirect\n)\n';
    expect(requirement(goMod, 'k8s.io/kubernetes')).toBe('v1.35.8');
    expect(requirement(goMod, 'go.etcd.io/etcd/server/v3')).toBe('v3.6.5');
  });

  it('does not match a module whose path only starts with the name', () => {
    expect(() => requirement('require k8s.io/kubernetes-extra v1.0.0\n', 'k8s.io/kubernetes')).toThrow(/does not require/);
  });
});

describe('readPinnedVersions', () => {
  it('reads the versions the Go module pins', async () => {
    const versions = await readPinnedVersions(fileURLToPath(new URL('../../go', import.meta.url)));
    expect(versions.kubernetes).toMatch(/^v1\.\d+\.\d+$/);
    expect(versions.etcd).toMatch(/^v3\.\d+\.\d+$/);
  });
});

describe('versionLdflags', () => {
  it('stamps component-base and client-go with the version and its parts', () => {
    const flags = versionLdflags('v1.35.8');
    expect(majorMinor('v1.35.8')).toEqual({ major: '1', minor: '35' });
    for (const pkg of ['k8s.io/component-base/version', 'k8s.io/client-go/pkg/version']) {
      expect(flags).toContain(`-X ${pkg}.gitVersion=v1.35.8`);
      expect(flags).toContain(`-X ${pkg}.gitMajor=1`);
      expect(flags).toContain(`-X ${pkg}.gitMinor=35`);
    }
  });
});
