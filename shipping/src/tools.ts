import { execFile } from 'node:child_process';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The output of a finished tool run. */
export interface ToolResult {
  readonly exitCode: number;
  readonly output: string;
}

/**
 * Where `scripts/setup.sh` puts the tools it builds from the Go module proxy (helm, actionlint):
 * `$DOMAIN_OPERATORS_CACHE/bin`, else `$XDG_CACHE_HOME/domain-operators/bin`, else `~/.cache/domain-operators/bin`.
 * Pure over `env`.
 */
export function toolBinDir(env: NodeJS.ProcessEnv = process.env): string {
  const cache = env['DOMAIN_OPERATORS_CACHE'] ?? join(env['XDG_CACHE_HOME'] ?? join(homedir(), '.cache'), 'domain-operators');
  return join(cache, 'bin');
}

/**
 * Runs `command` with `args` and resolves with its exit code and combined output; never rejects for a non-zero
 * exit. Rejects when the command cannot be started (for example, not installed: run `npm run setup`).
 */
export function runTool(command: string, args: readonly string[], cwd: string): Promise<ToolResult> {
  return new Promise((resolve, reject) => {
    execFile(command, [...args], { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (error === null) {
        resolve({ exitCode: 0, output });
      } else if (typeof error.code === 'number') {
        resolve({ exitCode: error.code, output });
      } else {
        reject(new Error(`${command} could not run (${error.message}); run \`npm run setup\``, { cause: error }));
      }
    });
  });
}
