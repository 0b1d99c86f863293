import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { requirement } from '../control-plane/versions.ts';
import { runToCompletion } from '../process.ts';

/** The Go package of the gateway's command, as the `tool` line of `libs/testenv/go/s3/go.mod` names it. */
const VERSITYGW_PACKAGE = 'github.com/versity/versitygw/cmd/versitygw';

/** The built S3 server. */
export interface S3Build {
  /** e.g. `v1.8.0`: the `github.com/versity/versitygw` requirement of `libs/testenv/go/s3/go.mod`. */
  readonly version: string;
  /** Absolute path of the static `versitygw` executable in the machine-wide cache. */
  readonly binary: string;
}

/** Where the gateway of `version` lives in the cache: `<cacheDir>/s3/versitygw/<version>/versitygw`. Pure. */
export function s3BinaryPath(cacheDir: string, version: string): string {
  return join(cacheDir, 's3', 'versitygw', version, 'versitygw');
}

/** The link flags that stamp the version into the binary, as versitygw's Makefile does (`versitygw --version`). Pure. */
export function versitygwLdflags(version: string): string {
  return `-s -w -X=main.Version=${version} -X=main.Build=testenv`;
}

/** The cached gateway's path for the version pinned in `libs/testenv/go/s3/go.mod` (it may not be built yet). */
export async function s3BinaryPathFor(paths: ComponentContext['paths']): Promise<string> {
  const version = requirement(await readFile(join(paths.testenvDir, 'go', 's3', 'go.mod'), 'utf8'), 'github.com/versity/versitygw');
  return s3BinaryPath(paths.cacheDir, version);
}

/**
 * Returns the cached `versitygw` for the version pinned in `libs/testenv/go/s3/go.mod`, building it first with the
 * `go` command alone when missing (modules from the Go module proxy; static, `CGO_ENABLED=0`). Built into a
 * temporary folder and renamed into place, so an interrupted build never leaves a truncated executable. Rejects
 * with the tail of `<logsDir>/s3-build.log`.
 */
export async function ensureS3Build(ctx: ComponentContext): Promise<S3Build> {
  const moduleDir = join(ctx.paths.testenvDir, 'go', 's3');
  const version = requirement(await readFile(join(moduleDir, 'go.mod'), 'utf8'), 'github.com/versity/versitygw');
  const binary = s3BinaryPath(ctx.paths.cacheDir, version);
  if (existsSync(binary)) return { version, binary };
  const logFile = join(ctx.paths.logsDir, 's3-build.log');
  ctx.progress(`building versitygw ${version} (log: ${logFile})`);
  const started = Date.now();
  await mkdir(ctx.paths.cacheDir, { recursive: true });
  const tmp = await mkdtemp(join(ctx.paths.cacheDir, '.build-'));
  try {
    try {
      await runToCompletion('go', ['build', '-trimpath', '-buildvcs=false', '-ldflags', versitygwLdflags(version), '-o', `${tmp}/`, VERSITYGW_PACKAGE], {
        cwd: moduleDir,
        env: { CGO_ENABLED: '0', GOWORK: 'off' },
        logFile,
      });
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'the `go` command is not installed (Go 1.25+ is needed)' : (err as Error).message;
      throw new Error(`s3: building versitygw ${version} failed: ${why}`, { cause: err });
    }
    await mkdir(dirname(binary), { recursive: true });
    await rename(join(tmp, 'versitygw'), binary);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  ctx.progress(`built versitygw ${version} in ${Math.round((Date.now() - started) / 1000)} s`);
  return { version, binary };
}
