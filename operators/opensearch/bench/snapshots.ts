// The OpenSearch snapshot benchmark (`npx nx run opensearch-operator:bench-snapshots`, or `node
// operators/opensearch/bench/snapshots.ts [--rounds=3] [--direct-only] [--operator-log]` from the repository root). A report, never a
// timed test: it fails only when something cannot run. Issue #16's figure: snapshot and restore of 50 indices holding
// 200,000 documents, the operator against the snapshot and restore APIs called directly, in the same run.
//   1. 50 indices (1 shard, 0 replicas) in a namespace's prefix, 200,000 small documents bulk-loaded, flushed;
//   2. rounds, each side once per round, direct first; each snapshot goes into a new fs repository under testenv's
//      path.repo, so every one is a full snapshot (a second snapshot into the same repository copies nothing);
//      - direct: `PUT _snapshot/<repo>/<name>` (wait_for_completion=false), `GET` it every 100 ms until SUCCESS; then
//        `_restore` with a rename to `<ns>-restored-…` and `GET <ns>-restored-*/_recovery` every 100 ms until every
//        shard of the 50 indices is DONE;
//      - operator (its chart's ServiceAccount, as the e2e suites run it): an OpenSearchSnapshotRepository for the
//        round's folder (Ready before the clock starts), an OpenSearchSnapshotPolicy (suspended, seen by the operator
//        before the clock starts); the clock runs from the `snapshot-now` annotation until the policy's status shows
//        that token's snapshot SUCCESS, then from the creation of an OpenSearchSnapshotRestore with the same rename
//        until its phase is Succeeded; both read from the apiserver every 100 ms;
//      the restored indices are deleted after each side;
//   3. medians of the rounds side by side with their ratio, written to .reports/bench/opensearch-snapshots.json.
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client as OpenSearchClient } from '@opensearch-project/opensearch';
import { adminConnection, freshNamespace, installCrds, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import type { OpenSearchInfo } from '@domain-operators/testenv';
import { openSearchConnections, openSearchSnapshotPolicies, openSearchSnapshotRepositories, openSearchSnapshotRestores, SNAPSHOT_NOW_ANNOTATION } from '../src/api/v1alpha1/index.ts';
import type { OpenSearchSnapshotPolicy } from '../src/api/v1alpha1/index.ts';
import { formatSnapshotReport, mediansOf, ratiosOf } from './snapshot-report.ts';
import type { SnapshotBenchReport, SnapshotRound, SnapshotSide } from './snapshot-report.ts';

const INDICES = 50;
const DOCUMENTS = 200_000;
const BULK_DOCUMENTS = 5_000;
const RATIO_TARGET = 1.1;
const POLL_MS = 100;
const PHASE_TIMEOUT_MS = 600_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (fromMs: number): number => Math.round((performance.now() - fromMs) / 10) / 100;

function log(message: string): void {
  console.error(`[bench-snapshots] ${message}`);
}

function openSearchClient(info: OpenSearchInfo): OpenSearchClient {
  return new OpenSearchClient({ nodes: [info.url], auth: { ...info.adminUser }, requestTimeout: 120_000 });
}

/** Calls `check` every {@link POLL_MS} until it returns a value; throws after {@link PHASE_TIMEOUT_MS} naming `what`. */
async function poll<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = performance.now() + PHASE_TIMEOUT_MS;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`${what}: not within ${PHASE_TIMEOUT_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

/** What every round needs. */
interface Bench {
  readonly os: OpenSearchClient;
  readonly client: Client;
  readonly namespace: string;
  readonly connection: string;
  readonly id: string;
  /** The folder under path.repo that holds every repository of this run. */
  readonly root: string;
  /** Repositories registered by hand (the direct side), unregistered at the end. */
  readonly byHand: string[];
}

const docsPattern = (b: Bench): string => `${b.namespace}-doc-*`;
const restoredPattern = (b: Bench): string => `${b.namespace}-restored-*`;
const rename = (b: Bench): { readonly pattern: string; readonly replacement: string } => ({ pattern: `${b.namespace}-doc-(.+)`, replacement: `${b.namespace}-restored-$1` });

/** Creates the indices and loads the documents (outside any measurement); resolves with their primary store bytes. */
async function loadIndices(b: Bench): Promise<number> {
  const names = Array.from({ length: INDICES }, (_, i) => `${b.namespace}-doc-${String(i).padStart(2, '0')}`);
  for (const index of names) await b.os.indices.create({ index, body: { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' } } });
  const levels = ['debug', 'info', 'warn', 'error'];
  for (let start = 0; start < DOCUMENTS; start += BULK_DOCUMENTS) {
    const body: unknown[] = [];
    for (let n = start; n < Math.min(start + BULK_DOCUMENTS, DOCUMENTS); n++) {
      body.push({ index: { _index: names[n % INDICES] } });
      body.push({ n, level: levels[n % levels.length], at: new Date(1_764_547_200_000 + n * 1000).toISOString(), message: `document ${n} of the snapshot benchmark, ${'x'.repeat(n % 64)}` });
    }
    const answer = await b.os.bulk({ body: body as Record<string, unknown>[] });
    if ((answer.body as { errors?: boolean }).errors === true) throw new Error('bulk load: some documents were refused');
  }
  await b.os.indices.refresh({ index: docsPattern(b) });
  await b.os.indices.flush({ index: docsPattern(b) });
  const count = (await b.os.count({ index: docsPattern(b) })).body.count;
  if (count !== DOCUMENTS) throw new Error(`loaded ${count} documents, expected ${DOCUMENTS}`);
  const stats = (await b.os.indices.stats({ index: docsPattern(b), metric: 'store' })).body as { _all: { primaries: { store: { size_in_bytes: number } } } };
  return stats._all.primaries.store.size_in_bytes;
}

/** Deletes the restored indices and waits until none is listed. */
async function deleteRestored(b: Bench): Promise<void> {
  await b.os.indices.delete({ index: restoredPattern(b), expand_wildcards: 'all' });
  await poll('restored indices deleted', async () => {
    const listed = await b.os.cat.indices({ index: restoredPattern(b), format: 'json' });
    return Array.isArray(listed.body) && listed.body.length === 0 ? true : undefined;
  });
}

/** Whether every shard of all {@link INDICES} restored indices has recovered (stage DONE). */
async function restoreDone(b: Bench): Promise<boolean> {
  const answer = await b.os.indices.recovery({ index: restoredPattern(b) });
  const body = answer.body as Record<string, { shards?: { stage?: string }[] }>;
  const indices = Object.values(body);
  return indices.length === INDICES && indices.every((index) => (index.shards ?? []).length > 0 && (index.shards ?? []).every((shard) => shard.stage === 'DONE'));
}

/** One direct round: a repository registered by hand, the snapshot API, the restore API, each polled until done. */
async function directRound(b: Bench, round: number): Promise<SnapshotRound> {
  const repository = `bench-snap-${b.id}-direct-${round}`;
  await b.os.snapshot.createRepository({ repository, verify: false, body: { type: 'fs', settings: { location: join(b.root, `direct-${round}`) } } });
  b.byHand.push(repository);
  const snapshot = `direct-${round}`;

  const started = performance.now();
  await b.os.snapshot.create({ repository, snapshot, wait_for_completion: false, body: { indices: docsPattern(b), include_global_state: false } });
  await poll(`snapshot ${snapshot} SUCCESS`, async () => {
    const answer = await b.os.snapshot.get({ repository, snapshot });
    const state = (answer.body as { snapshots: { state: string }[] }).snapshots[0]?.state;
    if (state === 'FAILED' || state === 'PARTIAL' || state === 'INCOMPATIBLE') throw new Error(`snapshot ${snapshot} ended ${state}`);
    return state === 'SUCCESS' ? true : undefined;
  });
  const snapshotSeconds = seconds(started);

  const restoring = performance.now();
  await b.os.snapshot.restore({
    repository,
    snapshot,
    wait_for_completion: false,
    body: { indices: docsPattern(b), include_global_state: false, include_aliases: false, rename_pattern: rename(b).pattern, rename_replacement: rename(b).replacement },
  });
  await poll(`restore of ${snapshot} recovered`, async () => ((await restoreDone(b)) ? true : undefined));
  const restoreSeconds = seconds(restoring);
  const total = Math.round((snapshotSeconds + restoreSeconds) * 100) / 100;
  log(`direct round ${round}: snapshot ${snapshotSeconds} s, restore ${restoreSeconds} s`);
  await deleteRestored(b);
  return { snapshotSeconds, restoreSeconds, totalSeconds: total };
}

/** One operator round: repository and policy ready first; then snapshot-now until SUCCESS, a restore until Succeeded. */
async function operatorRound(b: Bench, round: number): Promise<SnapshotRound> {
  const ns = b.namespace;
  const repository = `bench-snap-${b.id}-op-${round}`;
  await b.client.create(openSearchSnapshotRepositories.type, {
    apiVersion: openSearchSnapshotRepositories.apiVersion,
    kind: 'OpenSearchSnapshotRepository',
    metadata: { name: repository },
    spec: {
      connectionRef: { name: b.connection },
      type: 'fs',
      settings: { location: join(b.root, `op-${round}`) },
      tenancy: { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': ns } } },
      deletionPolicy: 'Delete',
    },
  });
  await waitForCondition(b.client, openSearchSnapshotRepositories.type, { namespace: undefined, name: repository }, 'Ready', 'True', 60_000);
  const policy = `round-${round}`;
  await b.client.create(openSearchSnapshotPolicies.type, {
    apiVersion: openSearchSnapshotPolicies.apiVersion,
    kind: 'OpenSearchSnapshotPolicy',
    metadata: { name: policy, namespace: ns },
    spec: { connectionRef: { name: b.connection }, repositoryRef: { name: repository }, indices: [docsPattern(b)], schedule: '0 0 1 1 *', suspend: true },
  });
  await poll(`policy ${policy} seen by the operator`, async () => {
    const object = await b.client.get(openSearchSnapshotPolicies.type, { namespace: ns, name: policy });
    return object.status?.observedGeneration === object.metadata.generation ? true : undefined;
  });

  const token = `bench-${round}`;
  const started = performance.now();
  await b.client.patch(openSearchSnapshotPolicies.type, { namespace: ns, name: policy }, { type: 'merge', body: { metadata: { annotations: { [SNAPSHOT_NOW_ANNOTATION]: token } } } });
  const taken = await poll(`policy ${policy}: snapshot-now ${token} SUCCESS`, async () => {
    const object: OpenSearchSnapshotPolicy = await b.client.get(openSearchSnapshotPolicies.type, { namespace: ns, name: policy });
    const last = object.status?.lastSnapshot;
    if (object.status?.lastManualToken !== token || last === undefined) return undefined;
    if (last.state === 'FAILED' || last.state === 'PARTIAL' || last.state === 'INCOMPATIBLE') throw new Error(`snapshot ${last.name} ended ${last.state}`);
    return last.state === 'SUCCESS' ? last.name : undefined;
  });
  const snapshotSeconds = seconds(started);

  const restore = `restore-${round}`;
  const restoring = performance.now();
  await b.client.create(openSearchSnapshotRestores.type, {
    apiVersion: openSearchSnapshotRestores.apiVersion,
    kind: 'OpenSearchSnapshotRestore',
    metadata: { name: restore, namespace: ns },
    spec: { connectionRef: { name: b.connection }, repositoryRef: { name: repository }, snapshot: taken, indices: [docsPattern(b)], renamePattern: rename(b).pattern, renameReplacement: rename(b).replacement },
  });
  await poll(`restore ${restore} Succeeded`, async () => {
    const object = await b.client.get(openSearchSnapshotRestores.type, { namespace: ns, name: restore });
    if (object.status?.phase === 'Failed') throw new Error(`restore ${restore} Failed: ${JSON.stringify(object.status.conditions)}`);
    return object.status?.phase === 'Succeeded' ? true : undefined;
  });
  const restoreSeconds = seconds(restoring);
  const total = Math.round((snapshotSeconds + restoreSeconds) * 100) / 100;
  log(`operator round ${round}: snapshot ${snapshotSeconds} s, restore ${restoreSeconds} s`);
  // Every restore sees all shards DONE: the operator's Succeeded must mean what the direct side waited for.
  if (!(await restoreDone(b))) throw new Error(`restore ${restore} says Succeeded while some restored shard is not DONE`);
  await b.client.delete(openSearchSnapshotRestores.type, { namespace: ns, name: restore });
  await b.client.delete(openSearchSnapshotPolicies.type, { namespace: ns, name: policy });
  await deleteRestored(b);
  return { snapshotSeconds, restoreSeconds, totalSeconds: total };
}

function side(method: string, rounds: readonly SnapshotRound[]): SnapshotSide {
  return { method, rounds, median: mediansOf(rounds) };
}

async function main(): Promise<void> {
  const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '3' }, 'direct-only': { type: 'boolean', default: false }, 'operator-log': { type: 'boolean', default: false } } });
  const rounds = Number(flags.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: a whole number ≥ 1; got ${flags.rounds}`);
  const withOperator = !flags['direct-only'];
  const startedAt = new Date().toISOString();
  const loadBefore = loadavg();
  const env = await ensureTestEnv(['apiserver', 'opensearch']);
  const id = randomSuffix();
  const os = openSearchClient(env.opensearch);
  const { client } = await adminConnection();
  const connection = `bench-snap-${id}`;
  const namespace = await freshNamespace({}, 'bench-snap');
  const b: Bench = { os, client, namespace, connection, id, root: join(env.opensearch.snapshotDir, `bench-${id}`), byHand: [] };
  let operator: OperatorProcess | undefined;
  try {
    await os.info();
    log(`loading ${DOCUMENTS} documents into ${INDICES} indices`);
    const storeBytes = await loadIndices(b);
    if (withOperator) {
      await installCrds(client, 'opensearch');
      await client.create(coreTypes.secret, {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: `${connection}-login`, namespace },
        stringData: { username: env.opensearch.adminUser.username, password: env.opensearch.adminUser.password },
      });
      await client.create(openSearchConnections.type, {
        apiVersion: openSearchConnections.apiVersion,
        kind: 'OpenSearchConnection',
        metadata: { name: connection },
        spec: { urls: [env.opensearch.url], credentialsSecretRef: { namespace, name: `${connection}-login`, usernameKey: 'username', passwordKey: 'password' }, tenancy: { indexPrefix: '{namespace}-' } },
      });
      // --operator-log: debug logging, its tail written beside the report (to see where a round's time goes).
      operator = await startOperator({ system: 'opensearch', releaseNamespace: `bench-snap-op-${id}`, ...(flags['operator-log'] ? { args: ['--log-level=debug'] } : {}) });
      await waitForCondition(client, openSearchConnections.type, { namespace: undefined, name: connection }, 'Ready', 'True', 60_000);
    }
    const direct: SnapshotRound[] = [];
    const viaOperator: SnapshotRound[] = [];
    for (let round = 1; round <= rounds; round++) {
      direct.push(await directRound(b, round));
      if (withOperator) viaOperator.push(await operatorRound(b, round));
    }
    const directSide = side('snapshot.create + snapshot.get every 100 ms until SUCCESS; snapshot.restore (rename) + indices.recovery every 100 ms until every shard DONE', direct);
    const operatorSide = withOperator ? side('snapshot-now on an OpenSearchSnapshotPolicy until its status shows SUCCESS; an OpenSearchSnapshotRestore until Succeeded (apiserver read every 100 ms)', viaOperator) : undefined;
    const cpu = cpus();
    const report: SnapshotBenchReport = {
      startedAt,
      machine: { cpus: cpu.length, cpuModel: cpu[0]?.model.trim() ?? '?', memoryGiB: Math.round(totalmem() / 2 ** 30), loadBefore, loadAfter: loadavg() },
      versions: { node: process.version, opensearch: env.opensearch.version, kubernetes: env.apiserver.kubernetesVersion },
      indices: INDICES,
      documents: DOCUMENTS,
      storeBytes,
      ratioTarget: RATIO_TARGET,
      direct: directSide,
      ...(operatorSide === undefined ? {} : { operator: operatorSide, ratios: ratiosOf(operatorSide.median, directSide.median) }),
    };
    const dir = join(resolvePaths().root, '.reports', 'bench');
    await mkdir(dir, { recursive: true });
    const out = join(dir, 'opensearch-snapshots.json');
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(formatSnapshotReport(report));
    log(`written to ${out}`);
    if (flags['operator-log'] && operator !== undefined) {
      const logOut = join(dir, 'opensearch-snapshots-operator.log');
      await writeFile(logOut, await operator.logTail(5_000));
      log(`operator log written to ${logOut}`);
    }
  } finally {
    log('cleaning up');
    await cleanUp(b, operator);
  }
}

