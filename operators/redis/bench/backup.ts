// The redis backup benchmark (`npx nx run redis-operator:bench-backup`, or `node operators/redis/bench/backup.ts`
// from the repository root), issue #17. A report, never a timed test: it fails only when something cannot run.
//   1. the operator as its users run it (its image on testenv's node, its chart installed into a release namespace
//      of its own, watching only the benchmark's namespace); a 2-member RedisReplication of the node's Redis image
//      filled with 512 MiB of incompressible values (4,096 × 128 KiB, WAIT 1): backup-setup.ts, shared with restore.ts;
//   2. alternately, RUNS times: the floor (the host's `redis-cli --rdb` against the linked replica the operator
//      would choose, to a file; then that file uploaded to testenv's S3 with the operator's own upload function, so
//      with the same part size, parts in flight and pooled part buffers), and a RedisBackup through the operator
//      (created → phase Succeeded), while the operator Pod's `process_resident_memory_bytes` is sampled from its
//      /metrics every 200 ms;
//   3. writes the JSON to .reports/bench/redis-backup.json and prints the report. Every object it stored is deleted.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { readablePayload } from '../src/backup/payload.ts';
import { PART_SIZE_BYTES, PARTS_IN_FLIGHT, s3ClientFor, uploadBackup } from '../src/backup/s3-upload.ts';
import type { S3Target } from '../src/backup/s3-upload.ts';
import { OPERATOR_USERNAME } from '../src/redis/manifests.ts';
import { backUp, benchLog, logFailure, publishReport, runBench, sleep, startBackupBench, stopBackupBench, VALUE_BYTES, VALUES } from './backup-setup.ts';
import type { BackupBench, BackupBenchResources } from './backup-setup.ts';
import { formatBackupReport, residentMemory, summarizeBackup } from './backup-report.ts';
import type { BackupBenchReport, FloorRun, OperatorRun } from './backup-report.ts';

const RUNS = Number(process.env['BENCH_BACKUP_RUNS'] ?? '3');
const RSS_SAMPLE_MS = 200;
/** RSS samples before a RedisBackup is created, for its baseline. */
const BASELINE_SAMPLES = 10;
const log = benchLog('bench-backup');

/**
 * `redis-cli --rdb <file>` against `host` as the operator's user (password through REDISCLI_AUTH, never argv):
 * redis-cli 7.0 asks with `SYNC`, which the replication user (allowed `PSYNC`, what the operator sends) may not run.
 */
function redisCliRdb(host: string, password: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-cli', ['-h', host, '-p', '6379', '--user', OPERATOR_USERNAME, '--rdb', file], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, REDISCLI_AUTH: password } });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve();
      else reject(new Error(`redis-cli --rdb exited ${String(code)}: ${stderr.slice(-500)}`));
    });
  });
}

/** Samples the operator's RSS every {@link RSS_SAMPLE_MS} until stopped; scrape failures are skipped. */
function sampleRss(operator: OperatorProcess): { readonly samples: { at: number; bytes: number }[]; stop(): Promise<void> } {
  const samples: { at: number; bytes: number }[] = [];
  const state = { running: true };
  const loop = (async () => {
    while (state.running) {
      const bytes = await operator.metricsText().then(residentMemory, () => undefined);
      if (bytes !== undefined) samples.push({ at: performance.now(), bytes });
      await sleep(RSS_SAMPLE_MS);
    }
  })();
  return {
    samples,
    stop: async () => {
      state.running = false;
      await loop;
    },
  };
}

async function floorRun(host: string, password: string, s3Target: S3Target, key: string): Promise<FloorRun> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-backup-'));
  const file = join(dir, 'dump.rdb');
  try {
    const started = performance.now();
    await redisCliRdb(host, password, file);
    const rdbMs = performance.now() - started;
    const sizeBytes = (await stat(file)).size;
    const client = s3ClientFor(s3Target);
    try {
      await uploadBackup(client, s3Target, key, readablePayload(createReadStream(file)));
    } finally {
      client.destroy();
    }
    const totalMs = performance.now() - started;
    return { rdbMs: Math.round(rdbMs), uploadMs: Math.round(totalMs - rdbMs), totalMs: Math.round(totalMs), sizeBytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function operatorRun(b: BackupBench, name: string): Promise<OperatorRun> {
  const rss = sampleRss(b.operator);
  try {
    const deadline = Date.now() + 60_000;
    while (rss.samples.length < BASELINE_SAMPLES) {
      if (Date.now() > deadline) throw new Error('no RSS samples from the operator’s /metrics within 60 s');
      await sleep(RSS_SAMPLE_MS);
    }
    const baseline = rss.samples.slice(-BASELINE_SAMPLES).map((s) => s.bytes).sort((x, y) => x - y);
    const started = performance.now();
    const { backup, totalMs } = await backUp(b, name);
    const during = rss.samples.filter((s) => s.at >= started).map((s) => s.bytes);
    return { totalMs, sizeBytes: backup.status?.sizeBytes ?? 0, rssBaselineBytes: baseline[Math.floor(baseline.length / 2)] ?? 0, rssPeakBytes: Math.max(0, ...during), rssSamples: during.length };
  } finally {
    await rss.stop();
  }
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const resources: BackupBenchResources = {};
  try {
    const b = await startBackupBench('backup', resources, log);
    const floor: FloorRun[] = [];
    const viaOperator: OperatorRun[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const f = await floorRun(b.replicaIp, b.password, b.s3Target, `floor/${run}.rdb`);
      floor.push(f);
      log(`floor #${run}: rdb ${f.rdbMs} ms + upload ${f.uploadMs} ms = ${f.totalMs} ms (${f.sizeBytes} bytes); load ${loadavg()[0]?.toFixed(2) ?? '?'}`);
      const o = await operatorRun(b, `bench-${run}`);
      viaOperator.push(o);
      log(`operator #${run}: ${o.totalMs} ms (${o.sizeBytes} bytes); RSS ${o.rssBaselineBytes} → ${o.rssPeakBytes} (${o.rssSamples} samples); load ${loadavg()[0]?.toFixed(2) ?? '?'}`);
    }
    const cpu = cpus();
    const report: BackupBenchReport = {
      startedAt,
      machine: { cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? '?', memoryGiB: Math.round(totalmem() / 2 ** 30), loadBefore, loadAfter: loadavg() },
      settings: { datasetBytes: VALUES * VALUE_BYTES, partSizeBytes: PART_SIZE_BYTES, partsInFlight: PARTS_IN_FLIGHT, redisCli: "the host's redis-cli (Debian's, as in the node's Redis image) --rdb to a local file", source: 'the linked replica' },
      floor,
      operator: viaOperator,
      ...summarizeBackup(floor, viaOperator),
    };
    await publishReport('redis-backup.json', report, formatBackupReport(report), log);
  } catch (err) {
    await logFailure(err, resources, log);
    throw err;
  } finally {
    await stopBackupBench(resources, log);
  }
}

runBench(main);
