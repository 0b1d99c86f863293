import { execFile } from 'node:child_process';

/** What a finished host command printed and how it ended. */
export interface HostCommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a host command (`ip`, `iptables`, `mount` …) to completion; may reject only when it cannot be spawned. */
export type HostCommand = (command: string, args: readonly string[]) => Promise<HostCommandResult>;

/** The real {@link HostCommand}: `execFile` with a 60 s limit, output captured (never a shell). */
export const runHostCommand: HostCommand = (command, args) =>
  new Promise((resolve, reject) => {
    execFile(command, [...args], { timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err !== null && typeof err.code !== 'number') {
        reject(new Error(`cannot run ${command}: ${err.message}`, { cause: err }));
        return;
      }
      resolve({ code: err === null ? 0 : (err.code as number), stdout, stderr });
    });
  });

/** Runs `command` and rejects with its stderr when it exits non-zero. */
export async function mustRun(run: HostCommand, command: string, args: readonly string[]): Promise<string> {
  const result = await run(command, args);
  if (result.code !== 0) {
    throw new Error(`${command} ${args.join(' ')} exited with ${result.code}: ${result.stderr.trim() || result.stdout.trim()}`);
  }
  return result.stdout;
}
