// `nx run shipping:lint` (with eslint): actionlint on .github/workflows/*.yml (with shellcheck on their `run:`
// steps), and shellcheck on the scripts those workflows run (.github/kind/*.sh, scripts/*.sh). actionlint is built
// by scripts/setup.sh from the Go module proxy; shellcheck is Debian's. Exits non-zero on any finding.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './repo.ts';
import { runTool, toolBinDir } from './tools.ts';

const files = (dir: string, pattern: RegExp): string[] =>
  readdirSync(join(REPO_ROOT, dir))
    .filter((file) => pattern.test(file))
    .sort()
    .map((file) => join(dir, file));

async function main(): Promise<number> {
  const workflows = files('.github/workflows', /\.ya?ml$/);
  const scripts = [...files('.github/kind', /\.sh$/), ...files('scripts', /\.sh$/)];
  const runs = [
    { label: `actionlint ${workflows.join(' ')}`, command: join(toolBinDir(), 'actionlint'), args: ['-no-color', ...workflows] },
    { label: `shellcheck ${scripts.join(' ')}`, command: 'shellcheck', args: scripts },
  ];
  let failed = 0;
  for (const run of runs) {
    const result = await runTool(run.command, run.args, REPO_ROOT);
    process.stdout.write(`${run.label}: ${result.exitCode === 0 ? 'ok' : 'FAILED'}\n`);
    if (result.exitCode !== 0) {
      failed++;
      process.stdout.write(result.output);
    }
  }
  return failed;
}

main().then(
  (failed) => {
    process.exitCode = failed === 0 ? 0 : 1;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
