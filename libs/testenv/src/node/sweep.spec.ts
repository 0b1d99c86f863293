import { describe, expect, it } from 'vitest';
import { mountPointsUnder } from './sweep.ts';

describe('mountPointsUnder', () => {
  const mountinfo = [
    '22 1 8:1 / / rw - ext4 /dev/vda rw',
    '100 22 0:50 / /var/lib/domain-operators-testenv/kubelet/pods/a/volumes/kubernetes.io~secret/s rw - tmpfs tmpfs rw',
    '101 22 0:51 / /run/domain-operators-testenv/containerd/io.containerd.runtime.v2.task/k8s.io/abc/rootfs rw - overlay overlay rw',
    '102 22 0:52 / /var/lib/domain-operators-testenv/kubelet/pods/with\\040space rw - tmpfs tmpfs rw',
    '103 22 0:4 / /run/netns/cni-1 rw - nsfs nsfs rw',
    '104 22 0:53 / /var/lib/domain-operators-testenv-other rw - tmpfs tmpfs rw',
    '',
  ].join('\n');

  it('lists only mounts below our directories, deepest first, with escapes decoded', () => {
    expect(mountPointsUnder(mountinfo, ['/var/lib/domain-operators-testenv', '/run/domain-operators-testenv'])).toEqual([
      '/var/lib/domain-operators-testenv/kubelet/pods/a/volumes/kubernetes.io~secret/s',
      '/run/domain-operators-testenv/containerd/io.containerd.runtime.v2.task/k8s.io/abc/rootfs',
      '/var/lib/domain-operators-testenv/kubelet/pods/with space',
    ]);
  });
});
