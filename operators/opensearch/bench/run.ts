// The OpenSearch operator benchmark (`npx nx run opensearch-operator:bench`, or `node operators/opensearch/bench/run.ts
// [--workers=1,16]` from the repository root). A report, never a timed test: it fails only when something cannot run.
//   1. floor: the same 300 indices created directly with the OpenSearch client (`indices.create`, a bounded number
//      in flight), three rounds, deleted after each; and one round one at a time, for reference;
//   2. the operator, built and run as the e2e suites run it (its chart's ServiceAccount and flags), once per worker
//      count: 300 OpenSearchIndex resources applied at once → seconds until all are Ready, OpenSearch requests per
//      index (`opensearch_operator_requests_total`), apiserver writes, peak RSS; resources and indices deleted after;
//   3. steady state of the last run: apiserver writes by the operator's ServiceAccount during 60 s (audit log);
//   4. writes the JSON to .reports/bench/opensearch-operator.json and prints the report.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import { adminConnection, freshNamespace, installCrds, randomSuffix, startOperator, waitForCondition, waitForCount } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, getCondition, isNotFound, SharedInformers } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import type { OpenSearchInfo } from '@domain-operators/testenv';
import { openSearchConnections, openSearchIndices } from '../src/api/v1alpha1/index.ts';
import type { OpenSearchIndex } from '../src/api/v1alpha1/index.ts';
import { auditOffset, countWrites, writesSince } from '@domain-operators/e2e-harness';
import { formatReport, median, metricSum, requestsBetween } from './report.ts';
import type { OperatorPhase, OpenSearchBenchReport } from './report.ts';

const INDICES = 300;
const SETTINGS = { numberOfShards: 1, numberOfReplicas: 0, refreshInterval: '30s' } as const;
const WIRE_SETTINGS = { 'index.number_of_shards': 1, 'index.number_of_replicas': 0, 'index.refresh_interval': '30s' } as const;
const FLOOR_ROUNDS = 3;
const FLOOR_IN_FLIGHT = 16;
const CREATES_IN_FLIGHT = 50;
const RATIO_TARGET = 1.25;
const STEADY_WINDOW_S = 60;
const STEADY_START_AFTER_READY_S = 5;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (fromMs: number): number => Math.round((performance.now() - fromMs) / 10) / 100;

function log(message: string): void {
  console.error(`[bench] ${message}`);
}

function openSearchClient(info: OpenSearchInfo): OpenSearchClient {
  return new OpenSearchClient({ nodes: [info.url], auth: { ...info.adminUser }, requestTimeout: 60_000 });
}

/** Runs `task` over `items` with at most `inFlight` at once. */
async function pool<T>(items: readonly T[], inFlight: number, task: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await task(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, items.length) }, worker));
}

/** Deletes every index of the run (by its prefix) and waits until none is listed. */
async function deleteIndices(os: OpenSearchClient, prefix: string): Promise<void> {
  await os.indices.delete({ index: `${prefix}*`, expand_wildcards: 'all' });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const listed = await os.cat.indices({ index: `${prefix}*`, format: 'json' });
    if (Array.isArray(listed.body) && listed.body.length === 0) return;
    await sleep(250);
  }
  throw new Error(`indices ${prefix}* still listed 120 s after the delete`);
}

/** One floor round: every index created by `indices.create`, `inFlight` at once. Seconds. */
async function floorRound(os: OpenSearchClient, names: readonly string[], inFlight: number): Promise<number> {
  const started = performance.now();
  await pool(names, inFlight, (index) => os.indices.create({ index, body: { settings: { ...WIRE_SETTINGS } } }));
  return seconds(started);
}

/** The operator process's peak resident memory so far (VmHWM), in MiB. */
async function peakRssMiB(operator: OperatorProcess): Promise<number> {
  const pid = operator.pid();
  if (pid === undefined) throw new Error('the operator is not running');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
  if (!Number.isFinite(kib)) throw new Error('no VmHWM in /proc/<pid>/status');
  return Math.round((kib / 1024) * 10) / 10;
}

