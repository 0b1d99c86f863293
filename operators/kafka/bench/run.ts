// The kafka operator benchmark (`npx nx run kafka-operator:bench`, or `node operators/kafka/bench/run.ts` from the
// repository root). A report, never a timed test: it fails only when something cannot run.
//   1. floor: the same 1,000 topics created directly with batched CreateTopics calls (100 per request, all in
//      flight), three rounds, deleted after each;
//   2. apiserver floor: the same 1,000 KafkaTopics created and given their Ready status by a bare client (no operator,
//      no Kafka), with one status write per topic and with two (the operator's claim and Ready), three rounds each;
//   3. the operator as the e2e suites run it (a Pod of its Helm release, its image on testenv's node): 1,000
//      KafkaTopics applied at once → seconds until all are Ready, admin requests per topic, peak RSS;
//   4. steady state: apiserver writes by the operator's ServiceAccount during 60 s (audit log), in a window that
//      spans every topic's periodic drift check;
//   5. writes the JSON to .reports/bench/kafka-operator.json and prints the report.
// `BENCH_TOPICS=4000 BENCH_PARTITIONS=1` runs the same with 4,000 single-partition topics (report in
// kafka-operator-4000x1.json), the size where Strimzi's users report trouble (with 3 partitions each, testenv's broker
// runs out of its 512 MiB heap).
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { adminConnection, freshNamespace, installCrds, randomSuffix, startOperator, waitForCondition, waitForCount } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, eventType, getCondition, isNotFound, SharedInformers } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import type { KafkaInfo } from '@domain-operators/testenv';
import { Admin } from '@platformatic/kafka';
import { kafkaConnections, kafkaTopics } from '../src/index.ts';
import type { KafkaTopic } from '../src/index.ts';
import { auditOffset, countWrites, writesSince } from '@domain-operators/e2e-harness';
import { apiserverFloorRound, deleteFloorObjects } from './apiserver-floor.ts';
import { cpuSnapshot, cpuSpent, measuredPids, waitUntilIdle } from './cpu.ts';
import { heapSnapshotSummary, HEAP_SNAPSHOT_NODE_OPTIONS } from './heap-snapshot.ts';
import { adminRequestsBetween, eventFigures, formatReport, perReconcileMs, median, medianEach, metricSum, ONE_WRITE_FLOOR_RATIO_TARGET, STATUS_WRITES_PER_TOPIC_TARGET } from './report.ts';
import type { KafkaBenchReport } from './report.ts';

/** KafkaTopics per run: 1,000 (the figure), or `BENCH_TOPICS` for a scale run (its report gets its own file). */
const TOPICS = benchTopics(process.env['BENCH_TOPICS']);
/** Partitions per topic: 3, or `BENCH_PARTITIONS` (a 4,000-topic run uses 1: testenv's broker has a 512 MiB heap). */
const PARTITIONS = benchPartitions(process.env['BENCH_PARTITIONS']);
/** `BENCH_HEAP_SNAPSHOT=1`: a heap snapshot of the operator at the end, summarised by constructor in the report. */
const HEAP_SNAPSHOT = process.env['BENCH_HEAP_SNAPSHOT'] === '1';
const CONFIG = { 'retention.ms': '86400000' };
const BATCH = 100;
const FLOOR_ROUNDS = 3;
const CREATES_IN_FLIGHT = 100;
const RATIO_TARGET = 1.25;
const STEADY_WINDOW_S = 60;
/** Drift checks run 120 s ± 10 % after a topic's last reconcile: a window from +75 s to +135 s spans them. */
const STEADY_START_AFTER_READY_S = 75;

function benchTopics(text: string | undefined): number {
  if (text === undefined || text === '') return 1_000;
  const topics = Number(text);
  if (!Number.isInteger(topics) || topics < 100 || topics > 20_000) throw new Error(`BENCH_TOPICS must be a whole number from 100 to 20000, got ${text}`);
  return topics;
}

