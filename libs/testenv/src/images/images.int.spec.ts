// Builds the images for real (apt metadata and .deb files from the Debian archive through apt, dpkg-deb,
// gzip) and checks their archives. The Go programs (pause, CoreDNS, local-path-provisioner) are not inputs of
// this test: busybox-static's /bin/busybox stands in for them, so the images around them are exercised; the
// operator images get a stand-in bundle and the project's pinned Node binary. No containerd is started here.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths } from '../paths.ts';
import { Apt } from './apt.ts';
import { checkArchive, type ArchiveSummary } from './archive-check.ts';
import { buildImages, type BuildDeps, type BuiltImage } from './builder.ts';
import { defineImages, IMAGE_IDS, OPERATOR_SYSTEMS, type ImageInputs, type OperatorInput, type OperatorSystem } from './definitions.ts';
import { fileHasher } from './digest.ts';
import { imageCacheLayout } from './ensure-images.ts';
import { execFileCapture } from './exec.ts';
import { pinnedNode } from './inputs.ts';
import { LayerCache } from './layer-cache.ts';

const STAND_IN = '/bin/busybox';
const isRoot = process.getuid?.() === 0;
const paths = resolvePaths();

function deps(dir: string): BuildDeps {
  const shared = imageCacheLayout(paths.cacheDir);
  return {
    tools: { hashFile: fileHasher(), apt: new Apt({ aptCacheDir: shared.apt, debCacheDir: shared.debs, exec: execFileCapture, root: isRoot }), exec: execFileCapture, isRoot },
    layers: new LayerCache(join(dir, 'layers')),
    archiveDir: join(dir, 'archives'),
    now: Date.now,
  };
}

async function inputs(dir: string): Promise<ImageInputs> {
  if (!existsSync(STAND_IN)) throw new Error(`${STAND_IN} is missing: apt-get install busybox-static (it stands in for the Go programs)`);
  const operators: Partial<Record<OperatorSystem, OperatorInput>> = {};
  for (const system of OPERATOR_SYSTEMS) {
    const bundleDir = join(dir, 'bundles', system);
    mkdirSync(bundleDir, { recursive: true });
    writeFileSync(join(bundleDir, 'main.js'), `console.log('${system} stand-in');\n`);
    writeFileSync(join(bundleDir, 'main.js.map'), '{"version":3,"sources":[],"mappings":""}\n');
    operators[system] = { bundleDir, reference: `ghcr.io/domain-operators/${system}-operator:0.1.0` };
  }
  return {
    pause: STAND_IN,
    coredns: { binary: STAND_IN, version: 'v0.0.0-stand-in' },
    localPathProvisioner: { binary: STAND_IN, version: 'v0.0.0-stand-in' },
    node: await pinnedNode(paths.root),
    operators,
  };
}

