import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchDir } from '../scratch-dir.spec-support.ts';
import { digestHex, fileHasher, sha256Hex } from './digest.ts';

describe('fileHasher', () => {
  it('hashes a file, remembers it across hashers while it is unchanged, and rehashes it after a change', async () => {
    const dir = scratchDir('digest-spec-');
    const file = join(dir, 'input');
    const stamps = join(dir, 'stamps');
    writeFileSync(file, 'one');
    expect(await fileHasher(stamps)(file)).toEqual({ sha256: sha256Hex('one'), size: 3 });
    expect(readdirSync(stamps)).toHaveLength(1);
    expect(await fileHasher(stamps)(file)).toEqual({ sha256: sha256Hex('one'), size: 3 });
    writeFileSync(file, 'two!');
    expect(await fileHasher(stamps)(file)).toEqual({ sha256: sha256Hex('two!'), size: 4 });
    expect(await fileHasher()(file)).toEqual({ sha256: sha256Hex('two!'), size: 4 });
  });
});

describe('digestHex', () => {
  it('accepts only sha256 digests', () => {
    expect(digestHex(`sha256:${'a'.repeat(64)}`)).toBe('a'.repeat(64));
    expect(() => digestHex('sha512:abc')).toThrow(/not a sha256 digest/);
  });
});
