// OpenSearchSnapshotRestore end to end (issue #16): the operator as its chart's ServiceAccount against testenv's
// apiserver and OpenSearch node (path.repo is env.json's `opensearch.snapshotDir`). Indices with documents are made
// and snapshotted by hand through the snapshot API; the restores are checked with independent HTTP requests: a
// restore with rename brings the documents back (an independent _count) into new indices inside the prefix, with its
// indexSettings applied; a restore onto an existing index is IndexExists with that index's documents, settings and
// uuid unchanged and no new index; a repository that does not admit the namespace, index patterns outside the prefix
// and a rename that leaves it are TenancyViolations with nothing in OpenSearch; latestOf picks the newest successful
// snapshot named like the policy's; deleting a restore leaves its indices. A second connection to the same node
// stands in for another cluster: through its own repository resource on the same folder, the snapshot restores; a
// restore naming the first connection's repository resource is refused (InvalidSpec).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { adminClient, backendsUnderTest, eventually, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, eventType, getCondition, isInvalid, isNotFound } from '@domain-operators/reconcile';
import type { Client, Condition } from '@domain-operators/reconcile';
import type { OpenSearchInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, openSearchConnections, openSearchSnapshotRepositories, openSearchSnapshotRestores } from './kinds.ts';
import type { Resource } from './kinds.ts';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchRequest } from './opensearch-http.ts';

const sfx = randomSuffix();
const run = `osrestore${sfx}`;
const teamA = `team-a-${sfx}`;
const teamB = `team-b-${sfx}`;
const connection = `e2e-osrestore-${sfx}`;
const repository = `e2e-restore-${sfx}`;
const closedRepository = `e2e-restore-closed-${sfx}`;
/** A second connection to the same cluster, standing in for another cluster that reaches the same storage. */
const otherConnection = `e2e-osrestore-b-${sfx}`;
const otherRepository = `e2e-restore-b-${sfx}`;
/** Restores from this one are throttled (max_restore_bytes_per_sec), so a restore runs long enough to kill the operator in it. */
const slowRepository = `e2e-restore-slow-${sfx}`;
const BIG_DOCS = 3_000;
const DONE_MS = 90_000;

let client: Client;
let openSearch: OpenSearchInfo;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;
const restores = new Set<string>();

/** Fails with OpenSearch's answer unless the status is 2xx. */
async function ok(method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await os(method, path, body);
  if (answer.status < 200 || answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
  return answer.body;
}

/** Documents in `index`, by an independent `_count`. */
async function count(index: string): Promise<number> {
  await ok('POST', `/${index}/_refresh`);
  return ((await ok('GET', `/${index}/_count`)) as { count: number }).count;
}

/** The names of the indices matching `pattern` (sorted), hidden ones excluded. */
async function indicesLike(pattern: string): Promise<string[]> {
  const answer = (await ok('GET', `/_cat/indices/${pattern}?format=json&h=index&expand_wildcards=all`)) as { index: string }[];
  return answer.map((row) => row.index).sort();
}

async function settingsOf(index: string): Promise<Record<string, string>> {
  const body = (await ok('GET', `/${index}/_settings?flat_settings=true`)) as Record<string, { settings: Record<string, string> }>;
  return body[index]?.settings ?? {};
}

/** Creates an index with `docs` documents (one shard, no replica, refresh interval 7s as a marker). */
async function indexWithDocuments(index: string, docs: number, padding = ''): Promise<void> {
  await ok('PUT', `/${index}`, { settings: { 'index.number_of_shards': 1, 'index.number_of_replicas': 0, 'index.refresh_interval': '7s' } });
  // Random padding, so the segment files do not compress away and a throttled restore takes a while.
  const lines = Array.from({ length: docs }, (_, i) => `{"index":{}}\n${JSON.stringify({ n: i, index, padding: padding === '' ? '' : randomBytes(padding.length / 2).toString('hex') })}\n`).join('');
  const answer = await fetchBulk(index, lines);
  expect(answer).toBe(false);
  expect(await count(index)).toBe(docs);
}

/** Sends a bulk body; resolves with whether any item failed. */
async function fetchBulk(index: string, ndjson: string): Promise<boolean> {
  const headers = { authorization: `Basic ${Buffer.from(`${openSearch.adminUser.username}:${openSearch.adminUser.password}`).toString('base64')}`, 'content-type': 'application/x-ndjson' };
  const response = await fetch(`${openSearch.url}/${index}/_bulk?refresh=true`, { method: 'POST', headers, body: ndjson });
  if (!response.ok) throw new Error(`bulk into ${index}: ${response.status} ${(await response.text()).slice(0, 300)}`);
  return ((await response.json()) as { errors: boolean }).errors;
}

/** Takes a snapshot by hand and waits for it. */
async function snapshotByHand(name: string, indices: readonly string[]): Promise<void> {
  const body = (await ok('PUT', `/_snapshot/${repository}/${name}?wait_for_completion=true`, { indices: indices.join(','), include_global_state: false })) as { snapshot: { state: string } };
  expect(body.snapshot.state).toBe('SUCCESS');
}

/** Creates an OpenSearchSnapshotRestore in `namespace`. */
async function restore(namespace: string, name: string, spec: Record<string, unknown>): Promise<void> {
  restores.add(`${namespace}/${name}`);
  await client.create(openSearchSnapshotRestores, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchSnapshotRestore',
    metadata: { namespace, name },
    spec: { connectionRef: { name: connection }, repositoryRef: { name: repository }, ...spec },
  });
}

