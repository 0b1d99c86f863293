import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import { runToCompletion } from '../process.ts';

/** A random password of 32 URL-safe characters (192 bits). */
export function randomPassword(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The bcrypt hash of `password`, computed by the launcher jar's `BcryptHash` (bouncycastle from the security
 * plugin's class path) and left in `outFile` (mode 0600). The password goes through the environment, never a
 * command line.
 */
export async function bcryptHash(classpath: string, password: string, outFile: string, logFile: string): Promise<string> {
  await rm(outFile, { force: true });
  await runToCompletion('java', ['-cp', classpath, 'io.domainoperators.testenv.BcryptHash', outFile], {
    env: { TESTENV_PASSWORD: password },
    logFile,
  });
  const hash = (await readFile(outFile, 'utf8')).trim();
  if (!/^\$2[aby]\$\d\d\$/.test(hash)) throw new Error(`opensearch: BcryptHash wrote no bcrypt hash to ${outFile}`);
  return hash;
}
