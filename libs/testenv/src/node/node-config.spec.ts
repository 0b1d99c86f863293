import { describe, expect, it } from 'vitest';
import { corednsManifests, corefile, localPathManifests } from './addons.ts';
import { renderCniConflist } from './cni-config.ts';
import { renderContainerdConfig } from './containerd-config.ts';
import { nodeHostLayout } from './host-layout.ts';
import { renderKubeProxyConfig } from './kube-proxy-config.ts';
import { kubeletArgs, renderKubeletConfig } from './kubelet-config.ts';
import { forwardGuardRules } from './network.ts';

const layout = nodeHostLayout('/x');

describe('the node configuration', () => {
  it('keeps containerd inside our own root, state, socket and network-namespace directory', () => {
    const toml = renderContainerdConfig({ layout, sandboxImage: 'localhost/pause:1', cniConfDir: '/c/cni', cniBinDir: '/usr/lib/cni' });
    expect(toml).toContain('root = "/x/var/lib/domain-operators-testenv/containerd"');
    expect(toml).toContain('state = "/x/run/domain-operators-testenv/containerd"');
    expect(toml).toContain('address = "/x/run/domain-operators-testenv/containerd.sock"');
    expect(toml).toContain('restrict_oom_score_adj = true');
    expect(toml).toContain('netns_mounts_under_state_dir = true');
    expect(toml).toContain('sandbox = "localhost/pause:1"');
    expect(toml).toContain('"io.containerd.nri.v1.nri"');
  });

  it('puts Pods on our bridge with host-local IPAM in our own directory and no masquerading', () => {
    const conflist = JSON.parse(renderCniConflist('/x/cni')) as { plugins: { type: string; bridge?: string; ipMasq?: boolean; ipam?: { dataDir?: string } }[] };
    expect(conflist.plugins.map((p) => p.type)).toEqual(['bridge', 'portmap']);
    expect(conflist.plugins[0]).toMatchObject({ bridge: 'dop0', ipMasq: false, ipam: { dataDir: '/x/cni' } });
  });

  it('runs the kubelet under our cgroup root, with cluster DNS, our resolv.conf and no image garbage collection', () => {
    const config = JSON.parse(renderKubeletConfig({ layout, clientCaFile: '/pki/client-ca.crt', resolvConf: '/c/resolv.conf' })) as Record<string, unknown>;
    expect(config).toMatchObject({
      failCgroupV1: false,
      cgroupDriver: 'cgroupfs',
      cgroupRoot: '/domain-operators-testenv',
      address: '10.244.0.1',
      readOnlyPort: 0,
      clusterDNS: ['10.0.0.10'],
      resolvConf: '/c/resolv.conf',
      imageGCHighThresholdPercent: 100,
      authentication: { anonymous: { enabled: false }, x509: { clientCAFile: '/pki/client-ca.crt' } },
      authorization: { mode: 'Webhook' },
    });
    expect(kubeletArgs({ config: '/c/k.yaml', kubeconfig: '/c/k.kubeconfig', layout })).toContain('--root-dir=/x/var/lib/domain-operators-testenv/kubelet');
  });

  it('keeps kube-proxy off localhost NodePorts and conntrack sysctls', () => {
    const config = JSON.parse(renderKubeProxyConfig('/c/p.kubeconfig')) as Record<string, unknown>;
    expect(config).toMatchObject({ mode: 'iptables', clusterCIDR: '10.244.0.0/24', iptables: { localhostNodePorts: false }, conntrack: { maxPerCore: 0, min: 0 } });
  });

  it('lets Pods talk to each other and rejects anything else forwarded', () => {
    expect(forwardGuardRules()).toEqual([
      ['-s', '10.244.0.0/24', '-d', '10.244.0.0/24', '-j', 'ACCEPT'],
      ['-s', '10.244.0.0/24', '-j', 'REJECT'],
      ['-d', '10.244.0.0/24', '-j', 'REJECT'],
    ]);
  });
});

describe('the add-ons', () => {
  const images = { coredns: 'localhost/coredns:1', localPathProvisioner: 'localhost/lpp:1', busybox: 'localhost/busybox:1' };

  it('serves cluster.local and forwards nothing off the machine', () => {
    expect(corefile()).toContain('kubernetes cluster.local in-addr.arpa ip6.arpa');
    expect(corefile()).not.toContain('forward');
  });

  it('gives kube-dns its fixed ClusterIP and runs CoreDNS from the local image only', () => {
    const objects = corednsManifests(images);
    const service = objects.find((o) => o.kind === 'Service') as unknown as { spec: { clusterIP: string } };
    expect(service.spec.clusterIP).toBe('10.0.0.10');
    expect(JSON.stringify(objects)).toContain('"imagePullPolicy":"Never"');
  });

  it('makes the local-path StorageClass the default and keeps volumes in our directory', () => {
    const objects = localPathManifests(images, { localPathDir: '/x/local-path' });
    const storageClass = objects.find((o) => o.kind === 'StorageClass');
    expect(storageClass?.metadata?.annotations?.['storageclass.kubernetes.io/is-default-class']).toBe('true');
    expect(JSON.stringify(objects)).toContain('/x/local-path');
  });
});