/** Waits for the restore's phase to be `phase`, and returns it with its Ready condition. */
async function phaseOf(namespace: string, name: string, phase: 'Succeeded' | 'Failed'): Promise<{ object: Resource; ready: Condition }> {
  const object = await eventually(
    async () => {
      const current = await client.get(openSearchSnapshotRestores, { namespace, name });
      return current.status?.['phase'] === phase ? current : undefined;
    },
    { timeoutMs: DONE_MS, what: `restore ${namespace}/${name} ${phase}` },
  ).catch(async (err: unknown) => {
    const current = await client.get(openSearchSnapshotRestores, { namespace, name });
    throw new Error(`${(err as Error).message}; status ${JSON.stringify(current.status)}`, { cause: err });
  });
  const ready = getCondition(object.status?.conditions, 'Ready');
  if (ready === undefined) throw new Error(`restore ${namespace}/${name} has no Ready condition`);
  return { object, ready };
}

/** Makes sure the repository is registered in OpenSearch: by its resource's controller, else by hand. */
async function ensureRegistered(name: string, settings: Readonly<Record<string, unknown>>): Promise<void> {
  const registered = await eventually(async () => ((await os('GET', `/_snapshot/${name}`)).status === 200 ? true : undefined), { timeoutMs: 20_000, what: `repository ${name} registered` }).catch(() => false);
  if (!registered) await ok('PUT', `/_snapshot/${name}?verify=false`, { type: 'fs', settings });
}

beforeAll(async () => {
  client = await adminClient();
  ({ opensearch: openSearch } = await backendsUnderTest(['opensearch']));
  os = openSearchRequests(openSearch);
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '10s' } });
  for (const [name, labels] of [
    [teamA, { 'e2e.domain-operators.io/run': run, 'e2e.domain-operators.io/backups': 'yes' }],
    [teamB, { 'e2e.domain-operators.io/run': run }],
  ] as const) {
    await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  }
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: operator.namespace, name: `${connection}-login` },
    stringData: { username: openSearch.adminUser.username, password: openSearch.adminUser.password },
  });
  for (const name of [connection, otherConnection]) {
    await client.create(openSearchConnections, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchConnection',
      metadata: { name },
      spec: {
        urls: [openSearch.url],
        credentialsSecretRef: { namespace: operator.namespace, name: `${connection}-login`, usernameKey: 'username', passwordKey: 'password' },
        tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { 'e2e.domain-operators.io/run': run } } },
      },
    });
  }
  for (const name of [connection, otherConnection]) await waitForCondition(client, openSearchConnections, { namespace: undefined, name }, 'Ready', 'True', 90_000);
  // Repository resources on one folder: one admits team A (by label), one no namespace at all, and one on the other
  // connection admits team A too (both read-only, as a second cluster's view of the storage would be).
  const location = join(openSearch.snapshotDir, `e2e-restore-${sfx}`);
  for (const [name, on, selector, settings] of [
    [repository, connection, { matchLabels: { 'e2e.domain-operators.io/backups': 'yes' } }, { location }],
    [closedRepository, connection, { matchLabels: { 'e2e.domain-operators.io/nobody': 'yes' } }, { location, readonly: true }],
    [otherRepository, otherConnection, { matchLabels: { 'e2e.domain-operators.io/backups': 'yes' } }, { location, readonly: true }],
    [slowRepository, connection, { matchLabels: { 'e2e.domain-operators.io/backups': 'yes' } }, { location, readonly: true, max_restore_bytes_per_sec: '100kb' }],
  ] as const) {
    await client.create(openSearchSnapshotRepositories, {
      apiVersion: API_VERSION,
      kind: 'OpenSearchSnapshotRepository',
      metadata: { name },
      spec: { connectionRef: { name: on }, type: 'fs', settings, tenancy: { namespaceSelector: selector }, deletionPolicy: 'Retain' },
    });
    await ensureRegistered(name, settings);
  }
  await indexWithDocuments(`${teamA}-logs`, 5);
  await indexWithDocuments(`${teamA}-metrics`, 3);
  await indexWithDocuments(`${teamB}-logs`, 2);
  await snapshotByHand('by-hand-1', [`${teamA}-logs`, `${teamA}-metrics`, `${teamB}-logs`]);
  await indexWithDocuments(`${teamA}-big`, BIG_DOCS, 'x'.repeat(400));
  await snapshotByHand('by-hand-big', [`${teamA}-big`]);
}, 240_000);

