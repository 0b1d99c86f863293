import { describe, expect, it } from 'vitest';
import { defineImages, IMAGE_IDS } from './definitions.ts';

const inputs = {
  pause: '/bin/pause',
  coredns: { binary: '/bin/coredns', version: 'v1.15.0' },
  localPathProvisioner: { binary: '/bin/lpp', version: 'v0.0.30' },
  node: { binary: '/bin/node', version: '24.9.0' },
  operators: {
    kafka: { bundleDir: '/d/kafka', reference: 'ghcr.io/domain-operators/kafka-operator:0.1.0' },
    opensearch: { bundleDir: '/d/opensearch', reference: 'ghcr.io/domain-operators/opensearch-operator:0.1.0' },
    redis: { bundleDir: '/d/redis', reference: 'ghcr.io/domain-operators/redis-operator:0.1.0' },
  },
};

describe('defineImages', () => {
  it('defines every image, in the order asked, sharing the base and Node layers between operators', () => {
    const defs = defineImages(IMAGE_IDS, inputs);
    expect(defs.map((d) => d.id)).toEqual([...IMAGE_IDS]);
    const [kafka, opensearch] = defs.filter((d) => d.id.endsWith('-operator'));
    expect(kafka?.layers[0]).toBe(opensearch?.layers[0]);
    expect(kafka?.layers[1]).toBe(opensearch?.layers[1]);
    expect(kafka?.layers[2]).not.toBe(opensearch?.layers[2]);
    const coredns = defs.find((d) => d.id === 'coredns');
    expect(coredns?.layers[0]).toBe(defs.find((d) => d.id === 'local-path-provisioner')?.layers[0]);
  });

  it('names images from what the build found', () => {
    const facts = { manifestDigest: `sha256:${'ab'.repeat(32)}` as const, packages: new Map([['redis-server', '5:7.0.15-1~deb12u10'], ['busybox-static', '1:1.35.0-4+deb12u1+b1']]) };
    const names = Object.fromEntries(defineImages(IMAGE_IDS, inputs).map((d) => [d.id, d.reference(facts)]));
    expect(names).toEqual({
      pause: 'localhost/domain-operators/pause:abababababab',
      busybox: 'localhost/domain-operators/busybox:1.35.0-4_deb12u1_b1',
      redis: 'localhost/domain-operators/redis:7.0.15-1_deb12u10',
      coredns: 'localhost/domain-operators/coredns:v1.15.0',
      'local-path-provisioner': 'localhost/domain-operators/local-path-provisioner:v0.0.30',
      'kafka-operator': 'ghcr.io/domain-operators/kafka-operator:0.1.0',
      'opensearch-operator': 'ghcr.io/domain-operators/opensearch-operator:0.1.0',
      'redis-operator': 'ghcr.io/domain-operators/redis-operator:0.1.0',
    });
  });

  it('names every missing input of the images asked for, and none of the others', () => {
    expect(() => defineImages(['pause', 'coredns', 'kafka-operator'], {})).toThrow(
      'images: missing inputs: pause: the pause binary; coredns: the coredns binary and version; node: the pinned Node binary; kafka-operator: dist/operators/kafka (nx run kafka-operator:build) and the chart\'s image',
    );
    expect(defineImages(['redis', 'busybox'], {}).map((d) => d.id)).toEqual(['redis', 'busybox']);
  });
});