/** Removes everything of this run, its own snapshots included (they are the benchmark's, in its own folder). Never rejects. */
async function cleanUp(b: Bench, operator: OperatorProcess | undefined): Promise<void> {
  const quietly = async (what: () => Promise<unknown>): Promise<void> => {
    await what().catch((err: unknown) => {
      log(`clean-up: ${err instanceof Error ? err.message : String(err)}`);
    });
  };
  const repositories = [...b.byHand];
  for (const r of await b.client.listAll(openSearchSnapshotRepositories.type).catch(() => [])) {
    if ((r.metadata.name ?? '').startsWith(`bench-snap-${b.id}-`)) repositories.push(r.metadata.name ?? '');
  }
  for (const repository of repositories) {
    await quietly(async () => {
      const listed = await b.os.snapshot.get({ repository, snapshot: '_all' });
      for (const s of (listed.body as { snapshots: { snapshot: string }[] }).snapshots) await b.os.snapshot.delete({ repository, snapshot: s.snapshot });
    });
  }
  for (const type of [openSearchSnapshotRestores.type, openSearchSnapshotPolicies.type]) {
    for (const item of await b.client.listAll(type, { namespace: b.namespace }).catch(() => [])) await quietly(() => b.client.delete(type, { namespace: b.namespace, name: item.metadata.name ?? '' }));
  }
  for (const repository of repositories.filter((r) => !b.byHand.includes(r))) await quietly(() => b.client.delete(openSearchSnapshotRepositories.type, { namespace: undefined, name: repository }));
  await sleep(3_000); // the running operator unregisters the Delete repositories and releases finalizers
  await operator?.stop();
  for (const type of [openSearchSnapshotRestores.type, openSearchSnapshotPolicies.type]) {
    for (const item of await b.client.listAll(type, { namespace: b.namespace }).catch(() => [])) {
      await quietly(() => b.client.patch(type, { namespace: b.namespace, name: item.metadata.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } }));
    }
  }
  for (const repository of repositories.filter((r) => !b.byHand.includes(r))) {
    await quietly(async () => {
      await b.client.patch(openSearchSnapshotRepositories.type, { namespace: undefined, name: repository }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
    });
  }
  for (const repository of repositories) await quietly(() => b.os.snapshot.deleteRepository({ repository }).catch(() => undefined));
  await quietly(() => b.client.delete(openSearchConnections.type, { namespace: undefined, name: b.connection }).catch(() => undefined));
  await quietly(() => b.client.delete(coreTypes.namespace, { namespace: undefined, name: b.namespace }));
  await quietly(() => b.os.indices.delete({ index: `${b.namespace}-*`, expand_wildcards: 'all' }));
  await quietly(() => rm(b.root, { recursive: true, force: true }));
  await b.os.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
