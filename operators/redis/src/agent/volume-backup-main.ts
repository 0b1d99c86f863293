/**
 * `node /app/main.js volume-backup`: {@link runVolumeBackup} with the real RDB stream and stdout as its log.
 */
import { openRdbStream } from '../redis/rdb-stream.ts';
import { runVolumeBackup } from './volume-backup.ts';

/** Runs the agent over `env`; resolves with the process exit code. */
export function volumeBackupMain(env: Readonly<Record<string, string | undefined>>): Promise<number> {
  return runVolumeBackup(env, {
    openRdb: (source) => openRdbStream(source),
    log: (line) => {
      console.log(line);
    },
  });
}
