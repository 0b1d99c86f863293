// The redis restore benchmark (`npx nx run redis-operator:bench-restore`, or `node operators/redis/bench/restore.ts`
// from the repository root), issue #17. A report, never a timed test: it fails only when something cannot run.
//   1. the backup benchmark's set-up (backup-setup.ts): the operator on testenv's node, a 2-member RedisReplication
//      filled with 512 MiB of incompressible values; one RedisBackup of it through the operator into testenv's S3;
//   2. alternately, RUNS times: the floor (that object downloaded with the same S3 library, @aws-sdk/client-s3
//      GetObject, to a file; then the host's redis-server, Debian's 7.0.15 as in the node's Redis image, started on it
//      until it answers PING and DBSIZE is the dataset's key count; the machine's busy CPU time over it, its
//      background in the quiet second before, and the CPU time of the SHA-256 check a restoring member makes), and
//      a restore through the operator (a new 3-member RedisReplication with spec.restore.backupRef: created →
//      Ready=True for its generation with status.restoredFrom set and every member Ready, and the machine's busy CPU
//      time over it), its state polled every 100 ms and every change kept in a timeline (conditions,
//      readyReplicas, restoredFrom, each Pod's phase and readiness); the replication is then deleted and its Pods
//      waited out;
//   3. writes the JSON to .reports/bench/redis-restore.json and prints the report, with the medians of the report it
//      replaces (the previous run's) beside its own.
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import type { V1Pod } from '@kubernetes/client-node';
import { getCondition } from '@domain-operators/reconcile';
import { Redis } from 'ioredis';
import { redisReplications } from '../src/api/v1alpha1/index.ts';
import { RESTORE_CONTAINER_NAME } from '../src/agent/restore-plan.ts';
import { s3ClientFor } from '../src/backup/s3-upload.ts';
import { backUp, benchLog, logFailure, publishReport, runBench, sleep, startBackupBench, stopBackupBench, until, VALUE_BYTES, VALUES } from './backup-setup.ts';
import type { BackupBench, BackupBenchResources } from './backup-setup.ts';
import { isReady, memberPods, replication } from './members.ts';
import type { Target } from './members.ts';
import { resolvePaths } from '@domain-operators/testenv';
import { machineBusyMs } from './machine-cpu.ts';
import { formatRestoreReport, previousRestoreRun, summarizeRestore } from './restore-report.ts';
import type { Observation, RestoreBenchReport, RestoreFloorRun, RestoreOperatorRun } from './restore-report.ts';

const RUNS = Number(process.env['BENCH_RESTORE_RUNS'] ?? '3');
const MEMBERS = 3;
const POLL_MS = 100;
/** How long the machine's background CPU use is sampled before each floor run. */
const BACKGROUND_SAMPLE_MS = 1_000;
/** The floor's redis-server port on the host's loopback. */
const FLOOR_PORT = 16_479;
const log = benchLog('bench-restore');
/** The report's file under `.reports/bench/`; the one a run finds there is the previous run's. */
const REPORT_FILE = 'redis-restore.json';

/** The object key of an `s3://<bucket>/<key>` location. Pure. */
function keyOf(location: string, bucket: string): string {
  const prefix = `s3://${bucket}/`;
  if (!location.startsWith(prefix)) throw new Error(`location ${location} is not in bucket ${bucket}`);
  return location.slice(prefix.length);
}

/** Resolves when `child` has exited. */
function exited(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => {
        child.once('exit', () => {
          resolve();
        });
      });
}

/** Polls the floor's redis-server until it answers PING and holds every key (it answers LOADING until the RDB is in). */
async function loaded(port: number): Promise<void> {
  await until(
    async () => {
      const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false, connectTimeout: 500, commandTimeout: 1_000 });
      redis.on('error', () => undefined);
      try {
        await redis.connect();
        await redis.ping();
        return (await redis.dbsize()) === VALUES ? true : undefined;
      } finally {
        redis.disconnect();
      }
    },
    120_000,
    25,
    `redis-server on :${port} loaded with ${VALUES} keys`,
  );
}

/** What {@link sha256CpuMs} runs in a fresh Node process: the agent's streamed hash of a file; prints its CPU time (ms). */
const HASH_SCRIPT = `
const { createHash } = require('node:crypto');
const { createReadStream } = require('node:fs');
(async () => {
  const before = process.cpuUsage();
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(process.argv[1])) hash.update(chunk);
  hash.digest();
  const spent = process.cpuUsage(before);
  process.stdout.write(String(Math.round((spent.user + spent.system) / 1000)));
})();
`;

