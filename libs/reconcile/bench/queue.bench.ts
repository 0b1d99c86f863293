// The work queue throughput benchmark, a script rather than a test (unit tests never include it):
//   node libs/reconcile/bench/queue.bench.ts [--items 1000000] [--duplicate-ratio 0.1] [--workers 1,4,16] [--rounds 3]
// Prints one JSON line per run. The same workload on client-go: libs/testenv/go/cmd/workqueue-bench.
import { parseArgs } from 'node:util';
import { runQueueBenchmark } from './queue-throughput.ts';

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
for (const workers of values.workers.split(',').map(Number)) {
  // One unrecorded round first, so the JIT has warmed up.
  await runQueueBenchmark({ items: Math.min(items, 100_000), duplicateRatio, workers });
  for (let round = 0; round < rounds; round++) {
    console.log(JSON.stringify(await runQueueBenchmark({ items, duplicateRatio, workers })));
  }
}
