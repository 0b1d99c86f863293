// The work queue throughput benchmark, a script rather than a test (unit tests never include it):
//   node --expose-gc libs/reconcile/bench/queue.bench.ts [--items 1000000] [--duplicate-ratio 0.1] [--workers 1,4,16] [--rounds 3]
// Prints one JSON line per run. The same workload on client-go: libs/testenv/go/cmd/workqueue-bench.
import { parseArgs } from 'node:util';
import { benchmarkKeys, runQueueBenchmark } from './queue-throughput.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '1000000' },
    'duplicate-ratio': { type: 'string', default: '0.1' },
    workers: { type: 'string', default: '1,4,16' },
    rounds: { type: 'string', default: '3' },
  },
});

const items = Number(values.items);
const duplicateRatio = Number(values['duplicate-ratio']);
const rounds = Number(values.rounds);
// Built once, before any round, and shared by all of them, as the Go program builds its keys; then, when node runs
// with --expose-gc (run.ts passes it), collected fully once, so the million strings are in the old generation before
// the first round instead of being copied out of the young one by the scavenges of the first timed rounds.
const keys = benchmarkKeys(items, duplicateRatio);
const distinctKeys = new Set(keys).size;
globalThis.gc?.();
for (const workers of values.workers.split(',').map(Number)) {
  // One unrecorded round first (the first 100,000 keys, as the Go program's), so the JIT has warmed up.
  await runQueueBenchmark({ keys: keys.slice(0, 100_000), workers });
  for (let round = 0; round < rounds; round++) {
    console.log(JSON.stringify({ ...(await runQueueBenchmark({ keys, workers })), duplicateRatio, distinctKeys }));
  }
}