function benchPartitions(text: string | undefined): number {
  if (text === undefined || text === '') return 3;
  const partitions = Number(text);
  if (!Number.isInteger(partitions) || partitions < 1 || partitions > 12) throw new Error(`BENCH_PARTITIONS must be a whole number from 1 to 12, got ${text}`);
  return partitions;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (fromMs: number): number => Math.round((performance.now() - fromMs) / 10) / 100;

function log(message: string): void {
  console.error(`[bench] ${message}`);
}

function kafkaAdmin(kafka: KafkaInfo): Admin {
  return new Admin({ clientId: 'kafka-operator-bench', bootstrapBrokers: [...kafka.bootstrapServers], sasl: { ...kafka.superUser } });
}

/**
 * Deletes the topics of `names` that exist, in batches, until Kafka has listed none of them for 3 s in a row: a
 * broker's listing trails its controller after a burst of changes, so one listing can miss topics that exist.
 */
async function deleteTopics(admin: Admin, names: readonly string[]): Promise<void> {
  const wanted = new Set(names);
  const deadline = Date.now() + 180_000;
  let clearSince: number | undefined;
  while (Date.now() < deadline) {
    const present = (await admin.listTopics()).filter((n) => wanted.has(n));
    if (present.length === 0) {
      clearSince ??= Date.now();
      if (Date.now() - clearSince >= 3_000) return;
    } else {
      clearSince = undefined;
      const batches: Promise<unknown>[] = [];
      // A topic already being deleted answers an error; the next listing tells.
      for (let i = 0; i < present.length; i += BATCH) batches.push(admin.deleteTopics({ topics: present.slice(i, i + BATCH) }).catch(() => undefined));
      await Promise.all(batches);
    }
    await sleep(500);
  }
  throw new Error('topics still listed 180 s after DeleteTopics');
}

/** One floor round: every topic created by CreateTopics requests of {@link BATCH}, all in flight at once. Seconds. */
async function floorRound(admin: Admin, names: readonly string[]): Promise<number> {
  const configs = Object.entries(CONFIG).map(([name, value]) => ({ name, value }));
  const started = performance.now();
  const batches: Promise<unknown>[] = [];
  for (let i = 0; i < names.length; i += BATCH) batches.push(admin.createTopics({ topics: names.slice(i, i + BATCH), partitions: PARTITIONS, replicas: 1, configs }));
  await Promise.all(batches);
  const elapsed = seconds(started);
  // The broker's metadata cache trails the controller: wait (unmeasured) until every topic is listed. At 10,000 topics
  // the broker stays busy for a minute creating their logs, so the wait grows with the count (15 ms a topic, >= 60 s).
  const wanted = new Set(names);
  const waitMs = Math.max(60_000, names.length * 15);
  const deadline = Date.now() + waitMs;
  while ((await admin.listTopics()).filter((n) => wanted.has(n)).length < names.length) {
    if (Date.now() > deadline) throw new Error(`floor: topics not listed ${String(waitMs / 1000)} s after CreateTopics`);
    await sleep(100);
  }
  return elapsed;
}

/**
 * Sends CreateTopics for `names` in requests of {@link BATCH}, all at once, and returns, per topic, the answer of the
 * request that carries it (rejecting if that request failed).
 */
function createTopicsByName(admin: Admin, names: readonly string[]): (name: string) => Promise<unknown> {
  const configs = Object.entries(CONFIG).map(([name, value]) => ({ name, value }));
  const answers = new Map<string, Promise<unknown>>();
  for (let i = 0; i < names.length; i += BATCH) {
    const batch = names.slice(i, i + BATCH);
    const answer = admin.createTopics({ topics: batch, partitions: PARTITIONS, replicas: 1, configs });
    answer.catch(() => undefined); // awaited per topic; a failure is reported there
    for (const name of batch) answers.set(name, answer);
  }
  return (name) => answers.get(name) ?? Promise.reject(new Error(`no CreateTopics request carries ${name}`));
}

/** A memory figure of the operator process from `/proc/<pid>/status`, in MiB: `VmHWM` (peak so far) or `VmRSS` (now). */
async function memoryMiB(operator: OperatorProcess, field: 'VmHWM' | 'VmRSS'): Promise<number> {
  const pid = operator.pid();
  if (pid === undefined) throw new Error('the operator is not running');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kib = Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]);
  if (!Number.isFinite(kib)) throw new Error(`no ${field} in /proc/<pid>/status`);
  return Math.round((kib / 1024) * 10) / 10;
}

