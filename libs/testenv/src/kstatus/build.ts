import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ComponentContext } from '../component.ts';
import { requirement } from '../control-plane/versions.ts';
import { ensureGoProgram } from '../go-program.ts';
import { packageSourceHash } from '../node-build/source-hash.ts';

/** The module of kstatus-check, relative to `libs/testenv`. */
const MODULE = join('go', 'kstatus');

/** The built kstatus-check: which kstatus it runs and where it is. */
export interface KstatusBuild {
  /** The `sigs.k8s.io/cli-utils` version of `libs/testenv/go/kstatus/go.mod`, e.g. `v0.37.2`. */
  readonly cliUtilsVersion: string;
  /** Absolute path of the static executable in the machine-wide cache. */
  readonly binary: string;
}

/**
 * Returns `kstatus-check` (`libs/testenv/go/kstatus`: reads objects as JSON on stdin, prints kstatus' verdict for each
 * as a JSON line; no cluster connection), building it when missing. Cached as
 * `<cacheDir>/kstatus/<cli-utils version>-<source hash>/kstatus-check`, so a change of the program or of a pinned
 * dependency builds anew. Rejects with the tail of `<logsDir>/kstatus-build.log`.
 */
export async function ensureKstatusBuild(ctx: ComponentContext): Promise<KstatusBuild> {
  const moduleDir = join(ctx.paths.testenvDir, MODULE);
  const cliUtilsVersion = requirement(await readFile(join(moduleDir, 'go.mod'), 'utf8'), 'sigs.k8s.io/cli-utils');
  const hash = await packageSourceHash(moduleDir, '.');
  const binary = join(ctx.paths.cacheDir, 'kstatus', `${cliUtilsVersion}-${hash}`, 'kstatus-check');
  const label = `kstatus-check (cli-utils ${cliUtilsVersion})`;
  await ensureGoProgram(ctx, { label, moduleDir, pkg: '.', built: 'kstatus', binary, logName: 'kstatus-build.log' });
  return { cliUtilsVersion, binary };
}
