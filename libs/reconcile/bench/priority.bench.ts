// The priority queue benchmark, a script rather than a test (unit tests never include it):
//   node libs/reconcile/bench/priority.bench.ts [--items 10000] [--workers 4] [--cost-ms 1] [--cost timer|busy]
//                                              [--user-at-ms 50] [--rounds 3]
// Each round runs the same workload on the queue with priorities (the list added 'low') and without (all 'high'),
// in alternating order; prints one JSON line per run, then a table of medians with the ratio fifo / priority.
import { parseArgs } from 'node:util';
import { runPriorityBenchmark } from './priority-latency.ts';
import type { PriorityBenchmarkResult } from './priority-latency.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '10000' },
    workers: { type: 'string', default: '4' },
    'cost-ms': { type: 'string', default: '1' },
    cost: { type: 'string', default: 'timer' },
    'user-at-ms': { type: 'string', default: '50' },
    rounds: { type: 'string', default: '3' },
  },
});
if (values.cost !== 'timer' && values.cost !== 'busy') throw new Error(`--cost must be timer or busy, not ${values.cost}`);
const workload = {
  items: Number(values.items),
  workers: Number(values.workers),
  costMs: Number(values['cost-ms']),
  cost: values.cost,
  userAtMs: Number(values['user-at-ms']),
} as const;
const rounds = Number(values.rounds);

// One unrecorded small run of each mode first, so the JIT has warmed up.
for (const mode of ['priority', 'fifo'] as const) await runPriorityBenchmark({ ...workload, mode, items: Math.min(1000, workload.items) });

const results: PriorityBenchmarkResult[] = [];
for (let round = 0; round < rounds; round++) {
  const order = round % 2 === 0 ? (['priority', 'fifo'] as const) : (['fifo', 'priority'] as const);
  for (const mode of order) {
    const result = await runPriorityBenchmark({ ...workload, mode });
    results.push(result);
    console.log(JSON.stringify({ round, ...result }));
  }
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? Number.NaN) + (sorted[mid] ?? Number.NaN)) / 2;
}
const of = (mode: string, field: 'newKeyLatencyMs' | 'listedKeyLatencyMs' | 'drainMs'): number =>
  median(results.filter((r) => r.mode === mode).map((r) => r[field]));
const rows = [
  ['user change, new key: add → reconcile (ms)', 'newKeyLatencyMs'],
  ['user change, listed key: add → reconcile (ms)', 'listedKeyLatencyMs'],
  ['drain of the whole list (ms)', 'drainMs'],
] as const;
console.log(`\n${workload.items} keys listed, ${workload.workers} workers, ${workload.costMs} ms ${workload.cost} cost, user changes at ${workload.userAtMs} ms; median of ${rounds}`);
console.log('| measure | priority | fifo (no priority) | fifo / priority |');
console.log('| --- | ---: | ---: | ---: |');
for (const [label, field] of rows) {
  const p = of('priority', field);
  const f = of('fifo', field);
  console.log(`| ${label} | ${p.toFixed(2)} | ${f.toFixed(2)} | ${(f / p).toFixed(f / p >= 10 ? 0 : 3)} |`);
}
