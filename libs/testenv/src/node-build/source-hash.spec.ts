import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashSources, packageSourceHash } from './source-hash.ts';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('hashSources', () => {
  it('is 16 hex digits and does not depend on the order of the files', () => {
    const a = { path: 'a.go', content: bytes('package a') };
    const b = { path: 'b.go', content: bytes('package b') };
    expect(hashSources([a, b])).toMatch(/^[0-9a-f]{16}$/);
    expect(hashSources([a, b])).toBe(hashSources([b, a]));
  });

  it('changes when bytes move from one file to the next, or a file is renamed', () => {
    const base = hashSources([
      { path: 'a', content: bytes('xy') },
      { path: 'b', content: bytes('z') },
    ]);
    expect(
      hashSources([
        { path: 'a', content: bytes('x') },
        { path: 'b', content: bytes('yz') },
      ]),
    ).not.toBe(base);
    expect(
      hashSources([
        { path: 'a', content: bytes('xy') },
        { path: 'c', content: bytes('z') },
      ]),
    ).not.toBe(base);
  });
});

describe('packageSourceHash', () => {
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'source-hash-'));
    await mkdir(join(dir, 'cmd', 'p', 'sub'), { recursive: true });
    await writeFile(join(dir, 'go.mod'), 'module m\n');
    await writeFile(join(dir, 'go.sum'), '');
    await writeFile(join(dir, 'cmd', 'p', 'main.go'), 'package main\n');
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('covers the package’s Go files and the module’s go.mod and go.sum', async () => {
    const before = await packageSourceHash(dir, 'cmd/p');
    await writeFile(join(dir, 'go.sum'), 'example.com/x v1.0.0 h1:abc=\n');
    const afterSum = await packageSourceHash(dir, 'cmd/p');
    expect(afterSum).not.toBe(before);
    await writeFile(join(dir, 'cmd', 'p', 'main.go'), 'package main\n\nfunc main() {}\n');
    expect(await packageSourceHash(dir, 'cmd/p')).not.toBe(afterSum);
  });

  it('ignores tests, other files and sub-folders', async () => {
    const before = await packageSourceHash(dir, 'cmd/p');
    await writeFile(join(dir, 'cmd', 'p', 'main_test.go'), 'package main\n');
    await writeFile(join(dir, 'cmd', 'p', 'README.md'), 'notes\n');
    await writeFile(join(dir, 'cmd', 'p', 'sub', 'x.go'), 'package sub\n');
    expect(await packageSourceHash(dir, 'cmd/p')).toBe(before);
  });
});
