import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolvePaths } from '@domain-operators/testenv';
import type { OperatorSystem } from './system.ts';
import { operatorLayout } from './system.ts';

const run = promisify(execFile);

/**
 * Builds `dist/operators/<system>/main.js` through the operator's own Nx `build` target (so a suite runs exactly
 * what the build ships, with any per-project bundling options), which Nx skips or restores from its cache when no
 * input changed: a test run pays for each bundle once. Resolves with the bundle's path; rejects with Nx's output.
 */
export async function buildOperator(system: OperatorSystem, root: string = resolvePaths().root): Promise<string> {
  try {
    await run(join(root, 'node_modules', '.bin', 'nx'), ['run', `${system}-operator:build`, '--outputStyle=static'], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' },
    });
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; message: string };
    const output = `${failed.stdout ?? ''}${failed.stderr ?? ''}`.trim();
    throw new Error(`nx run ${system}-operator:build failed: ${output === '' ? failed.message : output.slice(-4_000)}`, { cause: err });
  }
  return operatorLayout(system, root).bundle;
}