async function createConnection(client: Client, kafka: KafkaInfo, namespace: string, name: string): Promise<void> {
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${name}-login`, namespace },
    stringData: { username: kafka.superUser.username, password: kafka.superUser.password },
  });
  await client.create(kafkaConnections.type, {
    apiVersion: kafkaConnections.apiVersion,
    kind: 'KafkaConnection',
    metadata: { name },
    spec: {
      bootstrapServers: [...kafka.bootstrapServers],
      sasl: { mechanism: kafka.superUser.mechanism, secretRef: { namespace, name: `${name}-login`, usernameKey: 'username', passwordKey: 'password' } },
    },
  });
}

const isReady = (t: KafkaTopic): boolean => {
  const ready = getCondition(t.status?.conditions, 'Ready');
  return ready?.status === 'True' && ready.observedGeneration === t.metadata.generation;
};

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const env = await ensureTestEnv(['apiserver', 'kafka']);
  const id = randomSuffix();
  const names = Array.from({ length: TOPICS }, (_, i) => `bench-${id}-${String(i).padStart(4, '0')}`);
  const admin = kafkaAdmin(env.kafka);
  const { client, kubeConfig } = await adminConnection();
  let operator: OperatorProcess | undefined;
  let namespace: string | undefined;
  let floorNamespace: string | undefined;
  const connection = `bench-${id}`;
  const informersStop = new AbortController();
  try {
    // 1. The floor.
    await admin.listTopics(); // connect and authenticate outside the measurement
    const backendPids = await measuredPids();
    const rounds: number[] = [];
    const kafkaFloorCpu: number[] = [];
    const kafkaBusy: number[] = [];
    await waitUntilIdle(backendPids['kafka']);
    for (let round = 1; round <= FLOOR_ROUNDS; round++) {
      const before = await cpuSnapshot(backendPids);
      const roundStart = performance.now();
      rounds.push(await floorRound(admin, names));
      // The broker creates the partitions' logs after answering: its CPU is counted until it is idle again.
      const idleAt = await waitUntilIdle(backendPids['kafka']);
      kafkaBusy.push(idleAt === undefined ? Number.NaN : Math.round((idleAt - roundStart) / 10) / 100);
      kafkaFloorCpu.push(cpuSpent(before, await cpuSnapshot(backendPids))['kafka'] ?? Number.NaN);
      log(`floor round ${round}: ${rounds.at(-1)} s; Kafka busy for ${kafkaBusy.at(-1)} s, ${kafkaFloorCpu.at(-1)} CPU s`);
      await deleteTopics(admin, names);
      await waitUntilIdle(backendPids['kafka']);
    }
    const floorSeconds = median(rounds);

    // 2. The apiserver floor, in a namespace of its own that the operator never watches.
    await installCrds(client, 'kafka'); // on a fresh cluster the connection comes before the operator's own install
    floorNamespace = await freshNamespace({}, 'bench-kafka-floor');
    const apiRounds: Record<1 | 2, number[]> = { 1: [], 2: [] };
    const apiCpu: Record<1 | 2, Record<string, number>[]> = { 1: [], 2: [] };
    const withKafkaRounds: number[] = [];
    const withKafkaCpu: Record<string, number>[] = [];
    for (let round = 1; round <= FLOOR_ROUNDS; round++) {
      for (const statusWrites of [1, 2] as const) {
        const floorRoundArgs = { client, namespace: floorNamespace, connection, names, partitions: PARTITIONS, config: CONFIG, inFlight: CREATES_IN_FLIGHT };
        const before = await cpuSnapshot(backendPids);
        apiRounds[statusWrites].push(await apiserverFloorRound({ ...floorRoundArgs, statusWrites }));
        apiCpu[statusWrites].push(cpuSpent(before, await cpuSnapshot(backendPids)));
        log(`apiserver floor round ${round}, ${statusWrites} status write(s) per topic: ${apiRounds[statusWrites].at(-1)} s; CPU ${JSON.stringify(apiCpu[statusWrites].at(-1))}`);
        await deleteFloorObjects(client, floorNamespace, names, CREATES_IN_FLIGHT);
      }
      // Both systems' unavoidable work at once: the creates, CreateTopics in batches of BATCH (all in flight), and
      // each topic's one Ready write once its create and its CreateTopics answer are back.
      const floorRoundArgs = { client, namespace: floorNamespace, connection, names, partitions: PARTITIONS, config: CONFIG, inFlight: CREATES_IN_FLIGHT, statusWrites: 1 as const };
      const before = await cpuSnapshot(backendPids);
      withKafkaRounds.push(await apiserverFloorRound({ ...floorRoundArgs, external: () => createTopicsByName(admin, names) }));
      withKafkaCpu.push(cpuSpent(before, await cpuSnapshot(backendPids)));
      log(`apiserver and Kafka floor round ${round}: ${withKafkaRounds.at(-1)} s; CPU ${JSON.stringify(withKafkaCpu.at(-1))}`);
      await deleteFloorObjects(client, floorNamespace, names, CREATES_IN_FLIGHT);
      await deleteTopics(admin, names);
    }

    // 3. The operator, watching only the benchmark's namespace (the shared test environment may hold other
    // sessions' KafkaTopics and KafkaUsers; KafkaConnections are cluster-scoped and always watched), from a release
    // namespace of its own (deleted by stop()): other sessions' suites install the chart into kafka-operator-system.
    const ns = await freshNamespace({}, 'bench-kafka');
    namespace = ns;
    await createConnection(client, env.kafka, ns, connection);
    operator = await startOperator({
      system: 'kafka',
      values: { watchNamespaces: [ns] },
      releaseNamespace: `bench-kafka-op-${randomSuffix()}`,
      ...(HEAP_SNAPSHOT && { env: { NODE_OPTIONS: HEAP_SNAPSHOT_NODE_OPTIONS } }),
    });
    const username = `system:serviceaccount:${operator.namespace}:${operator.serviceAccount}`;
    await waitForCondition(client, kafkaConnections.type, { namespace: undefined, name: connection }, 'Ready', 'True', 60_000);
    const informers = new SharedInformers({ kubeConfig }, { namespace: ns });
    const topics = informers.informerFor(kafkaTopics.type);
    const informersDone = informers.run(informersStop.signal).catch(() => undefined);
    await informers.waitForSync();
    const metricsBefore = await operator.metricsText();
    const auditStart = await auditOffset(env.apiserver.auditLog);

    const pids = await measuredPids(operator);
    await waitUntilIdle(pids['kafka']);
    log(`applying ${TOPICS} KafkaTopics`);
    const cpuBefore = await cpuSnapshot(pids);
    const started = performance.now();
    let next = 0;
    const applyWorker = async (): Promise<void> => {
      while (next < TOPICS) {
        const name = names[next++] ?? '';
        await client.create(kafkaTopics.type, {
          apiVersion: kafkaTopics.apiVersion,
          kind: 'KafkaTopic',
          metadata: { name, namespace: ns },
          spec: { connectionRef: { name: connection }, partitions: PARTITIONS, replicationFactor: 1, config: { ...CONFIG }, deletionPolicy: 'Retain' },
        });
      }
    };
    let applySeconds = 0;
    const applying = Promise.all(Array.from({ length: CREATES_IN_FLIGHT }, applyWorker)).then(() => {
      applySeconds = seconds(started);
    });
    await waitForCount(() => topics.store.list(ns).filter(isReady).length, TOPICS, 'KafkaTopics Ready', 600_000);
    const allReadySeconds = seconds(started);
    const readyAt = performance.now();
    const readyWallMs = Date.now();
    const cpuSeconds = cpuSpent(cpuBefore, await cpuSnapshot(pids));
    const kafkaIdleAt = await waitUntilIdle(pids['kafka']);
    const kafkaBusySeconds = kafkaIdleAt === undefined ? Number.NaN : Math.round((kafkaIdleAt - started) / 10) / 100;
    const kafkaCpuUntilIdle = cpuSpent(cpuBefore, await cpuSnapshot(pids))['kafka'] ?? Number.NaN;
    await applying;
    const metricsAfter = await operator.metricsText();
    log(`all Ready after ${allReadySeconds} s (creates done after ${applySeconds} s)`);

    // 4. Steady state.
    await sleep(Math.max(0, STEADY_START_AFTER_READY_S * 1000 - (performance.now() - readyAt)));
    const steadyMetricsBefore = await operator.metricsText();
    const steadyCpuBefore = await cpuSnapshot(pids);
    const steadyOffset = await auditOffset(env.apiserver.auditLog);
    // Split by when the apiserver received each write: until all Ready (the informer saw the last Ready), and after.
    const writesUntilSteady = await writesSince(env.apiserver.auditLog, auditStart, username, steadyOffset);
    const receivedBeforeReady = (w: { readonly at?: string }): boolean => w.at === undefined || Date.parse(w.at) <= readyWallMs;
    const phaseWrites = writesUntilSteady.filter(receivedBeforeReady);
    const afterReadyWrites = writesUntilSteady.filter((w) => !receivedBeforeReady(w));
    const operatorWrites = phaseWrites.length;
    log(`writes until all Ready ${JSON.stringify(countWrites(phaseWrites))}; after ${JSON.stringify(countWrites(afterReadyWrites))}`);
    log(`steady-state window: ${STEADY_WINDOW_S} s`);
    await sleep(STEADY_WINDOW_S * 1000);
    const steadyWrites = await writesSince(env.apiserver.auditLog, steadyOffset, username);
    const steadyMetricsAfter = await operator.metricsText();
    const steadyCpu = cpuSpent(steadyCpuBefore, await cpuSnapshot(pids));
    const events = eventFigures(await client.listAll(eventType, { namespace: ns }));
    const rss = await memoryMiB(operator, 'VmHWM');
    const steadyRss = await memoryMiB(operator, 'VmRSS');
    const steadyTotal = steadyWrites.length;
    let heap: KafkaBenchReport['heap'];
    if (HEAP_SNAPSHOT) {
      const pid = operator.pid();
      log('taking a heap snapshot of the operator');
      heap = pid === undefined ? { error: 'no host pid for the operator' } : await heapSnapshotSummary(pid).catch((err: unknown) => ({ error: err instanceof Error ? err.message : String(err) }));
    }
    const reconciles =
      metricSum(metricsAfter, 'controller_runtime_reconcile_total', { controller: 'kafkatopic' }) -
      metricSum(metricsBefore, 'controller_runtime_reconcile_total', { controller: 'kafkatopic' });
    const steadyReconciles =
      metricSum(steadyMetricsAfter, 'controller_runtime_reconcile_total', { controller: 'kafkatopic' }) -
      metricSum(steadyMetricsBefore, 'controller_runtime_reconcile_total', { controller: 'kafkatopic' });
    const statusWritesPerTopic = Math.round(((countWrites(phaseWrites)['patch kafkatopics/status'] ?? 0) / TOPICS) * 1000) / 1000;
    const ofBench = steadyWrites.filter((w) => w.namespace === ns || (w.resource === 'kafkaconnections' && w.name === connection));
    const ratio = Math.round((allReadySeconds / floorSeconds) * 100) / 100;
    const floorFigures = (floorRounds: readonly number[], cpu: readonly Record<string, number>[]) => ({
      rounds: floorRounds,
      medianSeconds: median(floorRounds),
      ratio: Math.round((allReadySeconds / median(floorRounds)) * 100) / 100,
      cpuSeconds: medianEach(cpu),
    });
    const apiFloor = (writes: 1 | 2) => floorFigures(apiRounds[writes], apiCpu[writes]);

    const cpu = cpus();
    const report: KafkaBenchReport = {
      startedAt,
      machine: { cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? '?', memoryGiB: Math.round(totalmem() / 2 ** 30), loadBefore, loadAfter: loadavg() },
      versions: { node: process.version, kafka: env.kafka.version, kubernetes: env.apiserver.kubernetesVersion },
      topics: TOPICS,
      partitionsPerTopic: PARTITIONS,
      floor: { batchSize: BATCH, rounds, medianSeconds: floorSeconds, kafkaCpuSeconds: median(kafkaFloorCpu), kafkaBusySeconds: median(kafkaBusy) },
      apiserverFloor: { inFlight: CREATES_IN_FLIGHT, oneStatusWrite: apiFloor(1), twoStatusWrites: apiFloor(2), withKafka: floorFigures(withKafkaRounds, withKafkaCpu) },
      operator: {
        applySeconds,
        allReadySeconds,
        ratioToFloor: ratio,
        ratioTarget: RATIO_TARGET,
        adminRequests: adminRequestsBetween(metricsBefore, metricsAfter, TOPICS),
        peakRssMiB: rss,
        steadyRssMiB: steadyRss,
        steadyHeapUsedMiB: Math.round((metricSum(steadyMetricsAfter, 'nodejs_heap_size_used_bytes') / 2 ** 20) * 10) / 10,
        reconciles,
        cpuMsPerReconcile: perReconcileMs(cpuSeconds['operator'], reconciles),
        events,
        apiserverWrites: countWrites(phaseWrites),
        statusWritesPerTopic,
        apiserverWritesAfterReady: countWrites(afterReadyWrites),
        apiserverWritesPerSecond: Math.round((TOPICS + operatorWrites) / allReadySeconds),
        cpuSeconds,
        kafkaCpuSecondsUntilIdle: kafkaCpuUntilIdle,
        kafkaBusySeconds,
      },
      steadyState: {
        windowSeconds: STEADY_WINDOW_S,
        startedSecondsAfterReady: STEADY_START_AFTER_READY_S,
        apiserverWrites: steadyTotal,
        writesByVerb: countWrites(steadyWrites),
        writesOfBenchObjects: ofBench.length,
        topicReconciles: steadyReconciles,
        operatorCpuSeconds: steadyCpu['operator'] ?? Number.NaN,
        cpuMsPerReconcile: perReconcileMs(steadyCpu['operator'], steadyReconciles),
        adminRequests: adminRequestsBetween(steadyMetricsBefore, steadyMetricsAfter, TOPICS).total,
      },
      ...(heap !== undefined && { heap }),
      verdicts: {
        ratio: ratio <= RATIO_TARGET ? 'met' : 'missed',
        steadyStateWrites: steadyTotal === 0 ? 'met' : 'missed',
        ratioToOneWriteFloor: apiFloor(1).ratio <= ONE_WRITE_FLOOR_RATIO_TARGET ? 'met' : 'missed',
        statusWritesPerTopic: statusWritesPerTopic <= STATUS_WRITES_PER_TOPIC_TARGET ? 'met' : 'missed',
      },
    };
    const standard = TOPICS === 1_000 && PARTITIONS === 3;
    const out = join(resolvePaths().root, '.reports', 'bench', standard ? 'kafka-operator.json' : `kafka-operator-${String(TOPICS)}x${String(PARTITIONS)}.json`);
    await mkdir(join(resolvePaths().root, '.reports', 'bench'), { recursive: true });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(formatReport(report));
    log(`written to ${out}`);
    informersStop.abort();
    await informersDone;
  } catch (err) {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    throw err;
  } finally {
    informersStop.abort();
    log('cleaning up');
    if (namespace !== undefined) {
      // With Retain, the running operator releases every finalizer without touching Kafka.
      await client.delete(coreTypes.namespace, { namespace: undefined, name: namespace }).catch(() => undefined);
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        if ((await client.list(kafkaTopics.type, { namespace, limit: 1 }).catch(() => ({ items: [] }))).items.length === 0) break;
        await sleep(500);
      }
    }
    if (floorNamespace !== undefined) await client.delete(coreTypes.namespace, { namespace: undefined, name: floorNamespace }).catch(() => undefined);
    await operator?.stop();
    if (namespace !== undefined) {
      for (const t of await client.listAll(kafkaTopics.type, { namespace }).catch(() => [])) {
        await client.patch(kafkaTopics.type, { namespace, name: t.metadata.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
      }
    }
    await client.delete(kafkaConnections.type, { namespace: undefined, name: connection }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
    await deleteTopics(admin, names);
    await admin.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
