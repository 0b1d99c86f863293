// The redis operator benchmark (`npx nx run redis-operator:bench`, or `node operators/redis/bench/run.ts` from the
// repository root). A report, never a timed test: it fails only when something cannot run.
//   1. the operator as its users run it (startOperator: its image on testenv's node, its chart installed with helm
//      into a release namespace of its own, watching only the benchmark's namespace); five 3-member
//      RedisReplications of the node's Redis image, one after the other: create → Ready=True;
//   2. steady state: apiserver writes by the operator's ServiceAccount during 60 s (testenv's audit log) with the
//      last of them Ready;
//   3. failover, 10 runs per failure mode on that replication: the primary's redis-server (its container's host
//      pid) frozen (SIGSTOP, the downAfterMilliseconds path) and killed (SIGKILL; the kubelet restarts the
//      container empty, at once on a Pod's first exit; the killed Pod is replaced afterwards so that every kill meets
//      a Pod without CrashLoopBackOff); times until status.primary changes, the primary Service selects only the new
//      primary, and a write on it is read on the other surviving members; then until the old primary is back as a
//      replica;
//   4. steady state again after the failovers; writes the JSON to .reports/bench/redis-operator.json and prints the
//      report.
import { mkdir, writeFile } from 'node:fs/promises';
import type { V1Node } from '@kubernetes/client-node';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { adminConnection, deleteNamespace, freshNamespace, randomSuffix, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, eventType, resourceType } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import { redisReplications } from '../src/api/v1alpha1/index.ts';
import { auditOffset, countWrites, countWritesByObject, writesSince } from '@domain-operators/e2e-harness';
import { failoverRun, until, waitConverged } from './failover.ts';
import { info, isReady, memberPods, operatorPassword, replication } from './members.ts';
import type { Target } from './members.ts';
import { failoverSeries, formatReport, summarize } from './report.ts';
import type { FailoverRun, FailureMode, ReadyRun, RedisBenchReport, SteadyWindow } from './report.ts';

const MEMBERS = 3;
const DOWN_AFTER_MS = 5_000;
const READY_RUNS = 5;
const FAILOVER_RUNS = 10;
const POLL_MS = 25;
const STEADY_WINDOW_S = 60;
/** After convergence, before a steady-state window opens: lets the last status patch and Events land. */
const STEADY_SETTLE_MS = 5_000;
/** After the failovers: the EventRecorder patches an Event's series count up to 30 s after its last repeat. */
const EVENT_FLUSH_SETTLE_MS = 35_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const nodeType = resourceType<V1Node>({ group: '', version: 'v1', kind: 'Node', plural: 'nodes', namespaced: false });

function log(message: string): void {
  console.error(`[bench] ${new Date().toISOString().slice(11, 23)} ${message}`);
}

/** redis-server processes this benchmark has frozen and not yet resumed. */
const frozen = new Set<number>();

function resumeFrozen(): void {
  for (const pid of frozen) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  }
  frozen.clear();
}

async function createReplication(client: Client, namespace: string, name: string, image: string): Promise<void> {
  await client.create(redisReplications.type, {
    apiVersion: redisReplications.apiVersion,
    kind: redisReplications.kind,
    metadata: { name, namespace },
    spec: { replicas: MEMBERS, image, failover: { enabled: true, downAfterMilliseconds: DOWN_AFTER_MS } },
  });
}

/** Create → Ready=True (current generation), polled every {@link POLL_MS}, with when the Pods existed and were Ready. */
async function timeToReady(t: Target, image: string): Promise<ReadyRun> {
  const started = performance.now();
  const elapsed = (): number => Math.round(performance.now() - started);
  await createReplication(t.client, t.namespace, t.name, image);
  let podsCreatedMs: number | undefined;
  let podsReadyMs: number | undefined;
  await until(
    async () => {
      if (podsReadyMs === undefined) {
        const pods = await memberPods(t);
        if (pods.length === MEMBERS) podsCreatedMs ??= elapsed();
        if (pods.length === MEMBERS && pods.every((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))) podsReadyMs = elapsed();
      }
      return isReady(await replication(t)) ? true : undefined;
    },
    180_000,
    POLL_MS,
    `${t.name} Ready`,
  );
  return { readyMs: elapsed(), ...(podsCreatedMs !== undefined && { podsCreatedMs }), ...(podsReadyMs !== undefined && { podsReadyMs }) };
}

