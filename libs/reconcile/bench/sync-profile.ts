import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { phaseBreakdown, topFunctions } from './profile-phases.ts';
import type { CpuProfile, PhaseBreakdown } from './profile-phases.ts';
import type { PeerResult } from './report.ts';

const run = promisify(execFile);

/** Sampling interval of the profiled run, in microseconds (V8's default is 1,000). */
export const PROFILE_INTERVAL_US = 250;

/** One profiled sync of our informer: its own figures, where its time went, and the hottest functions. */
export interface SyncProfile {
  readonly namespace: string;
  readonly result: PeerResult;
  readonly breakdown: PhaseBreakdown;
  readonly top: readonly { readonly name: string; readonly ms: number }[];
}

/**
 * Runs `informer-peer.ts --mode ours` once more in a fresh process under `node --cpu-prof` and splits the samples
 * of its sync window (from starting the informer to `waitForSync` resolving, as the peer prints it) by phase. The
 * profiler itself slows the run a little, so its sync time is shown beside the unprofiled median, not instead of it.
 */
export async function profileOurSync(peerScript: string, kubeconfig: string, namespace: string): Promise<SyncProfile> {
  const dir = await mkdtemp(join(tmpdir(), 'reconcile-bench-profile-'));
  try {
    const { stdout } = await run(
      process.execPath,
      ['--expose-gc', '--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', String(PROFILE_INTERVAL_US), peerScript, '--mode', 'ours', '--kubeconfig', kubeconfig, '--namespace', namespace],
      { maxBuffer: 16 * 2 ** 20 },
    );
    const line = stdout.split('\n').find((text) => text.trim().startsWith('{'));
    if (line === undefined) throw new Error(`the profiled informer run printed no result:\n${stdout}`);
    const result = JSON.parse(line) as PeerResult;
    if (result.windowUs === undefined) throw new Error('the profiled informer run printed no sync window');
    const [file] = (await readdir(dir)).filter((name) => name.endsWith('.cpuprofile'));
    if (file === undefined) throw new Error(`node --cpu-prof wrote no profile into ${dir}`);
    const profile = JSON.parse(await readFile(join(dir, file), 'utf8')) as CpuProfile;
    const [from, to] = result.windowUs;
    return { namespace, result, breakdown: phaseBreakdown(profile, from, to), top: topFunctions(profile, from, to, 12) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
