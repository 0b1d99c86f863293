// Small measuring helpers shared by the operators' benchmarks and e2e suites.
import { readFile } from 'node:fs/promises';


/**
 * The sum of every sample of metric `name` in Prometheus exposition text whose labels include all of `labels`
 * (0 when there is none). Pure. Label values must not contain `"` or `,` (ours never do).
 */
export function metricSum(text: string, name: string, labels: Readonly<Record<string, string>> = {}): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})? ([^ ]+)/.exec(line);
    if (match?.[1] !== name) continue;
    const present = new Map(
      (match[2] ?? '')
        .split(',')
        .filter((p) => p !== '')
        .map((p) => {
          const [key = '', value = ''] = p.split('=');
          return [key, value.replace(/^"|"$/g, '')] as const;
        }),
    );
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) sum += Number(match[3]);
  }
  return sum;
}

/** How much a counter grew between two scrapes, per value of one of its labels. */
export interface CounterIncrease {
  /** The sum over every label value. */
  readonly total: number;
  /** Label value → its increase; values that did not grow are left out. Sorted by label value. */
  readonly byLabel: Readonly<Record<string, number>>;
}

/**
 * The increase of counter `name` from scrape `before` to scrape `after`, per value of `label` (every value the later
 * scrape has; one the earlier lacks counts from 0). Pure. Label values must not contain `"` or `,`.
 */
export function counterIncrease(before: string, after: string, name: string, label: string): CounterIncrease {
  const values = new Set<string>();
  const pattern = new RegExp(`^${name.replace(/[^a-zA-Z0-9_:]/g, '')}\\{(?:[^}]*,)?${label.replace(/[^a-zA-Z0-9_]/g, '')}="([^"]*)"`, 'gm');
  for (const match of after.matchAll(pattern)) values.add(match[1] ?? '');
  const byLabel: Record<string, number> = {};
  let total = 0;
  for (const value of [...values].sort()) {
    const grown = metricSum(after, name, { [label]: value }) - metricSum(before, name, { [label]: value });
    if (grown === 0) continue;
    byLabel[value] = grown;
    total += grown;
  }
  return { total, byLabel };
}

/**
 * Resolves once `count()` reaches `expected`, looking every `pollMs` (default 20 ms, so the wait adds at most that
 * to a measured time); rejects naming `what` and the last count after `timeoutMs`.
 */
export async function waitForCount(count: () => number, expected: number, what: string, timeoutMs: number, pollMs = 20): Promise<void> {
  const started = performance.now();
  for (;;) {
    const seen = count();
    if (seen >= expected) return;
    if (performance.now() - started > timeoutMs) throw new Error(`only ${seen} of ${expected} ${what} after ${Math.round(timeoutMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** The median of `values` (the mean of the middle two for an even count). Throws on an empty list. Pure. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Clock ticks per second of `/proc/<pid>/stat` times (USER_HZ, 100 on every Linux architecture we run on). */
const USER_HZ = 100;

/**
 * CPU seconds (user + system) a process has used, from the text of its `/proc/<pid>/stat`. The command name may hold
 * spaces and parentheses, so fields are counted from the last `)`. Pure. Throws on text that is not such a line.
 */
export function cpuSecondsFromStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // After the name: state is field 3 of the line, utime field 14 and stime field 15.
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime) || fields.length < 13) throw new Error('not a /proc/<pid>/stat line');
  return (utime + stime) / USER_HZ;
}

/** CPU seconds used so far by process `pid` (Linux), or `undefined` when it does not run. */
export async function cpuSecondsOf(pid: number): Promise<number | undefined> {
  try {
    return cpuSecondsFromStat(await readFile(`/proc/${String(pid)}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}