/** Deletes a replication and waits until its Pods are gone, so the next measurement starts on a quiet system. */
async function deleteReplication(t: Target): Promise<void> {
  await t.client.delete(redisReplications.type, { namespace: t.namespace, name: t.name });
  await until(async () => ((await memberPods(t)).length === 0 ? true : undefined), 120_000, 200, `${t.name} Pods gone`);
}

/**
 * Deletes a killed Pod (as admin) and waits for the StatefulSet's replacement. The kubelet restarts a container at
 * once on its first exit, then only after its CrashLoopBackOff (10 s after the last exit, doubling to 5 min; reset
 * after 10 min of running), keyed by the Pod's uid: without a fresh Pod, the next kill of the same member would
 * measure the restart backoff instead of the failover.
 */
async function replacePod(t: Target, name: string): Promise<void> {
  const before = await t.client.get(coreTypes.pod, { namespace: t.namespace, name });
  await t.client.delete(coreTypes.pod, { namespace: t.namespace, name });
  await until(
    async () => ((await memberPods(t)).some((p) => p.metadata?.name === name && p.metadata.uid !== before.metadata?.uid) ? true : undefined),
    60_000,
    200,
    `${name} replaced`,
  );
}

/** What a written Event says (reason, series count), for a report of unexpected writes; `undefined` when it is gone. */
async function describeEvent(client: Client, namespace: string, name: string): Promise<string | undefined> {
  try {
    const e = await client.get(eventType, { namespace, name });
    return `${e.type} ${e.reason} (${e.action}), series count ${e.series?.count ?? 1}: ${e.note ?? ''}`;
  } catch {
    return undefined;
  }
}

/**
 * Waits until the replication has converged, lets `settleMs` pass (writes in it are reported apart: e.g. the
 * EventRecorder's deferred series patches, at most 30 s after the last repeat), then counts the operator's writes
 * during {@link STEADY_WINDOW_S}.
 */
