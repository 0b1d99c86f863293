import { execFile } from 'node:child_process';
import type { KubernetesObject } from '@kubernetes/client-node';
import { resolvePaths } from '../paths.ts';
import type { TestenvPaths } from '../paths.ts';
import { ensureKstatusBuild } from './build.ts';

/** The verdicts kstatus gives (sigs.k8s.io/cli-utils `status.Status`). */
export type KstatusStatus = 'InProgress' | 'Failed' | 'Current' | 'Terminating' | 'NotFound' | 'Unknown';

const STATUSES: ReadonlySet<string> = new Set<KstatusStatus>(['InProgress', 'Failed', 'Current', 'Terminating', 'NotFound', 'Unknown']);

/** kstatus' verdict on one object, as kstatus-check prints it. */
export interface KstatusResult {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespace?: string;
  readonly name: string;
  readonly status: KstatusStatus;
  /** kstatus' own words (the Stalled or Reconciling message, or why the generation is not observed). */
  readonly message: string;
}

/**
 * Parses kstatus-check's output: one JSON object per non-empty line with the fields of {@link KstatusResult}. Throws
 * naming the line that does not fit. Pure.
 */
export function parseKstatusOutput(stdout: string): KstatusResult[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const parsed: unknown = JSON.parse(line);
      if (typeof parsed !== 'object' || parsed === null) throw new Error(`kstatus-check printed a line that is not an object: ${line}`);
      const { apiVersion, kind, namespace, name, status, message } = parsed as Record<string, unknown>;
      if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || typeof message !== 'string' || typeof status !== 'string' || !STATUSES.has(status)) {
        throw new Error(`kstatus-check printed a line of another shape: ${line}`);
      }
      return { apiVersion, kind, ...(typeof namespace === 'string' && { namespace }), name, status: status as KstatusStatus, message };
    });
}

/**
 * Runs the real kstatus (cli-utils, as `libs/testenv/go/kstatus/go.mod` pins it) over `objects` as read from the
 * apiserver, one verdict each in their order. Builds kstatus-check into the cache on first use (seconds, warm: a
 * hash and a stat); talks to no cluster. Rejects with kstatus-check's own error when it refuses an object.
 */
export async function kstatus(objects: readonly KubernetesObject[], paths: TestenvPaths = resolvePaths()): Promise<readonly KstatusResult[]> {
  const { binary } = await ensureKstatusBuild({ paths, progress: () => undefined });
  const stdout = await new Promise<string>((resolve, reject) => {
    const child = execFile(binary, [], { maxBuffer: 64 * 1024 * 1024 }, (err, out, stderr) => {
      if (err !== null) reject(new Error(`kstatus-check failed: ${stderr.trim() || err.message}`, { cause: err }));
      else resolve(out);
    });
    child.stdin?.end(JSON.stringify(objects));
  });
  const results = parseKstatusOutput(stdout);
  if (results.length !== objects.length) throw new Error(`kstatus-check gave ${results.length} verdicts for ${objects.length} objects`);
  return results;
}
