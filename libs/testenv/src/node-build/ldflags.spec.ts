import { describe, expect, it } from 'vitest';
import { addonLdflags } from './ldflags.ts';

describe('addonLdflags', () => {
  it('strips symbols from every program', () => {
    for (const flags of [
      addonLdflags.containerd('v2.2.1'),
      addonLdflags.coredns('0123456789abcdef'),
      addonLdflags.localPathProvisioner('v0.0.30'),
      addonLdflags.pause('0123456789abcdef'),
    ]) {
      expect(flags.split(' ').slice(0, 2)).toEqual(['-s', '-w']);
    }
  });

  it('stamps the variables containerd’s Makefile sets', () => {
    const flags = addonLdflags.containerd('v2.2.1');
    const pkg = 'github.com/containerd/containerd/v2';
    expect(flags).toContain(`-X ${pkg}/version.Version=v2.2.1`);
    expect(flags).toContain(`-X ${pkg}/version.Package=${pkg}`);
  });

  it('stamps CoreDNS’s commit variable, local-path-provisioner’s version and our pause’s version', () => {
    expect(addonLdflags.coredns('0123456789abcdef')).toContain(
      '-X github.com/coredns/coredns/coremain.GitCommit=testenv-0123456789abcdef',
    );
    expect(addonLdflags.localPathProvisioner('v0.0.30')).toContain('-X main.VERSION=v0.0.30');
    expect(addonLdflags.pause('0123456789abcdef')).toContain('-X main.version=0123456789abcdef');
  });
});