async function steadyWindow(label: string, settleMs: number, auditLog: string, username: string, t: Target, password: string): Promise<SteadyWindow> {
  await waitConverged(t, password, MEMBERS);
  const settleOffset = await auditOffset(auditLog);
  await sleep(settleMs);
  const offset = await auditOffset(auditLog);
  log(`steady state (${label}): ${STEADY_WINDOW_S} s window`);
  await sleep(STEADY_WINDOW_S * 1000);
  const writes = await writesSince(auditLog, offset, username);
  const settleWrites = await writesSince(auditLog, settleOffset, username, offset);
  const events: Record<string, string> = {};
  for (const w of writes.filter((x) => x.resource === 'events' && x.name !== undefined)) {
    events[w.name ?? ''] ??= (await describeEvent(t.client, w.namespace ?? t.namespace, w.name ?? '')) ?? '(gone)';
  }
  const window: SteadyWindow = {
    label,
    settleSeconds: settleMs / 1000,
    writesWhileSettling: settleWrites.length,
    settleByObject: countWritesByObject(settleWrites),
    windowSeconds: STEADY_WINDOW_S,
    writes: writes.length,
    byVerb: countWrites(writes),
    byObject: countWritesByObject(writes),
    events,
    at: writes.map((w) => `${w.at ?? '?'} ${w.verb} ${w.resource}${w.subresource === undefined ? '' : `/${w.subresource}`} ${w.name ?? ''}`),
  };
  log(`steady state (${label}): ${writes.length} writes ${JSON.stringify(window.byObject)}`);
  return window;
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const env = await ensureTestEnv(['apiserver']);
  if (env.node === undefined) throw new Error('testenv: the node is not up (env.json has no node)');
  const image = env.node.redisImage;
  const admin = await adminConnection();
  const { client } = admin;
  const nodeInfo = (await client.get(nodeType, { namespace: undefined, name: env.node.name })).status?.nodeInfo;
  let operator: OperatorProcess | undefined;
  let namespace: string | undefined;
  try {
    // The operator watches only the benchmark's namespace: the shared test environment may hold other sessions'
    // RedisReplications. Its release namespace is its own too (deleted by stop()): other sessions' suites install
    // the chart into redis-operator-system.
    const ns = await freshNamespace({}, 'bench-redis');
    namespace = ns;
    operator = await startOperator({ system: 'redis', values: { watchNamespaces: [ns] }, releaseNamespace: `bench-redis-op-${randomSuffix()}`, admin });
    const username = `system:serviceaccount:${operator.namespace}:${operator.serviceAccount}`;
    log(`operator ready as ${username} (Pod in ${operator.namespace}, release ${operator.releaseName}), watching ${ns}; members run ${image}`);

    // 1. Create → Ready, one replication at a time; the last one stays for the other measurements.
    const readyRuns: ReadyRun[] = [];
    let target: Target = { client, namespace: ns, name: 'bench-1' };
    for (let i = 1; i <= READY_RUNS; i++) {
      target = { client, namespace: ns, name: `bench-${i}` };
      const run = await timeToReady(target, image);
      readyRuns.push(run);
      log(`${target.name}: Ready after ${run.readyMs} ms (3 Pods created after ${run.podsCreatedMs ?? '—'} ms, all Pods Ready after ${run.podsReadyMs ?? '—'} ms)`);
      if (i < READY_RUNS) await deleteReplication(target);
    }
    const password = await operatorPassword(target);
    const first = await waitConverged(target, password, MEMBERS);
    const redisVersion = (await info(first.primary, password, 'server')).get('redis_version') ?? '?';

    // 2. Steady state with one Ready replication.
    const steady: SteadyWindow[] = [await steadyWindow('after Ready, before any failover', STEADY_SETTLE_MS, env.apiserver.auditLog, username, target, password)];

    // 3. Failovers.
    const series: Record<FailureMode, FailoverRun[]> = { frozen: [], killed: [] };
    for (const mode of ['frozen', 'killed'] as const) {
      for (let run = 1; run <= FAILOVER_RUNS; run++) {
        const result = await failoverRun(target, password, mode, run, { members: MEMBERS, pollMs: POLL_MS, timeoutMs: 60_000, frozen });
        series[mode].push(result);
        if (mode === 'killed') await replacePod(target, result.oldPrimary);
        log(
          `${mode} #${run}: ${result.oldPrimary} → ${result.newPrimary ?? '?'}; status ${result.statusMs ?? '—'} ms, Service ${result.serviceMs ?? '—'} ms, verified ${result.verifiedMs ?? '—'} ms, old primary rejoined ${result.rejoinedMs ?? '—'} ms${result.error === undefined ? '' : `; ERROR ${result.error}`}`,
        );
      }
    }

    // 4. Steady state again, after twenty failovers.
    steady.push(await steadyWindow('after the failovers', EVENT_FLUSH_SETTLE_MS, env.apiserver.auditLog, username, target, password));

    const cpu = cpus();
    const report: RedisBenchReport = {
      startedAt,
      machine: { cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? '?', memoryGiB: Math.round(totalmem() / 2 ** 30), loadBefore, loadAfter: loadavg() },
      versions: {
        node: process.version,
        redis: redisVersion,
        kubernetes: env.apiserver.kubernetesVersion,
        kubelet: nodeInfo?.kubeletVersion ?? '?',
        containerRuntime: nodeInfo?.containerRuntimeVersion ?? '?',
      },
      settings: { members: MEMBERS, image, downAfterMilliseconds: DOWN_AFTER_MS, pollMs: POLL_MS },
      ready: { ...summarize(readyRuns.map((r) => r.readyMs)), runsMs: readyRuns.map((r) => r.readyMs), runs: readyRuns, podsReady: summarize(readyRuns.map((r) => r.podsReadyMs)) },
      failover: (['frozen', 'killed'] as const).map((mode) => failoverSeries(mode, series[mode], DOWN_AFTER_MS)),
      steadyState: steady,
      verdicts: { steadyStateWrites: steady.every((w) => w.writes === 0) ? 'met' : 'missed' },
    };
    const dir = join(resolvePaths().root, '.reports', 'bench');
    await mkdir(dir, { recursive: true });
    const out = join(dir, 'redis-operator.json');
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(formatReport(report));
    log(`written to ${out}`);
  } catch (err) {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    if (operator !== undefined) log(`operator log tail:\n${await operator.logTail(40)}`);
    throw err;
  } finally {
    resumeFrozen();
    log('cleaning up');
    if (namespace !== undefined) await deleteNamespace(namespace).catch(() => undefined);
    await operator?.stop();
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    resumeFrozen(); // never leave a redis-server stopped
    process.exit(130);
  });
}
process.once('exit', resumeFrozen);

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
