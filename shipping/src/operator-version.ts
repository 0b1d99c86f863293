import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ReleaseSystem } from './release-artifacts.ts';

const run = promisify(execFile);

/**
 * What the operator of `system` in the checkout at `root` answers to `--version` (`<system>-operator <version>`):
 * its entry point `operators/<system>/src/main.ts` run by this Node (24, which runs TypeScript), so the version comes
 * from the same code the bundle is built from. Trimmed stdout; rejects when the process fails.
 */
export async function reportedVersion(root: string, system: ReleaseSystem): Promise<string> {
  const { stdout } = await run(process.execPath, [join(root, 'operators', system, 'src', 'main.ts'), '--version'], { cwd: root, timeout: 120_000 });
  return stdout.trim();
}
