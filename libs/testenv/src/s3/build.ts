import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { requirement } from '../control-plane/versions.ts';
import { ensureGoProgram } from '../go-program.ts';

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
 * Returns the cached `versitygw` for the version pinned in `libs/testenv/go/s3/go.mod`, building it first when
 * missing ({@link ensureGoProgram}: static, interrupted builds leave nothing). Rejects with the tail of
 * `<logsDir>/s3-build.log`.
 */
export async function ensureS3Build(ctx: ComponentContext): Promise<S3Build> {
  const moduleDir = join(ctx.paths.testenvDir, 'go', 's3');
  const version = requirement(await readFile(join(moduleDir, 'go.mod'), 'utf8'), 'github.com/versity/versitygw');
  const label = `versitygw ${version}`;
  try {
    const binary = await ensureGoProgram(ctx, { label, moduleDir, pkg: VERSITYGW_PACKAGE, built: 'versitygw', binary: s3BinaryPath(ctx.paths.cacheDir, version), ldflags: versitygwLdflags(version), logName: 's3-build.log' });
    return { version, binary };
  } catch (err) {
    throw new Error(`s3: ${(err as Error).message}`, { cause: err });
  }
}
