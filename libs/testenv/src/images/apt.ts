import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePackages, type DebPackage } from './deb-control.ts';
import { sha256File, sha256Hex } from './digest.ts';
import type { Exec } from './exec.ts';
import type { PackageSource } from './image-definition.ts';

/** Where {@link Apt} keeps its files. */
export interface AptOptions {
  /**
   * Holds apt's binary caches (`pkgcache.bin`, `srcpkgcache.bin`: Debian's Docker images disable the system
   * ones, and without them every `apt-cache` call re-parses the lists, about 1.7 s instead of 0.3 s).
   */
  readonly aptCacheDir: string;
  /** The downloaded `.deb` files, named as in the index. */
  readonly debCacheDir: string;
  readonly exec: Exec;
  /** True when running as root: apt's download sandbox user `_apt` cannot write into our cache then. */
  readonly root: boolean;
  /**
   * What decides apt's candidates: the downloaded lists and apt's configuration (sources, pinning). Their
   * files' names, sizes and mtimes key the cached answers of {@link Apt.index}. Default: Debian's locations.
   */
  readonly stateDirs?: readonly string[];
}

/** Where apt keeps the package lists and its configuration on Debian. */
const APT_STATE_DIRS = ['/var/lib/apt/lists', '/etc/apt'];

/** Added to apt errors: what fixes their usual cause. */
const UPDATE_HINT = 'run `apt-get update` if the apt lists are missing or stale';

/**
 * The machine's apt, used read-only: package metadata through `apt-cache` and `.deb` files through
 * `apt-get download` (no install, no root needed except that a root caller must not use the `_apt` sandbox).
 */
export class Apt implements PackageSource {
  private readonly options: AptOptions;

  constructor(options: AptOptions) {
    this.options = options;
  }

  /**
   * The candidate of every real package reachable from `roots` through any relation apt follows with
   * recommends, suggests and the negative relations off (a superset of what {@link resolveClosure} takes),
   * by name. Two `apt-cache` calls, or none when the answer for these roots is cached and apt's lists and
   * configuration have not changed since (`<aptCacheDir>/index-<key>.json`, written atomically).
   */
  async index(roots: readonly string[]): Promise<Map<string, DebPackage>> {
    const key = sha256Hex(JSON.stringify({ roots: [...roots].sort(), state: await stateStamp(this.options.stateDirs ?? APT_STATE_DIRS) }));
    const cached = join(this.options.aptCacheDir, `index-${key}.json`);
    const known = await readFile(cached, 'utf8').then((text) => JSON.parse(text) as DebPackage[], () => undefined);
    if (known !== undefined) return new Map(known.map((pkg) => [pkg.name, pkg]));

    const flags = ['--recurse', '--no-recommends', '--no-suggests', '--no-conflicts', '--no-breaks', '--no-replaces', '--no-enhances'];
    const depends = await this.aptCache(['depends', ...flags, ...roots]);
    const names = [...new Set(depends.split('\n').filter((line) => /^[a-z0-9]/.test(line)).map((line) => line.trim()))].sort();
    const packages = parsePackages(await this.aptCache(['show', '--no-all-versions', ...names]));
    const tmp = `${cached}.${process.pid}.tmp`;
    await writeFile(tmp, JSON.stringify(packages));
    await rename(tmp, cached);
    return new Map(packages.map((pkg) => [pkg.name, pkg]));
  }

  /**
   * The path of each package's `.deb` in the cache, downloading the missing ones (one `apt-get download` call
   * for all, into a temporary folder, then checked against the index's SHA-256 and renamed into place).
   */
  async download(packages: readonly DebPackage[]): Promise<Map<string, string>> {
    const dir = this.options.debCacheDir;
    await mkdir(dir, { recursive: true });
    const paths = new Map(packages.map((pkg) => [pkg.name, join(dir, pkg.file)]));
    const missing: DebPackage[] = [];
    for (const pkg of packages) {
      const size = await stat(join(dir, pkg.file)).then((s) => s.size, () => -1);
      if (size < 0) missing.push(pkg);
    }
    if (missing.length === 0) return paths;
    const tmp = await mkdtemp(join(dir, '.download-'));
    try {
      const sandbox = this.options.root ? ['-o', 'APT::Sandbox::User=root'] : [];
      try {
        await this.options.exec('apt-get', [...sandbox, '-q', 'download', ...missing.map((pkg) => `${pkg.name}=${pkg.version}`)], { cwd: tmp });
      } catch (err) {
        throw new Error(`debian: downloading ${missing.length} packages failed (${UPDATE_HINT}): ${(err as Error).message}`, { cause: err });
      }
      const downloaded = await readdir(tmp);
      for (const pkg of missing) {
        // apt-get names files <name>_<version with the epoch's colon as %3a>_<arch>.deb.
        const file = downloaded.find((f) => f.startsWith(`${pkg.name}_`) && f.endsWith(`_${pkg.architecture}.deb`));
        if (file === undefined) throw new Error(`debian: apt-get download left no file for ${pkg.name} ${pkg.version}`);
        const { sha256 } = await sha256File(join(tmp, file));
        if (sha256 !== pkg.sha256) throw new Error(`debian: ${file} has SHA-256 ${sha256}, the index says ${pkg.sha256}`);
        await rename(join(tmp, file), join(dir, pkg.file));
      }
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
    return paths;
  }

  private async aptCache(args: readonly string[]): Promise<string> {
    await mkdir(this.options.aptCacheDir, { recursive: true });
    const caches = [
      '-o',
      `Dir::Cache::pkgcache=${join(this.options.aptCacheDir, 'pkgcache.bin')}`,
      '-o',
      `Dir::Cache::srcpkgcache=${join(this.options.aptCacheDir, 'srcpkgcache.bin')}`,
    ];
    try {
      return await this.options.exec('apt-cache', [...caches, ...args]);
    } catch (err) {
      throw new Error(`debian: apt-cache ${args[0] ?? ''} failed (${UPDATE_HINT}): ${(err as Error).message}`, { cause: err });
    }
  }
}

/** Name, size and mtime of every file below `dirs` (missing folders count as empty), sorted. */
async function stateStamp(dirs: readonly string[]): Promise<string[]> {
  const stamps: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await visit(path);
      else if (entry.name !== 'lock') {
        const info = await stat(path).catch(() => undefined);
        if (info !== undefined) stamps.push(`${path}:${info.size}:${info.mtimeMs}`);
      }
    }
  };
  for (const dir of dirs) await visit(dir);
  return stamps.sort();
}
