import { open, readFile, rm } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive } from './process.ts';

/**
 * Takes an exclusive, process-wide lock file (`O_EXCL`), so two `up` or `down` runs never race on one
 * environment. A lock left by a dead process is taken over. Waits up to `timeoutMs`, then rejects naming the
 * holder. Resolves with the release function, which is idempotent.
 */
export async function acquireLock(file: string, timeoutMs: number): Promise<() => Promise<void>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await rm(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number.parseInt((await readFile(file, 'utf8').catch(() => '')).trim(), 10);
    if (!Number.isInteger(holder) || !isAlive(holder)) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`testenv is locked by process ${holder} (${file}); waited ${timeoutMs} ms`);
    await sleep(500);
  }
}