afterAll(async () => {
  for (const key of restores) {
    const [namespace = '', name = ''] = key.split('/');
    await client.delete(openSearchSnapshotRestores, { namespace, name }).catch(() => undefined);
  }
  for (const name of [repository, closedRepository, otherRepository, slowRepository]) await client.delete(openSearchSnapshotRepositories, { namespace: undefined, name }).catch(() => undefined);
  await operator?.stop();
  for (const name of [connection, otherConnection]) await client.delete(openSearchConnections, { namespace: undefined, name }).catch(() => undefined);
  for (const namespace of [teamA, teamB]) await client.delete(coreTypes.namespace, { namespace: undefined, name: namespace }).catch(() => undefined);
  // This run's own test data: its indices, the snapshots it took by hand, its repository registrations.
  await os('DELETE', `/${teamA}-*,${teamB}-*`).catch(() => undefined);
  await os('DELETE', `/_snapshot/${repository}/by-hand-1,by-hand-big,${teamA}-nightly-*`).catch(() => undefined);
  for (const name of [repository, closedRepository, otherRepository, slowRepository]) await os('DELETE', `/_snapshot/${name}`).catch(() => undefined);
}, 120_000);

describe('OpenSearchSnapshotRestore against the real OpenSearch', () => {
  it('restores with a rename into new indices inside the prefix: the documents are back and indexSettings applied', async () => {
    const t0 = Date.now();
    await restore(teamA, 'renamed', {
      snapshot: 'by-hand-1',
      indices: [`${teamA}-logs`, `${teamA}-met*`],
      renamePattern: `${teamA}-(.+)`,
      renameReplacement: `${teamA}-restored-$1`,
      indexSettings: { 'index.number_of_replicas': 0, 'index.refresh_interval': '3s' },
    });
    const { object, ready } = await phaseOf(teamA, 'renamed', 'Succeeded');
    console.log(`restore Succeeded after ${Date.now() - t0} ms`);
    expect(ready).toMatchObject({ status: 'True', reason: 'RestoreSucceeded' });
    expect(object.status).toMatchObject({ snapshot: 'by-hand-1', restoredIndices: [`${teamA}-restored-logs`, `${teamA}-restored-metrics`], observedGeneration: 1 });
    expect(object.status?.['startTime']).toEqual(expect.any(String));
    expect(object.status?.['completionTime']).toEqual(expect.any(String));
    expect(object.status?.['shardsDone']).toBe(object.status?.['shardsTotal']);
    expect(await count(`${teamA}-restored-logs`)).toBe(5);
    expect(await count(`${teamA}-restored-metrics`)).toBe(3);
    expect(await settingsOf(`${teamA}-restored-logs`)).toMatchObject({ 'index.number_of_replicas': '0', 'index.refresh_interval': '3s' });
    // The team B index of the same snapshot was not restored, and the originals are untouched.
    expect(await indicesLike(`${teamB}-*`)).toEqual([`${teamB}-logs`]);
    expect(await count(`${teamA}-logs`)).toBe(5);

    // One-shot: deleting the resource leaves what it restored.
    await client.delete(openSearchSnapshotRestores, { namespace: teamA, name: 'renamed' });
    await eventually(
      async () =>
        client.get(openSearchSnapshotRestores, { namespace: teamA, name: 'renamed' }).then(
          () => undefined,
          (err: unknown) => (isNotFound(err) ? true : undefined),
        ),
      { timeoutMs: 30_000, what: 'restore renamed deleted' },
    );
    expect(await count(`${teamA}-restored-logs`)).toBe(5);
  });

  it('refuses a restore onto an existing index with IndexExists: its documents, settings and uuid unchanged, no new index', async () => {
    const before = { indices: await indicesLike(`${teamA}-*`), settings: await settingsOf(`${teamA}-logs`), docs: await count(`${teamA}-logs`) };
    // logs keeps its name (it exists); metrics would become metrics-copy, which must not appear either.
    await restore(teamA, 'onto-existing', { snapshot: 'by-hand-1', indices: [`${teamA}-logs`, `${teamA}-metrics`], renamePattern: 'metrics', renameReplacement: 'metrics-copy' });
    const { object, ready } = await phaseOf(teamA, 'onto-existing', 'Failed');
    expect(ready).toMatchObject({ status: 'False', reason: 'IndexExists' });
    expect(ready.message).toContain(`index ${teamA}-logs already exists`);
    expect(object.status?.['restoredIndices']).toBeUndefined();
    expect(await indicesLike(`${teamA}-*`)).toEqual(before.indices);
    expect(await settingsOf(`${teamA}-logs`)).toEqual(before.settings);
    expect(await count(`${teamA}-logs`)).toBe(before.docs);

    // A name an alias holds is taken too (OpenSearch refuses it; the operator says IndexExists).
    await ok('POST', '/_aliases', { actions: [{ add: { index: `${teamA}-metrics`, alias: `${teamA}-aliased` } }] });
    await restore(teamA, 'onto-alias', { snapshot: 'by-hand-1', indices: [`${teamA}-logs`], renamePattern: 'logs$', renameReplacement: 'aliased' });
    const alias = await phaseOf(teamA, 'onto-alias', 'Failed');
    expect(alias.ready).toMatchObject({ status: 'False', reason: 'IndexExists', message: expect.stringContaining('already exists as alias') as string });
    expect(await indicesLike(`${teamA}-*`)).toEqual(before.indices);
  });

  it('refuses a repository that does not admit the namespace, patterns outside the prefix and renames that leave it', async () => {
    const before = await indicesLike(`${teamA}-*,${teamB}-*`);
    await restore(teamA, 'closed-repository', { repositoryRef: { name: closedRepository }, snapshot: 'by-hand-1', indices: [`${teamA}-logs`], renamePattern: 'logs', renameReplacement: 'logs-x' });
    await restore(teamA, 'foreign-pattern', { snapshot: 'by-hand-1', indices: [`${teamB}-logs`], renamePattern: `${teamB}-(.+)`, renameReplacement: `${teamA}-stolen-$1` });
    await restore(teamA, 'everything', { snapshot: 'by-hand-1', indices: ['*'], renamePattern: '(.+)', renameReplacement: `${teamA}-all-$1` });
    await restore(teamA, 'leaves-prefix', { snapshot: 'by-hand-1', indices: [`${teamA}-logs`], renamePattern: `${teamA}-(.+)`, renameReplacement: `${teamB}-$1-copy` });
    const expected: Record<string, string> = {
      'closed-repository': `namespace "${teamA}" is not selected by OpenSearchSnapshotRepository "${closedRepository}" (tenancy.namespaceSelector)`,
      'foreign-pattern': `indices[0] "${teamB}-logs" is outside the prefix "${teamA}-"`,
      everything: `indices[0] "*" is outside the prefix "${teamA}-"`,
      'leaves-prefix': `restoring "${teamA}-logs" as "${teamB}-logs-copy": index name "${teamB}-logs-copy" is outside the prefix "${teamA}-"`,
    };
    for (const [name, message] of Object.entries(expected)) {
      const { object, ready } = await phaseOf(teamA, name, 'Failed');
      expect(ready, name).toMatchObject({ status: 'False', reason: 'TenancyViolation' });
      expect(ready.message, name).toContain(message);
      expect(object.status?.['startTime'], name).toBeUndefined();
    }
    expect(await indicesLike(`${teamA}-*,${teamB}-*`)).toEqual(before);
  });

  it('restores through another connection whose repository resource reaches the same storage, and refuses a repository of a different connection', async () => {
    await restore(teamA, 'other-cluster', {
      connectionRef: { name: otherConnection },
      repositoryRef: { name: otherRepository },
      snapshot: 'by-hand-1',
      indices: [`${teamA}-logs`],
      renamePattern: `${teamA}-logs`,
      renameReplacement: `${teamA}-from-b-logs`,
    });
    await restore(teamA, 'mixed-connections', { connectionRef: { name: otherConnection }, snapshot: 'by-hand-1', indices: [`${teamA}-logs`], renamePattern: 'logs', renameReplacement: 'logs-mixed' });
    const succeeded = await phaseOf(teamA, 'other-cluster', 'Succeeded');
    expect(succeeded.object.status).toMatchObject({ restoredIndices: [`${teamA}-from-b-logs`] });
    expect(await count(`${teamA}-from-b-logs`)).toBe(5);
    const mixed = await phaseOf(teamA, 'mixed-connections', 'Failed');
    expect(mixed.ready).toMatchObject({ reason: 'InvalidSpec', message: expect.stringContaining(`is registered through connection "${connection}", not "${otherConnection}"`) as string });
    expect(await indicesLike(`${teamA}-*logs-mixed`)).toEqual([]);
  });

  it('is refused by the apiserver with includeAliases: true, and its spec cannot change once created', async () => {
    const refused = await restore(teamA, 'with-aliases', { snapshot: 'by-hand-1', indices: [`${teamA}-logs`], includeAliases: true }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isInvalid(refused)).toBe(true);
    expect((refused as Error).message).toContain('includeAliases must be false');
    const changed = await client.patch(openSearchSnapshotRestores, { namespace: teamA, name: 'onto-existing' }, { type: 'merge', body: { spec: { snapshot: 'other' } } }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isInvalid(changed)).toBe(true);
    expect((changed as Error).message).toContain('one-shot');
  });

  it('restores the newest successful snapshot named like a policy\u2019s for latestOf, chosen once', async () => {
    // Two snapshots named as the policy "nightly" of team A names them, the newer one with metrics only.
    await snapshotByHand(`${teamA}-nightly-20261201000000`, [`${teamA}-logs`]);
    await snapshotByHand(`${teamA}-nightly-20261202000000`, [`${teamA}-metrics`]);
    await restore(teamA, 'latest', { latestOf: { policyRef: { name: 'nightly' } }, indices: [`${teamA}-m*`], renamePattern: `${teamA}-(.+)`, renameReplacement: `${teamA}-latest-$1` });
    const { object, ready } = await phaseOf(teamA, 'latest', 'Succeeded');
    expect(ready.reason).toBe('RestoreSucceeded');
    expect(object.status).toMatchObject({ snapshot: `${teamA}-nightly-20261202000000`, restoredIndices: [`${teamA}-latest-metrics`] });
    expect(await count(`${teamA}-latest-metrics`)).toBe(3);
  });

  it('survives a SIGKILL of the operator while the restore runs: Succeeded after the restart, no second restore call, no IndexExists', async () => {
    const name = 'through-crash';
    await restore(teamA, name, { repositoryRef: { name: slowRepository }, snapshot: 'by-hand-big', indices: [`${teamA}-big`], renamePattern: 'big', renameReplacement: 'big-after-crash' });
    // Killed once the restore is accepted (the second status write) and still running.
    const running = await eventually(
      async () => {
        const current = await client.get(openSearchSnapshotRestores, { namespace: teamA, name });
        return getCondition(current.status?.conditions, 'Ready')?.reason === 'RestoreInProgress' ? current : undefined;
      },
      { timeoutMs: DONE_MS, what: `restore ${name} accepted` },
    );
    if (operator === undefined) throw new Error('the operator did not start');
    await operator.kill('SIGKILL');
    const killedAt = Date.now();
    const recovery = (await ok('GET', `/${teamA}-big-after-crash/_recovery`)) as Record<string, { shards: { stage: string }[] }>;
    const stageAtKill = recovery[`${teamA}-big-after-crash`]?.shards.map((shard) => shard.stage).join(',') ?? 'none';
    await operator.restart();
    const { object, ready } = await phaseOf(teamA, name, 'Succeeded');
    const metrics = await operator.metricsText();
    const restoresAfterRestart = metrics
      .split('\n')
      .filter((line) => line.startsWith('opensearch_operator_requests_total{') && line.includes('api="snapshot.restore"'))
      .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
    console.log(`restore through a crash: phase ${String(running.status?.['phase'])} and shard stage ${stageAtKill} at the kill; Succeeded ${Date.now() - killedAt} ms after it; snapshot.restore requests of the restarted process: ${restoresAfterRestart}`);
    expect(ready.reason).toBe('RestoreSucceeded');
    expect(object.status?.['startTime']).toBe(running.status?.['startTime']);
    expect(restoresAfterRestart).toBe(0);
    expect(await count(`${teamA}-big-after-crash`)).toBe(BIG_DOCS);
    const events = (await client.listAll(eventType, { namespace: teamA })).filter((e) => e.regarding.name === name);
    expect(events.map((e) => e.reason)).not.toContain('IndexExists');
    expect(events.filter((e) => e.reason === 'RestoreStarted').length).toBeLessThanOrEqual(1);
  });
});
