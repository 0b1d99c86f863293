import { execFile } from 'node:child_process';

/** Options for one {@link Exec} call. */
export interface ExecOptions {
  readonly cwd?: string;
}

/**
 * Runs a command to completion and resolves with its stdout; rejects when it cannot start or exits non-zero,
 * with the command line and the tail of its stderr in the message. Injected wherever the image code runs
 * programs (apt, dpkg-deb, ctr), so tests can see and fake the calls.
 */
export type Exec = (command: string, args: readonly string[], options?: ExecOptions) => Promise<string>;

/** The {@link Exec} that really runs programs (stdout up to 256 MiB is kept). */
export const execFileCapture: Exec = (command, args, options = {}) =>
  new Promise((resolve, reject) => {
    execFile(command, [...args], { cwd: options.cwd, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' }, (err, stdout, stderr) => {
      if (err === null) {
        resolve(stdout);
        return;
      }
      const tail = stderr.trim().split('\n').slice(-15).join('\n');
      reject(new Error(`${command} ${args.join(' ')} failed: ${err.message.split('\n')[0] ?? ''}${tail === '' ? '' : `\n${tail}`}`, { cause: err }));
    });
  });