/**
 * The CPU time, in ms, of computing the SHA-256 of `path` streamed as a restoring member's agent does, in a fresh
 * Node process (as the agent is one): this process's own heap and timers would add to it.
 */
async function sha256CpuMs(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['-e', HASH_SCRIPT, path], (err, stdout) => {
      if (err !== null) reject(new Error(`hashing ${path} failed: ${err.message}`));
      else resolve(Number(stdout));
    });
  });
}

async function floorRun(b: BackupBench, key: string): Promise<RestoreFloorRun> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-restore-'));
  const client = s3ClientFor(b.s3Target);
  let server: ChildProcess | undefined;
  try {
    // The machine's background (control plane, node, the operator's steady look at the source), measured quietly.
    const quietFrom = await machineBusyMs();
    await sleep(BACKGROUND_SAMPLE_MS);
    const busyBefore = await machineBusyMs();
    const backgroundCores = (busyBefore - quietFrom) / BACKGROUND_SAMPLE_MS;
    const started = performance.now();
    const object = await client.send(new GetObjectCommand({ Bucket: b.s3Target.bucket, Key: key }));
    await pipeline(object.Body as Readable, createWriteStream(join(dir, 'dump.rdb')));
    const downloadMs = performance.now() - started;
    server = spawn('redis-server', ['--bind', '127.0.0.1', '--port', String(FLOOR_PORT), '--dir', dir, '--dbfilename', 'dump.rdb', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await loaded(FLOOR_PORT);
    const totalMs = performance.now() - started;
    const cpuMs = Math.round((await machineBusyMs()) - busyBefore);
    const verifyCpuMs = await sha256CpuMs(join(dir, 'dump.rdb'));
    return { downloadMs: Math.round(downloadMs), loadMs: Math.round(totalMs - downloadMs), totalMs: Math.round(totalMs), sizeBytes: (await stat(join(dir, 'dump.rdb'))).size, cpuMs, backgroundCores: Math.round(backgroundCores * 100) / 100, verifyCpuMs };
  } finally {
    client.destroy();
    if (server !== undefined) {
      server.kill('SIGTERM');
      await exited(server);
    }
    await rm(dir, { recursive: true, force: true });
  }
}

/** One line of what the benchmark sees: Ready's status and reason, counts, restoredFrom, each Pod. Pure. */
function stateLine(rr: Awaited<ReturnType<typeof replication>>, pods: readonly V1Pod[]): string {
  const ready = getCondition(rr.status?.conditions, 'Ready');
  const podStates = pods.map((p) => {
    const init = p.status?.initContainerStatuses?.find((c) => c.name === RESTORE_CONTAINER_NAME);
    const initState = init === undefined ? '' : init.state?.running !== undefined ? ' restoring' : init.state?.terminated !== undefined ? '' : ' init-waiting';
    const podReady = p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True';
    return `${p.metadata?.name ?? '?'}:${p.status?.phase ?? '?'}${initState}${podReady ? ' Ready' : ''}${p.metadata?.labels?.['redis.domain-operators.io/role'] === 'primary' ? ' primary' : ''}`;
  });
  return [
    `Ready=${ready?.status ?? '—'}/${ready?.reason ?? '—'}${ready?.observedGeneration === rr.metadata.generation ? '' : ' (old generation)'}`,
    `readyReplicas=${rr.status?.readyReplicas ?? 0}`,
    ...(rr.status?.restoredFrom === undefined ? [] : ['restoredFrom']),
    `pods [${podStates.join(', ')}]`,
  ].join(' ');
}

/** Whole seconds between two kubelet or apiserver timestamps; null when one is missing. Pure. */
function secondsBetween(from: Date | undefined, to: Date | undefined): number | null {
  return from === undefined || to === undefined ? null : Math.round((new Date(to).getTime() - new Date(from).getTime()) / 1000);
}

async function operatorRun(b: BackupBench, name: string, backupName: string): Promise<RestoreOperatorRun> {
  const t: Target = { client: b.target.client, namespace: b.target.namespace, name };
  const timeline: Observation[] = [];
  const busyBefore = await machineBusyMs();
  const started = performance.now();
  await t.client.create(redisReplications.type, {
    apiVersion: redisReplications.apiVersion,
    kind: redisReplications.kind,
    metadata: { namespace: t.namespace, name },
    spec: { replicas: MEMBERS, image: b.redisImage, restore: { backupRef: { name: backupName } } },
  });
  let restoredFromMs: number | undefined;
  let restoreContainer: RestoreOperatorRun['restoreContainer'] = { startedAfterS: null, ranS: null };
  let last = '';
  const done = await until(
    async () => {
      const rr = await replication(t);
      const at = Math.round(performance.now() - started);
      const pods = await memberPods(t);
      // Read while ordinal 0's first Pod exists (a rollout, as after a volume restore, would replace it).
      const first = pods.find((p) => p.metadata?.name === `${name}-0`);
      const init = first?.status?.initContainerStatuses?.find((c) => c.name === RESTORE_CONTAINER_NAME)?.state?.terminated;
      if (restoreContainer.ranS === null && init !== undefined) restoreContainer = { startedAfterS: secondsBetween(first?.metadata?.creationTimestamp, init.startedAt), ranS: secondsBetween(init.startedAt, init.finishedAt) };
      const line = stateLine(rr, pods);
      if (line !== last) {
        timeline.push({ atMs: at, state: line });
        last = line;
      }
      if (restoredFromMs === undefined && rr.status?.restoredFrom !== undefined) restoredFromMs = at;
      return isReady(rr) && rr.status?.restoredFrom !== undefined && rr.status.readyReplicas === MEMBERS ? { rr, at } : undefined;
    },
    900_000,
    POLL_MS,
    `RedisReplication ${name} restored and Ready`,
  );
  // The busy time until Ready was seen, give or take the last 100 ms poll.
  const cpuMs = Math.round((await machineBusyMs()) - busyBefore);
  return { restoredFromMs: restoredFromMs ?? done.at, readyMs: done.at, restoredKeys: done.rr.status?.restoredKeys ?? null, restoreContainer, timeline, cpuMs };
}

async function deleteReplication(t: Target): Promise<void> {
  await t.client.delete(redisReplications.type, { namespace: t.namespace, name: t.name });
  await until(async () => ((await memberPods(t)).length === 0 ? true : undefined), 300_000, 500, `the Pods of ${t.name} gone`);
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const resources: BackupBenchResources = {};
  const previous = previousRestoreRun(
    await readFile(join(resolvePaths().root, '.reports', 'bench', REPORT_FILE), 'utf8')
      .then((text) => JSON.parse(text) as unknown)
      .catch(() => undefined),
  );
  try {
    const b = await startBackupBench('restore', resources, log);
    const source = await backUp(b, 'restore-source');
    const location = source.backup.status?.location ?? '';
    const key = keyOf(location, b.s3Target.bucket);
    log(`backup ${location} (${source.backup.status?.sizeBytes ?? 0} bytes) in ${source.totalMs} ms`);
    const floor: RestoreFloorRun[] = [];
    const viaOperator: RestoreOperatorRun[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const f = await floorRun(b, key);
      floor.push(f);
      log(`floor #${run}: download ${f.downloadMs} ms + load ${f.loadMs} ms = ${f.totalMs} ms; machine CPU ${f.cpuMs} ms; load ${loadavg()[0]?.toFixed(2) ?? '?'}`);
      const name = `restored-${run}`;
      const o = await operatorRun(b, name, 'restore-source');
      viaOperator.push(o);
      log(`operator #${run}: restoredFrom ${o.restoredFromMs} ms, Ready ${o.readyMs} ms, ${o.restoredKeys ?? '?'} keys; machine CPU ${o.cpuMs} ms; load ${loadavg()[0]?.toFixed(2) ?? '?'}`);
      await deleteReplication({ ...b.target, name });
      await sleep(2_000);
    }
    const cpu = cpus();
    const report: RestoreBenchReport = {
      startedAt,
      machine: { cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? '?', memoryGiB: Math.round(totalmem() / 2 ** 30), loadBefore, loadAfter: loadavg() },
      settings: {
        datasetBytes: VALUES * VALUE_BYTES,
        keys: VALUES,
        members: MEMBERS,
        redisServer: "@aws-sdk/client-s3 GetObject to a file, then the host's redis-server (Debian's 7.0.15, as in the node's Redis image) on it",
        backupMs: source.totalMs,
        objectBytes: source.backup.status?.sizeBytes ?? 0,
      },
      floor,
      operator: viaOperator,
      ...summarizeRestore(floor, viaOperator, { members: MEMBERS, cpus: cpu.length }),
      ...(previous !== undefined && { previous }),
    };
    await publishReport(REPORT_FILE, report, formatRestoreReport(report), log);
  } catch (err) {
    await logFailure(err, resources, log);
    throw err;
  } finally {
    await stopBackupBench(resources, log);
  }
}

runBench(main);