const isReady = (r: OpenSearchIndex): boolean => {
  const ready = getCondition(r.status?.conditions, 'Ready');
  return ready?.status === 'True' && ready.observedGeneration === r.metadata.generation;
};

/** What one operator phase leaves running for the steady-state measurement. */
interface PhaseRun {
  readonly phase: OperatorPhase;
  readonly operator: OperatorProcess;
  readonly username: string;
  readonly readyAt: number;
}

interface Bench {
  readonly client: Client;
  readonly kubeConfig: ConstructorParameters<typeof SharedInformers>[0]['kubeConfig'];
  readonly auditLog: string;
  readonly names: readonly string[];
  readonly connection: string;
  readonly namespace: string;
  readonly floorSeconds: number;
}

/** Applies the indices with an operator of `workers` workers and measures until all are Ready. Leaves it running. */
async function operatorPhase(bench: Bench, workers: number, started: (operator: OperatorProcess) => void): Promise<PhaseRun> {
  const { client, namespace: ns, names } = bench;
  // A release namespace of its own (deleted by stop()): other sessions' suites install the chart into opensearch-operator-system.
  const operator = await startOperator({ system: 'opensearch', values: { maxConcurrentReconciles: workers }, releaseNamespace: `bench-opensearch-op-${randomSuffix()}` });
  started(operator);
  const username = `system:serviceaccount:${operator.namespace}:${operator.serviceAccount}`;
  await waitForCondition(client, openSearchConnections.type, { namespace: undefined, name: bench.connection }, 'Ready', 'True', 60_000);
  const informersStop = new AbortController();
  const informers = new SharedInformers({ kubeConfig: bench.kubeConfig }, { namespace: ns });
  const indices = informers.informerFor(openSearchIndices.type);
  const informersDone = informers.run(informersStop.signal).catch(() => undefined);
  try {
    await informers.waitForSync();
    const metricsBefore = await operator.metricsText();
    const auditStart = await auditOffset(bench.auditLog);
    log(`operator with ${workers} worker(s): applying ${INDICES} OpenSearchIndex resources`);
    const startedAt = performance.now();
    let applySeconds = 0;
    const applying = pool(names, CREATES_IN_FLIGHT, (name) =>
      client.create(openSearchIndices.type, {
        apiVersion: openSearchIndices.apiVersion,
        kind: 'OpenSearchIndex',
        metadata: { name, namespace: ns },
        spec: { connectionRef: { name: bench.connection }, settings: { ...SETTINGS }, deletionPolicy: 'Retain' },
      }),
    ).then(() => {
      applySeconds = seconds(startedAt);
    });
    await waitForCount(() => indices.store.list(ns).filter(isReady).length, INDICES, 'OpenSearchIndices Ready', 900_000);
    const allReadySeconds = seconds(startedAt);
    const readyAt = performance.now();
    await applying;
    const metricsAfter = await operator.metricsText();
    const everyone = await writesSince(bench.auditLog, auditStart, undefined);
    const writes = everyone.filter((w) => w.username === username);
    // Another operator of this kind on the same apiserver (another session's) also reconciles the cluster-scoped
    // connection: its writes wake every index on it and make the figures meaningless.
    const otherOperators = [...new Set(everyone.filter((w) => w.username !== username && w.resource === 'opensearchconnections' && w.name === bench.connection).map((w) => w.username))];
    if (otherOperators.length > 0) log(`WARNING: the connection was also written by ${otherOperators.join(', ')}: another OpenSearch operator runs on this apiserver`);
    const reconciles = (text: string, metric: string): number => metricSum(text, metric, { controller: 'opensearchindex' });
    const phase: OperatorPhase = {
      workers,
      applySeconds,
      allReadySeconds,
      ratioToFloor: Math.round((allReadySeconds / bench.floorSeconds) * 100) / 100,
      requests: requestsBetween(metricsBefore, metricsAfter, INDICES),
      reconciles: reconciles(metricsAfter, 'controller_runtime_reconcile_total') - reconciles(metricsBefore, 'controller_runtime_reconcile_total'),
      reconcileErrors: reconciles(metricsAfter, 'controller_runtime_reconcile_errors_total') - reconciles(metricsBefore, 'controller_runtime_reconcile_errors_total'),
      apiserverWrites: countWrites(writes),
      apiserverWritesPerIndex: Math.round((writes.length / INDICES) * 100) / 100,
      peakRssMiB: await peakRssMiB(operator),
      otherOperators,
    };
    log(`all Ready after ${allReadySeconds} s (ratio ${phase.ratioToFloor}); ${phase.requests.perIndex} OpenSearch requests per index`);
    return { phase, operator, username, readyAt };
  } finally {
    informersStop.abort();
    await informersDone;
  }
}

