import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEBIAN_EXCLUSIONS } from './deb-exclusions.ts';
import { resolveClosure } from './deb-resolve.ts';
import { planItems, type LayerItem } from './file-layer.ts';
import { walkTree } from './fs-walk.ts';
import type { LayerSource, PlannedLayer } from './image-definition.ts';
import { layerKey } from './layer-cache.ts';
import { layerPath, normalizeEntries } from './layer-entries.ts';
import { caBundle } from './system-files.ts';
import type { TarEntry } from './tar.ts';

/** A change of owner, group or permission bits of a packaged path (what a maintainer script's `chown` would do). */
export interface PathAdjustment {
  /** Absolute path in the image; it must be in one of the packages. */
  readonly path: string;
  readonly mode?: number;
  readonly uid?: number;
  readonly gid?: number;
}

/** A root filesystem layer of Debian packages. */
export interface DebianLayerSpec {
  /** For the CLI, e.g. `distroless cc`. */
  readonly description: string;
  /** The packages asked for; their dependency closure is unpacked (see {@link resolveClosure}). */
  readonly packages: readonly string[];
  /**
   * Added after the packages, replacing a packaged entry at the same path: what maintainer scripts would create
   * (`/etc/passwd`, home and data directories) and fixed system files.
   */
  readonly items?: readonly LayerItem[];
  readonly adjustments?: readonly PathAdjustment[];
  /** Writes `/etc/ssl/certs/ca-certificates.crt` from the packaged `/usr/share/ca-certificates/**\/*.crt`. */
  readonly caBundle?: boolean;
  /** Defaults to {@link DEBIAN_EXCLUSIONS}. */
  readonly exclusions?: ReadonlyMap<string, string>;
}

const CA_DIR = 'usr/share/ca-certificates';
const CA_BUNDLE = 'etc/ssl/certs/ca-certificates.crt';

/**
 * The {@link LayerSource} of a Debian root filesystem, built without debootstrap and without running maintainer
 * scripts: the closure is resolved over the apt index, each `.deb` unpacked with `dpkg-deb -x` into one staging
 * folder (in package-name order, so a path two packages ship gets the later one's copy), walked into tar entries,
 * then adjusted and completed by `items` and the CA bundle. The key is computed before anything is downloaded:
 * the `.deb` file names (name, version, architecture) and SHA-256s from the index, the items, the adjustments
 * and whether the bundle is written. Unpacking needs root: `dpkg-deb -x` keeps the packages' owners only then.
 */
export function debianLayer(spec: DebianLayerSpec): LayerSource {
  return {
    async plan(tools): Promise<PlannedLayer> {
      const index = await tools.apt.index(spec.packages);
      const closure = resolveClosure(spec.packages, index, spec.exclusions ?? DEBIAN_EXCLUSIONS);
      const items = await planItems(spec.items ?? [], tools.hashFile);
      const adjustments = (spec.adjustments ?? []).map((a) => ({ ...a, path: layerPath(a.path) }));
      const key = layerKey({
        kind: 'debian',
        debs: closure.packages.map((p) => ({ file: p.file, sha256: p.sha256 })),
        items: items.key,
        adjustments,
        caBundle: spec.caBundle === true,
      });
      const packages = new Map(closure.packages.map((p) => [p.name, p.version]));
      return {
        key,
        description: `${spec.description}: ${closure.packages.length} Debian packages`,
        packages,
        async withEntries(use) {
          if (!tools.isRoot) throw new Error(`debian: unpacking ${spec.description} needs root (dpkg-deb -x keeps the packages' owners only as root)`);
          const debs = await tools.apt.download(closure.packages);
          const staging = await mkdtemp(join(tmpdir(), 'testenv-rootfs-'));
          try {
            for (const pkg of closure.packages) {
              const deb = debs.get(pkg.name);
              if (deb === undefined) throw new Error(`debian: no .deb of ${pkg.name} after downloading`);
              await tools.exec('dpkg-deb', ['-x', deb, staging]);
            }
            const packaged = await walkTree(staging);
            const entries = new Map<string, TarEntry>(packaged.map((e) => [e.path, e]));
            for (const a of adjustments) {
              const entry = entries.get(a.path);
              if (entry === undefined) throw new Error(`debian: ${spec.description} has no /${a.path} to adjust`);
              entries.set(a.path, adjust(entry, a));
            }
            if (spec.caBundle === true) {
              const certs = packaged.filter((e) => e.type === 'file' && e.path.startsWith(`${CA_DIR}/`));
              const files = await Promise.all(certs.map(async (e) => ({ name: e.path.slice(CA_DIR.length + 1), data: await readFile(join(staging, e.path)) })));
              if (files.length === 0) throw new Error(`debian: ${spec.description} asks for a CA bundle but ships no ${CA_DIR}`);
              entries.set(CA_BUNDLE, { type: 'file', path: CA_BUNDLE, mode: 0o644, uid: 0, gid: 0, content: { kind: 'bytes', data: caBundle(files) } });
            }
            for (const item of items.entries) entries.set(item.path, item);
            return await use(normalizeEntries(entries.values()));
          } finally {
            await rm(staging, { recursive: true, force: true });
          }
        },
      };
    },
  };
}

function adjust(entry: TarEntry, a: PathAdjustment): TarEntry {
  const owner = { uid: a.uid ?? entry.uid, gid: a.gid ?? entry.gid };
  if (entry.type === 'symlink') return { ...entry, ...owner };
  return { ...entry, ...owner, mode: a.mode ?? entry.mode };
}
