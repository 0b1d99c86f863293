import { execFile } from 'node:child_process';
import { delimiter } from 'node:path';
import { promisify } from 'node:util';
import type { KafkaBuild } from './build.ts';

const run = promisify(execFile);

/** The result of one probe run. */
export interface ProbeResult {
  readonly ok: boolean;
  /** The probe's one-line verdict, e.g. `ok cluster=… acls=0` or `not ready: …SaslAuthenticationException: …`. */
  readonly detail: string;
}

/**
 * Runs the Java health probe once: a SCRAM login as the user in `clientProperties`, then DescribeCluster
 * and DescribeAcls (the latter needs the authorizer to accept the user as a super user). Never throws;
 * resolves `ok: false` with the reason when the broker does not answer within `timeoutMs`.
 */
export async function probeKafka(build: KafkaBuild, clientProperties: string, timeoutMs: number): Promise<ProbeResult> {
  const args = [
    '-Xmx64m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-cp',
    `${build.classpath}${delimiter}${build.probeDir}`,
    'KafkaProbe',
    clientProperties,
    String(timeoutMs),
  ];
  try {
    const { stdout } = await run('java', args, { timeout: timeoutMs + 15_000, maxBuffer: 1 << 20 });
    return { ok: true, detail: lastLine(stdout) };
  } catch (err) {
    const out = (err as { stdout?: unknown }).stdout;
    return { ok: false, detail: typeof out === 'string' && out.trim() !== '' ? lastLine(out) : String(err) };
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1) ?? '';
}
