import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the test environment keeps its state, logs and build caches. */
export interface TestenvPaths {
  /** The repository root (the folder holding `nx.json`). */
  readonly root: string;
  /** `<root>/.testenv`: git-ignored state of the running environment. */
  readonly stateDir: string;
  /** `<root>/.testenv/logs`: one `<component>.log` per process. */
  readonly logsDir: string;
  /** `<root>/.testenv/run`: pid files and per-run data directories. */
  readonly runDir: string;
  /** `<root>/.testenv/env.json`: what tests and tools read. */
  readonly envFile: string;
  /**
   * Build cache shared by every clone on this machine, keyed by component version:
   * `$DOMAIN_OPERATORS_CACHE`, else `$XDG_CACHE_HOME/domain-operators`, else `~/.cache/domain-operators`.
   */
  readonly cacheDir: string;
  /** `libs/testenv`: the Go module, Maven projects and config templates live here. */
  readonly testenvDir: string;
}

/** Finds the repository root by walking up from `start` to the first folder with `nx.json`. Throws if none. */
export function findRepoRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = resolve(start);
  for (;;) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no nx.json above ${start}: run inside the domain-operators checkout`);
    dir = parent;
  }
}

/** Resolves every testenv path for the checkout at `root`. Pure apart from reading the environment once. */
export function resolvePaths(root: string = findRepoRoot(), env: NodeJS.ProcessEnv = process.env): TestenvPaths {
  const stateDir = join(root, '.testenv');
  const cacheDir =
    env['DOMAIN_OPERATORS_CACHE'] ??
    join(env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'domain-operators');
  return {
    root,
    stateDir,
    logsDir: join(stateDir, 'logs'),
    runDir: join(stateDir, 'run'),
    envFile: join(stateDir, 'env.json'),
    cacheDir,
    testenvDir: join(root, 'libs', 'testenv'),
  };
}