describe('images', () => {
  let first: BuiltImage[];
  let second: BuiltImage[];
  let warm: BuiltImage[];
  let warmMillis: number;
  const summaries = new Map<string, ArchiveSummary>();
  const made: string[] = [];
  const tempDir = (prefix: string): string => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };

  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });

  beforeAll(async () => {
    if (!isRoot) throw new Error('the image build unpacks Debian packages with dpkg-deb -x, which keeps their owners only as root');
    const dir = tempDir('testenv-images-');
    const input = await inputs(dir);
    // Two builds into two empty layer caches: the digests must not depend on anything but the inputs.
    first = await buildImages(defineImages(IMAGE_IDS, input), deps(join(dir, 'a')));
    second = await buildImages(defineImages(IMAGE_IDS, input), deps(join(dir, 'b')));
    const started = Date.now();
    warm = await buildImages(defineImages(IMAGE_IDS, input), deps(join(dir, 'b')));
    warmMillis = Date.now() - started;
    for (const image of first) summaries.set(image.id, checkArchive(readFileSync(image.archive)));
  }, 900_000);

  it('writes archives whose manifests, blobs and diff_ids agree with what the build reported', () => {
    for (const image of first) {
      const summary = summaries.get(image.id);
      expect(summary?.reference).toBe(image.reference);
      expect(summary?.tag).toBe(image.reference.slice(image.reference.lastIndexOf(':') + 1));
      expect(summary?.manifestDigest).toBe(image.manifestDigest);
      expect(summary?.layers.map((l) => [l.digest, l.diffId])).toEqual(image.layers.map((l) => [l.digest, l.diffId]));
    }
  });

  it('gives the same digests when built again from nothing, and builds nothing when nothing changed', () => {
    expect(second.map((i) => [i.id, i.manifestDigest, ...i.layers.map((l) => l.digest)])).toEqual(first.map((i) => [i.id, i.manifestDigest, ...i.layers.map((l) => l.digest)]));
    expect(warm.map((i) => i.manifestDigest)).toEqual(first.map((i) => i.manifestDigest));
    expect(warm.flatMap((i) => i.layers.filter((l) => !l.cached).map((l) => `${i.id}: ${l.description}`))).toEqual([]);
    expect(warm.filter((i) => i.archiveWritten).map((i) => i.id)).toEqual([]);
    expect(warmMillis).toBeLessThan(5_000);
  });

  it('names the images after what they hold', () => {
    const names = Object.fromEntries(first.map((i) => [i.id, i.reference]));
    expect(names['redis']).toMatch(/^localhost\/domain-operators\/redis:7\.0\.\d+-[\w.]+$/);
    expect(names['busybox']).toMatch(/^localhost\/domain-operators\/busybox:1\.\d+\.\d+-[\w.]+$/);
    expect(names['pause']).toBe(`localhost/domain-operators/pause:${first[0]?.manifestDigest.slice(7, 19) ?? ''}`);
    expect(names['kafka-operator']).toBe('ghcr.io/domain-operators/kafka-operator:0.1.0');
  });

  it('puts the programs, users and certificates where the images run them', () => {
    const inImage = (id: string): string[] => summaries.get(id)?.layerPaths.flat() ?? [];
    expect(inImage('redis')).toEqual(expect.arrayContaining(['usr/bin/redis-server', 'usr/bin/redis-cli', 'bin/sh', 'bin/grep', 'data', 'etc/passwd', 'tmp']));
    expect(inImage('busybox')).toEqual(expect.arrayContaining(['bin/busybox', 'bin/sh', 'bin/mkdir', 'bin/rm']));
    expect(inImage('kafka-operator')).toEqual(
      expect.arrayContaining(['usr/local/bin/node', 'app/main.js', 'app/main.js.map', 'etc/ssl/certs/ca-certificates.crt', 'lib64/ld-linux-x86-64.so.2', 'home/nonroot', 'usr/share/zoneinfo/UTC']),
    );
    expect(inImage('kafka-operator')).not.toContain('usr/bin/perl');
    expect(summaries.get('redis')?.config).toMatchObject({ config: { User: '999:999', WorkingDir: '/data', Cmd: ['redis-server'] } });
  });

  /** The root filesystem of a built image, its layers unpacked in order with GNU tar. */
  function unpack(id: string): string {
    const image = first.find((i) => i.id === id);
    if (image === undefined) throw new Error(`no image ${id}`);
    const archive = tempDir('testenv-archive-');
    const root = tempDir('testenv-rootfs-');
    chmodSync(root, 0o755); // a snapshotter's root directory; mkdtemp makes it 0700
    execFileSync('tar', ['-xf', image.archive, '-C', archive]);
    for (const layer of image.layers) execFileSync('tar', ['-xzf', join(archive, 'blobs', 'sha256', layer.digest.slice('sha256:'.length)), '-C', root]);
    return root;
  }
  const chroot = (root: string, user: string, ...command: string[]): string =>
    execFileSync('/usr/sbin/chroot', [`--userspec=${user}`, root, ...command], { encoding: 'utf8', env: { PATH: '/usr/local/bin:/usr/bin:/bin' } });

  it('gives root filesystems in which the programs run as the image user (checked in a chroot)', () => {
    const redis = unpack('redis');
    expect(chroot(redis, '999:999', '/usr/bin/redis-server', '--version')).toMatch(/^Redis server v=7\.0\./);
    expect(chroot(redis, '999:999', '/bin/sh', '-c', 'redis-cli --version | grep -c redis-cli; cd /data && ls -d .')).toBe('1\n.\n');
    const operator = unpack('kafka-operator');
    expect(chroot(operator, '65532:65532', '/usr/local/bin/node', '/app/main.js')).toBe('kafka stand-in\n');
    expect(chroot(operator, '65532:65532', '/usr/local/bin/node', '-p', 'require("os").userInfo().username + " " + process.version')).toMatch(/^nonroot v24\./);
  });
});
