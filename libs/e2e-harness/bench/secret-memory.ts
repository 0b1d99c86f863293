// The Secret-memory benchmark of issue #15 (`npx nx run e2e-harness:bench-secrets`; hold /tmp/dop-e2e.lock around it).
// Starts the three operators as local processes (each as its chart's ServiceAccount), reads RSS and V8 heap in use
// from each one's /metrics, creates 100 Secrets of 512 KiB in a namespace no resource references, waits for the
// watches to deliver them, reads again, and prints both next to the figures measured before the operators cached
// only their own Secrets (ADR 0021). Never fails on a missed target; fails only when something cannot run.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { coreTypes } from '@domain-operators/reconcile';
import { adminClient, deleteNamespace, freshNamespace, metricSum, OPERATOR_SYSTEMS, startOperatorProcess } from '../src/index.ts';
import type { OperatorProcess, OperatorSystem } from '../src/index.ts';

const SECRETS = 100;
const SECRET_BYTES = 512 * 1024;
const SETTLE_MS = 20_000;
const TARGET_MIB = 8;
const MIB = 1024 * 1024;

/** RSS before → after (MiB) with 100 unrelated 512 KiB Secrets, measured before the change (issue #15). */
const BEFORE_THE_CHANGE: Readonly<Record<OperatorSystem, { readonly from: number; readonly to: number }>> = {
  kafka: { from: 209, to: 293 },
  opensearch: { from: 210, to: 296 },
  redis: { from: 216, to: 319 },
};

interface Sample {
  readonly rss: number;
  readonly heapUsed: number;
}

async function sample(operator: OperatorProcess): Promise<Sample> {
  const text = await operator.metricsText();
  return { rss: metricSum(text, 'process_resident_memory_bytes'), heapUsed: metricSum(text, 'nodejs_heap_size_used_bytes') };
}

const mib = (bytes: number): string => (bytes / MIB).toFixed(1);

async function main(): Promise<void> {
  const operators: OperatorProcess[] = [];
  let namespace: string | undefined;
  try {
    for (const system of OPERATOR_SYSTEMS) operators.push(await startOperatorProcess({ system }));
    await sleep(SETTLE_MS);
    const before = await Promise.all(operators.map(sample));

    namespace = await freshNamespace({}, 'bench-secrets');
    const client = await adminClient();
    // 3 random bytes → 4 base64 characters: `data` of SECRET_BYTES characters, as a Helm release record.
    const payload = randomBytes((SECRET_BYTES / 4) * 3).toString('base64');
    for (let i = 0; i < SECRETS; i++) {
      await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { namespace, name: `unrelated-${i}` }, data: { release: payload } });
    }
    await sleep(SETTLE_MS);
    const after = await Promise.all(operators.map(sample));

    const lines = [
      `${SECRETS} unrelated Secrets of ${SECRET_BYTES / 1024} KiB each; target: RSS grows by at most ${TARGET_MIB} MiB`,
      '',
      '| operator | RSS before → after (MiB) | RSS growth | V8 heap in use before → after (MiB) | before the change: RSS growth |',
      '|---|---|---|---|---|',
    ];
    operators.forEach((operator, i) => {
      const b = before[i];
      const a = after[i];
      if (b === undefined || a === undefined) return;
      const old = BEFORE_THE_CHANGE[operator.system];
      const growth = (a.rss - b.rss) / MIB;
      lines.push(
        `| ${operator.system} | ${mib(b.rss)} → ${mib(a.rss)} | ${growth.toFixed(1)} MiB ${growth <= TARGET_MIB ? '(met)' : '(missed)'} | ${mib(b.heapUsed)} → ${mib(a.heapUsed)} | ${old.from} → ${old.to}: ${old.to - old.from} MiB |`,
      );
    });
    console.log(lines.join('\n'));
  } finally {
    if (namespace !== undefined) await deleteNamespace(namespace);
    await Promise.allSettled(operators.map((operator) => operator.stop()));
  }
}

await main();
