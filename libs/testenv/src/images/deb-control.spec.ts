import { describe, expect, it } from 'vitest';
import { parsePackages, parseRelations } from './deb-control.ts';

const SHOW = `Package: redis-server
Version: 5:7.0.15-1~deb12u10
Architecture: amd64
Pre-Depends: init-system-helpers (>= 1.54~)
Depends: lsb-base (>= 3.2-14), redis-tools (= 5:7.0.15-1~deb12u10)
Description: Persistent key-value database
 with network interface
Filename: pool/updates/main/r/redis/redis-server_7.0.15-1~deb12u10_amd64.deb
SHA256: 784e17b51024ff878fd7d709a68346658fa9b21f6de740cb75e474f28790971c

Package: tzdata
Version: 2026f-0+deb12u1
Architecture: all
Depends: debconf (>= 0.5) | debconf-2.0
Filename: pool/main/t/tzdata/tzdata_2026f-0+deb12u1_all.deb
SHA256: 0000000000000000000000000000000000000000000000000000000000000000
`;

describe('parsePackages', () => {
  it('reads name, version, file, hash and Pre-Depends before Depends', () => {
    const [redis, tzdata] = parsePackages(SHOW);
    expect(redis).toEqual({
      name: 'redis-server',
      version: '5:7.0.15-1~deb12u10',
      architecture: 'amd64',
      file: 'redis-server_7.0.15-1~deb12u10_amd64.deb',
      sha256: '784e17b51024ff878fd7d709a68346658fa9b21f6de740cb75e474f28790971c',
      depends: [['init-system-helpers'], ['lsb-base'], ['redis-tools']],
    });
    expect(tzdata?.depends).toEqual([['debconf', 'debconf-2.0']]);
  });

  it('refuses a stanza without a Filename', () => {
    expect(() => parsePackages('Package: x\nVersion: 1\nSHA256: ab\n')).toThrow(/no Filename/);
  });
});

describe('parseRelations', () => {
  it('drops versions and architecture qualifiers and keeps alternatives in order', () => {
    expect(parseRelations('libc6 (>= 2.34), perl:any, a [amd64] | b <!nocheck>')).toEqual([['libc6'], ['perl'], ['a', 'b']]);
    expect(parseRelations('')).toEqual([]);
  });
});
