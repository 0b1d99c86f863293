import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ComponentContext } from './component.ts';
import { runToCompletion } from './process.ts';

/** One static Go program built from a module of ours under `libs/testenv/go/`. */
export interface GoProgram {
  /** Names the build in progress lines and errors, e.g. `versitygw v1.8.0`. */
  readonly label: string;
  /** The module folder (`go build` runs there). */
  readonly moduleDir: string;
  /** The Go package to build (a path or `.`). */
  readonly pkg: string;
  /** The file name `go build -o dir/` gives the program (the package path's last element, or the module's). */
  readonly built: string;
  /** Where the program goes in the cache; its presence is the cache hit. */
  readonly binary: string;
  /** `-ldflags`; default none. */
  readonly ldflags?: string;
  /** The build log's file name under the logs folder, e.g. `s3-build.log`. */
  readonly logName: string;
}

/**
 * Returns `program.binary`, building it first with the `go` command alone when it is missing (modules from the Go
 * module proxy; static, `CGO_ENABLED=0`, `-trimpath`). Built into a temporary folder and renamed into place, so an
 * interrupted build never leaves a truncated executable. Rejects naming the program, with the tail of its build log.
 */
export async function ensureGoProgram(ctx: ComponentContext, program: GoProgram): Promise<string> {
  if (existsSync(program.binary)) return program.binary;
  const logFile = join(ctx.paths.logsDir, program.logName);
  ctx.progress(`building ${program.label} (log: ${logFile})`);
  const started = Date.now();
  await mkdir(ctx.paths.cacheDir, { recursive: true });
  const tmp = await mkdtemp(join(ctx.paths.cacheDir, '.build-'));
  try {
    const ldflags = program.ldflags === undefined ? [] : ['-ldflags', program.ldflags];
    try {
      await runToCompletion('go', ['build', '-trimpath', '-buildvcs=false', ...ldflags, '-o', `${tmp}/`, program.pkg], {
        cwd: program.moduleDir,
        env: { CGO_ENABLED: '0', GOWORK: 'off' },
        logFile,
      });
    } catch (err) {
      const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'the `go` command is not installed (Go 1.25+ is needed)' : (err as Error).message;
      throw new Error(`building ${program.label} failed: ${why}`, { cause: err });
    }
    await mkdir(dirname(program.binary), { recursive: true });
    await rename(join(tmp, program.built), program.binary);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  ctx.progress(`built ${program.label} in ${Math.round((Date.now() - started) / 1000)} s`);
  return program.binary;
}