/** Deletes the phase's resources (Retain: the running operator only releases finalizers), then stops it. */
async function endPhase(client: Client, namespace: string, operator: OperatorProcess): Promise<void> {
  const items = await client.listAll(openSearchIndices.type, { namespace });
  await pool(items, CREATES_IN_FLIGHT, (r) => client.delete(openSearchIndices.type, { namespace, name: r.metadata.name ?? '' }).catch(() => undefined));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if ((await client.list(openSearchIndices.type, { namespace, limit: 1 })).items.length === 0) break;
    await sleep(500);
  }
  await operator.stop();
}

async function main(): Promise<void> {
  const { values: flags } = parseArgs({ options: { workers: { type: 'string', default: '1,16' } } });
  const workerCounts = flags.workers.split(',').map((w) => Number(w));
  if (workerCounts.some((w) => !Number.isInteger(w) || w < 1)) throw new Error(`--workers: whole numbers ≥ 1, separated by commas; got ${flags.workers}`);
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const env = await ensureTestEnv(['apiserver', 'opensearch']);
  const id = randomSuffix();
  const prefix = `bench-${id}-`;
  const names = Array.from({ length: INDICES }, (_, i) => `${prefix}${String(i).padStart(3, '0')}`);
  const os = openSearchClient(env.opensearch);
  const { client, kubeConfig } = await adminConnection();
  const connection = `bench-${id}`;
  let namespace: string | undefined;
  let operator: OperatorProcess | undefined;
  try {
    // 1. The floor.
    await os.info(); // connect and authenticate outside the measurement
    const rounds: number[] = [];
    for (let round = 1; round <= FLOOR_ROUNDS; round++) {
      rounds.push(await floorRound(os, names, FLOOR_IN_FLIGHT));
      log(`floor round ${round} (${FLOOR_IN_FLIGHT} in flight): ${rounds.at(-1)} s`);
      await deleteIndices(os, prefix);
    }
    const sequentialSeconds = await floorRound(os, names, 1);
    log(`floor, one at a time: ${sequentialSeconds} s`);
    await deleteIndices(os, prefix);
    const floorSeconds = median(rounds);

    // 2. The operator, once per worker count, in a namespace of its own (indexName defaults to metadata.name: no tenancy).
    const ns = await freshNamespace({}, 'bench-opensearch');
    namespace = ns;
    await installCrds(client, 'opensearch'); // on a fresh cluster the connection comes before the operator's own install
    await client.create(coreTypes.secret, {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: `${connection}-login`, namespace: ns },
      stringData: { username: env.opensearch.adminUser.username, password: env.opensearch.adminUser.password },
    });
    await client.create(openSearchConnections.type, {
      apiVersion: openSearchConnections.apiVersion,
      kind: 'OpenSearchConnection',
      metadata: { name: connection },
      spec: { urls: [env.opensearch.url], credentialsSecretRef: { namespace: ns, name: `${connection}-login`, usernameKey: 'username', passwordKey: 'password' } },
    });
    const bench: Bench = { client, kubeConfig, auditLog: env.apiserver.auditLog, names, connection, namespace: ns, floorSeconds };
    const phases: OperatorPhase[] = [];
    let last: PhaseRun | undefined;
    for (const [i, workers] of workerCounts.entries()) {
      last = await operatorPhase(bench, workers, (started) => {
        operator = started;
      });
      phases.push(last.phase);
      if (i < workerCounts.length - 1) {
        await endPhase(client, ns, last.operator);
        operator = undefined;
        await deleteIndices(os, prefix);
      }
    }
    if (last === undefined) throw new Error('no operator phase ran');

    // 3. Steady state of the last phase.
    await sleep(Math.max(0, STEADY_START_AFTER_READY_S * 1000 - (performance.now() - last.readyAt)));
    const steadyMetricsBefore = await last.operator.metricsText();
    const steadyOffset = await auditOffset(env.apiserver.auditLog);
    log(`steady-state window: ${STEADY_WINDOW_S} s`);
    await sleep(STEADY_WINDOW_S * 1000);
    const steadyWrites = await writesSince(env.apiserver.auditLog, steadyOffset, last.username);
    const steadyMetricsAfter = await last.operator.metricsText();
    const reconcilesOf = (controller: string): number =>
      metricSum(steadyMetricsAfter, 'controller_runtime_reconcile_total', { controller }) - metricSum(steadyMetricsBefore, 'controller_runtime_reconcile_total', { controller });
    const lastPhase = { ...last.phase, peakRssMiB: await peakRssMiB(last.operator) };
    phases[phases.length - 1] = lastPhase;
    const best = Math.min(...phases.map((p) => p.ratioToFloor));

    const cpu = cpus();
    const report: OpenSearchBenchReport = {
      startedAt,
      machine: { cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? '?', memoryGiB: Math.round(totalmem() / 2 ** 30), loadBefore, loadAfter: loadavg() },
      versions: { node: process.version, opensearch: env.opensearch.version, kubernetes: env.apiserver.kubernetesVersion },
      indices: INDICES,
      indexSettings: SETTINGS,
      floor: { method: 'indices.create of @opensearch-project/opensearch', concurrency: FLOOR_IN_FLIGHT, rounds, medianSeconds: floorSeconds, sequentialSeconds },
      ratioTarget: RATIO_TARGET,
      operator: phases,
      steadyState: {
        workers: last.phase.workers,
        windowSeconds: STEADY_WINDOW_S,
        startedSecondsAfterReady: STEADY_START_AFTER_READY_S,
        apiserverWrites: steadyWrites.length,
        writesByVerb: countWrites(steadyWrites),
        indexReconciles: reconcilesOf('opensearchindex'),
        connectionReconciles: reconcilesOf('opensearchconnection'),
        openSearchRequests: requestsBetween(steadyMetricsBefore, steadyMetricsAfter, INDICES).byApi,
      },
      verdicts: { ratio: best <= RATIO_TARGET ? 'met' : 'missed', steadyStateWrites: steadyWrites.length === 0 ? 'met' : 'missed' },
    };
    const out = join(resolvePaths().root, '.reports', 'bench', 'opensearch-operator.json');
    await mkdir(join(resolvePaths().root, '.reports', 'bench'), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(formatReport(report));
    log(`written to ${out}`);
  } catch (err) {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    throw err;
  } finally {
    log('cleaning up');
    if (namespace !== undefined && operator !== undefined) await endPhase(client, namespace, operator).catch(() => undefined);
    await operator?.stop();
    if (namespace !== undefined) {
      // Finalizers left by an operator that is gone, then the namespace.
      for (const r of await client.listAll(openSearchIndices.type, { namespace }).catch(() => [])) {
        await client.patch(openSearchIndices.type, { namespace, name: r.metadata.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
      }
      await client.delete(coreTypes.namespace, { namespace: undefined, name: namespace }).catch(() => undefined);
    }
    await client.delete(openSearchConnections.type, { namespace: undefined, name: connection }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
    await deleteIndices(os, prefix).catch(() => undefined);
    await os.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
