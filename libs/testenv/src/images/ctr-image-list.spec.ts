import { describe, expect, it } from 'vitest';
import { parseCtrImages } from './ctr-image-list.ts';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;

// Output of containerd 1.6.20's ctr against a throwaway containerd, with the digests replaced.
const LS = `REF                                                TYPE                                       DIGEST  SIZE     PLATFORMS   LABELS 
ghcr.io/domain-operators/kafka-operator:0.1.0      application/vnd.oci.image.manifest.v1+json ${D1} 56.1 MiB linux/amd64 -      
localhost/domain-operators/pause:9dce5cea6faf      application/vnd.oci.image.manifest.v1+json ${D2} 1.0 MiB  linux/amd64 -      
`;
const CHECK = `REF                                                TYPE                                       DIGEST  STATUS         SIZE              UNPACKED 
ghcr.io/domain-operators/kafka-operator:0.1.0      application/vnd.oci.image.manifest.v1+json ${D1} complete (4/4) 56.1 MiB/56.1 MiB true
localhost/domain-operators/pause:9dce5cea6faf      application/vnd.oci.image.manifest.v1+json ${D2} incomplete (1/2) 0.5 MiB/1.0 MiB false
`;

describe('parseCtrImages', () => {
  it('reads reference and digest from `images ls`', () => {
    expect(parseCtrImages(LS)).toEqual([
      { reference: 'ghcr.io/domain-operators/kafka-operator:0.1.0', digest: D1 },
      { reference: 'localhost/domain-operators/pause:9dce5cea6faf', digest: D2 },
    ]);
  });

  it('reads the unpacked column of `images check` although STATUS and SIZE hold spaces', () => {
    expect(parseCtrImages(CHECK).map((i) => [i.reference, i.unpacked])).toEqual([
      ['ghcr.io/domain-operators/kafka-operator:0.1.0', true],
      ['localhost/domain-operators/pause:9dce5cea6faf', false],
    ]);
  });

  it('returns nothing for an empty store or unexpected output', () => {
    expect(parseCtrImages('')).toEqual([]);
    expect(parseCtrImages('ctr: failed to dial\n')).toEqual([]);
  });
});
