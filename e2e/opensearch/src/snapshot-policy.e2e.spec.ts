// OpenSearchSnapshotPolicy end to end (issue #16): the operator as its chart's ServiceAccount against testenv's
// apiserver and OpenSearch node (path.repo = env.json's `opensearch.snapshotDir`), checked with independent requests to
// OpenSearch's snapshot API. Every policy is created at once so the slow waits (a one-minute schedule) overlap:
// - a policy on a one-minute schedule takes snapshots the snapshot API lists; snapshot-now takes one per new token;
//   retention keeps exactly maxCount of its own, and never deletes another policy's (whose name extends this one's)
//   or a hand-made snapshot named exactly like one of its own;
// - a foreign repository and foreign index patterns are refused with TenancyViolation, nothing snapshotted;
// - a repository registered read-only refuses the snapshot: LastSnapshotFailed with OpenSearch's reason;
// - the operator SIGKILLed while a (throttled) snapshot is IN_PROGRESS converges after a restart without a second
//   snapshot for that slot.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { adminClient, backendsUnderTest, eventsOnceSeen, eventually, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, getCondition } from '@domain-operators/reconcile';
import type { Client, KubeEvent } from '@domain-operators/reconcile';
import type { OpenSearchInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, GROUP, openSearchConnections, openSearchSnapshotPolicies, openSearchSnapshotRepositories } from './kinds.ts';
import type { Resource } from './kinds.ts';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchRequest } from './opensearch-http.ts';

const sfx = randomSuffix();
const connection = `e2e-ossp-${sfx}`;
/** The team namespace; the connection's prefix makes its indices `<team>-…`. */
const team = `e2e-ossp-${sfx}`;
const TENANT_LABEL = `e2e.domain-operators.io/ossp-${sfx}`;
const SNAPSHOT_NOW = `${GROUP}/snapshot-now`;
const repo = {
  main: `e2e-ossp-${sfx}-main`,
  slow: `e2e-ossp-${sfx}-slow`,
  readonly: `e2e-ossp-${sfx}-ro`,
  foreign: `e2e-ossp-${sfx}-foreign`,
} as const;
const BIG_INDICES = 4;

let client: Client;
let openSearch: OpenSearchInfo;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;

/** One snapshot as `GET _snapshot/<repo>/<pattern>` lists it. */
interface Listed {
  readonly snapshot: string;
  readonly state: string;
  readonly metadata?: Record<string, string>;
  readonly reason?: string;
}

function running(): OperatorProcess {
  if (operator === undefined) throw new Error('the operator did not start');
  return operator;
}

/** The snapshots of `repository` matching `pattern`, straight from OpenSearch. */
async function listed(repository: string, pattern = '*'): Promise<Listed[]> {
  const answer = await os('GET', `/_snapshot/${repository}/${pattern}?ignore_unavailable=true`);
  if (answer.status === 404) return [];
  if (answer.status !== 200) throw new Error(`GET /_snapshot/${repository}/${pattern}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return (answer.body as { snapshots?: Listed[] }).snapshots ?? [];
}

/** The snapshots of policy `name` (its metadata names it), from OpenSearch. */
async function policySnapshots(repository: string, name: string): Promise<Listed[]> {
  return (await listed(repository, `${team}-${name}-*`)).filter((s) => s.metadata?.['policy'] === `${team}/${name}`);
}

async function policy(name: string): Promise<Resource> {
  return client.get(openSearchSnapshotPolicies, { namespace: team, name });
}

async function createPolicy(name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}): Promise<void> {
  await client.create(openSearchSnapshotPolicies, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchSnapshotPolicy',
    metadata: { namespace: team, name, annotations },
    spec: { connectionRef: { name: connection }, ...spec },
  });
}

async function snapshotNow(name: string, token: string): Promise<void> {
  await client.patch(openSearchSnapshotPolicies, { namespace: team, name }, { type: 'merge', body: { metadata: { annotations: { [SNAPSHOT_NOW]: token } } } });
}

/** Waits until the policy's Ready has `status` and `reason` at its generation; returns the policy. */
async function readyIs(name: string, status: 'True' | 'False', reason: string, timeoutMs = 90_000): Promise<Resource> {
  return eventually(
    async () => {
      const current = await policy(name);
      const ready = getCondition(current.status?.conditions, 'Ready');
      return ready?.status === status && ready.reason === reason && ready.observedGeneration === current.metadata?.generation ? current : undefined;
    },
    { timeoutMs, intervalMs: 500, what: `${name} Ready=${status} ${reason}` },
  );
}

/** The notes of the policy's Events of `reason`, once there is one (they trail the status writes). */
async function eventNotes(name: string, reason: string): Promise<string[]> {
  const about = (e: KubeEvent): boolean => e.regarding.kind === 'OpenSearchSnapshotPolicy' && e.regarding.name === name && e.reason === reason;
  const events = await eventsOnceSeen(client, team, about, { what: `a ${reason} Event about ${name}` });
  return events.filter(about).map((e) => e.note ?? '');
}

/** Bulk-indexes `docs` documents of about `bytes` each into `index` (created with one shard, no replica). */
async function fillIndex(index: string, docs: number, bytes: number): Promise<void> {
  const created = await os('PUT', `/${index}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } });
  if (created.status !== 200) throw new Error(`PUT /${index}: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
  const lines: string[] = [];
  for (let i = 0; i < docs; i++) {
    lines.push(JSON.stringify({ index: {} }), JSON.stringify({ n: i, blob: Buffer.from(Array.from({ length: Math.ceil((bytes * 3) / 4) }, () => Math.floor(Math.random() * 256))).toString('base64') }));
  }
  const { username, password } = openSearch.adminUser;
  const response = await fetch(`${openSearch.url}/${index}/_bulk?refresh=true`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`, 'content-type': 'application/x-ndjson' },
    body: `${lines.join('\n')}\n`,
  });
  const body = (await response.json()) as { errors?: boolean };
  if (response.status !== 200 || body.errors === true) throw new Error(`bulk into ${index}: ${response.status}`);
}

/** Makes sure the repository is registered: by its resource's controller, else (still being written) by hand with the same settings. */
async function registered(name: string, settings: Record<string, string>, tenancy: Record<string, unknown>): Promise<void> {
  await client.create(openSearchSnapshotRepositories, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchSnapshotRepository',
    metadata: { name },
    spec: { connectionRef: { name: connection }, type: 'fs', settings, tenancy },
  });
  const byController = await eventually(async () => ((await os('GET', `/_snapshot/${name}`)).status === 200 ? true : undefined), { timeoutMs: 30_000, intervalMs: 500 }).catch(() => false);
  if (!byController) {
    const answer = await os('PUT', `/_snapshot/${name}?verify=false`, { type: 'fs', settings });
    if (answer.status !== 200) throw new Error(`PUT /_snapshot/${name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    console.log(`repository ${name} registered by hand (its controller did not within 30 s)`);
  }
}

beforeAll(async () => {
  const started = Date.now();
  client = await adminClient();
  ({ opensearch: openSearch } = await backendsUnderTest(['opensearch']));
  os = openSearchRequests(openSearch);
  await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: team, labels: { [TENANT_LABEL]: 'yes' } } });
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: team, name: 'opensearch-login' },
    stringData: { username: openSearch.adminUser.username, password: openSearch.adminUser.password },
  });
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '10s' }, values: { watchNamespaces: [team] } });
  await client.create(openSearchConnections, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchConnection',
    metadata: { name: connection },
    spec: {
      urls: [openSearch.url],
      credentialsSecretRef: { namespace: team, name: 'opensearch-login' },
      tenancy: { indexPrefix: '{namespace}-', namespaceSelector: { matchLabels: { [TENANT_LABEL]: 'yes' } } },
    },
  });
  await waitForCondition(client, openSearchConnections, { namespace: undefined, name: connection }, 'Ready', 'True', 90_000);

  const admitted = { namespaceSelector: { matchLabels: { [TENANT_LABEL]: 'yes' } } };
  const folder = (name: string): string => join(openSearch.snapshotDir, name);
  // A read-only repository needs an existing folder (OpenSearch creates a writable one's itself).
  mkdirSync(folder(repo.readonly), { recursive: true });
  await Promise.all([
    registered(repo.main, { location: folder(repo.main) }, admitted),
    // Throttled, so that a snapshot of a few MB runs long enough to kill the operator during it.
    registered(repo.slow, { location: folder(repo.slow), max_snapshot_bytes_per_sec: '100kb' }, admitted),
    registered(repo.readonly, { location: folder(repo.readonly), readonly: 'true' }, admitted),
    registered(repo.foreign, { location: folder(repo.foreign) }, { namespaceSelector: { matchLabels: { [TENANT_LABEL]: 'another-team' } } }),
    fillIndex(`${team}-data-1`, 20, 200),
    fillIndex(`${team}-data-2`, 20, 200),
    // About 2.4 MB: about 50 s through the throttle.
    ...Array.from({ length: BIG_INDICES }, (_, i) => fillIndex(`${team}-big-${i}`, 150, 4_000)),
  ]);
  // Made by hand, named exactly like a snapshot of the policy keep2: retention must leave it alone.
  const handMade = await os('PUT', `/_snapshot/${repo.main}/${team}-keep2-20000101000000?wait_for_completion=true`, { indices: `${team}-data-1`, include_global_state: false });
  if (handMade.status !== 200) throw new Error(`hand-made snapshot: ${handMade.status} ${JSON.stringify(handMade.body).slice(0, 300)}`);

  // All at once, so the one-minute waits overlap.
  await Promise.all([
    createPolicy('keep2', { repositoryRef: { name: repo.main }, indices: [`${team}-data-*`], schedule: '* * * * *', retention: { maxCount: 2 } }),
    // Its snapshots match keep2's listing pattern (<team>-keep2-*): keep2's retention must never count or delete them.
    createPolicy('keep2-x', { repositoryRef: { name: repo.main }, indices: [`${team}-data-1`], schedule: '0 0 1 1 *', timeZone: 'Europe/Berlin' }, { [SNAPSHOT_NOW]: 'first' }),
    createPolicy('slow', { repositoryRef: { name: repo.slow }, indices: [`${team}-big-*`], schedule: '* * * * *' }),
    createPolicy('readonly', { repositoryRef: { name: repo.readonly }, indices: [`${team}-data-*`], schedule: '0 0 1 1 *' }, { [SNAPSHOT_NOW]: 'try' }),
    createPolicy('foreign-repository', { repositoryRef: { name: repo.foreign }, indices: [`${team}-data-*`], schedule: '* * * * *' }),
    createPolicy('foreign-indices', { repositoryRef: { name: repo.main }, indices: [`${team}-data-*`, '*', 'other-team-logs'], schedule: '* * * * *' }),
  ]);
  console.log(`set up in ${Date.now() - started} ms`);
});

afterAll(async () => {
  // Policies carry no finalizer and deleting one deletes no snapshot.
  const policies = await client.listAll(openSearchSnapshotPolicies, { namespace: team }).catch(() => []);
  for (const item of policies) await client.delete(openSearchSnapshotPolicies, { namespace: team, name: item.metadata?.name ?? '' }).catch(() => undefined);
  await operator?.stop();
  for (const name of Object.values(repo)) {
    await os('DELETE', `/_snapshot/${name}/*`).catch(() => undefined);
    await client.delete(openSearchSnapshotRepositories, { namespace: undefined, name }).catch(() => undefined);
    await os('DELETE', `/_snapshot/${name}`).catch(() => undefined);
  }
  await os('DELETE', `/${team}-*`).catch(() => undefined);
  await client.delete(openSearchConnections, { namespace: undefined, name: connection }).catch(() => undefined);
  await client.delete(coreTypes.namespace, { namespace: undefined, name: team }).catch(() => undefined);
});

describe('OpenSearchSnapshotPolicy against the real OpenSearch', () => {
  it('refuses a foreign repository and foreign index patterns with TenancyViolation, and snapshots nothing for them', async () => {
    const [foreignRepository, foreignIndices] = await Promise.all([readyIs('foreign-repository', 'False', 'TenancyViolation'), readyIs('foreign-indices', 'False', 'TenancyViolation')]);
    expect(getCondition(foreignRepository.status?.conditions, 'Ready')?.message).toBe(`namespace "${team}" is not selected by OpenSearchSnapshotRepository "${repo.foreign}" (tenancy.namespaceSelector)`);
    const message = getCondition(foreignIndices.status?.conditions, 'Ready')?.message ?? '';
    expect(message).toContain(`indices[1] "*" is outside the prefix "${team}-"`);
    expect(message).toContain(`indices[2] "other-team-logs" is outside the prefix "${team}-"`);
    expect(foreignIndices.status?.['nextSnapshotTime']).toBeUndefined();
    expect(await listed(repo.foreign)).toEqual([]);
    expect(await listed(repo.main, `${team}-foreign-indices-*`)).toEqual([]);
  });

  it('shows LastSnapshotFailed with OpenSearch’s reason when a read-only repository refuses the snapshot', async () => {
    const refused = await readyIs('readonly', 'False', 'LastSnapshotFailed');
    expect(getCondition(refused.status?.conditions, 'Ready')?.message).toMatch(/readonly/i);
    expect(refused.status?.['lastSnapshot']).toMatchObject({ state: 'FAILED' });
    // Not accepted: the token stays unrecorded (it is tried again later).
    expect(refused.status?.['lastManualToken']).toBeUndefined();
    expect(await listed(repo.readonly)).toEqual([]);
    expect((await eventNotes('readonly', 'SnapshotFailed')).join('\n')).toMatch(/readonly/i);
  });

  it('converges after being killed during a snapshot, without a second snapshot for that slot', async () => {
    const inProgress = await eventually(async () => (await listed(repo.slow, `${team}-slow-*`)).find((s) => s.state === 'IN_PROGRESS'), {
      timeoutMs: 120_000,
      intervalMs: 250,
      what: 'a snapshot of the policy slow in progress',
    });
    const slot = inProgress.metadata?.['slot'];
    expect(slot).toMatch(/:00\.000Z$/);
    const exit = await running().kill('SIGKILL');
    expect(exit).toMatchObject({ signal: 'SIGKILL' });
    // The kill happened during the snapshot.
    expect((await listed(repo.slow, inProgress.snapshot))[0]?.state).toBe('IN_PROGRESS');
    const killedAt = Date.now();
    await running().restart();
    console.log(`operator restarted ${Date.now() - killedAt} ms after the kill`);

    const done = await eventually(
      async () => {
        const current = await policy('slow');
        const last = current.status?.['lastSnapshot'] as { name?: string; state?: string } | undefined;
        const listing = await listed(repo.slow, `${team}-slow-*`);
        const ended = listing.find((s) => s.snapshot === inProgress.snapshot && s.state !== 'IN_PROGRESS');
        return ended !== undefined && last !== undefined && last.state !== 'IN_PROGRESS' && last.name !== undefined ? { ended, listing } : undefined;
      },
      { timeoutMs: 240_000, intervalMs: 1_000, what: `${inProgress.snapshot} finished and recorded` },
    );
    console.log(`${inProgress.snapshot} ended ${done.ended.state} ${Date.now() - killedAt} ms after the kill`);
    expect(done.ended.state).toBe('SUCCESS');
    const forSlot = (await listed(repo.slow, `${team}-slow-*`)).filter((s) => s.metadata?.['slot'] === slot);
    expect(forSlot.map((s) => s.snapshot)).toEqual([inProgress.snapshot]);
    // Never two in progress at once either.
    expect(done.listing.filter((s) => s.state === 'IN_PROGRESS').length).toBeLessThanOrEqual(1);
    // No more slow snapshots for the rest of the suite.
    await client.patch(openSearchSnapshotPolicies, { namespace: team, name: 'slow' }, { type: 'merge', body: { spec: { suspend: true } } });
    await readyIs('slow', 'True', 'Suspended', 240_000);
  });

  it('takes scheduled snapshots the snapshot API lists, reported in its status', async () => {
    const first = await eventually(async () => (await policySnapshots(repo.main, 'keep2')).find((s) => s.metadata?.['slot'] !== undefined && s.state === 'SUCCESS'), {
      timeoutMs: 120_000,
      intervalMs: 500,
      what: 'a scheduled snapshot of keep2',
    });
    expect(first.snapshot).toMatch(new RegExp(`^${team}-keep2-[0-9]{14}$`));
    const current = await readyIs('keep2', 'True', 'Scheduled');
    const next = Date.parse(String(current.status?.['nextSnapshotTime']));
    expect(next % 60_000).toBe(0);
    expect(next).toBeGreaterThan(Date.now() - 60_000);
    expect(current.status?.['lastSnapshot']).toMatchObject({ state: expect.stringMatching(/SUCCESS|IN_PROGRESS/) as string });
    expect((await eventNotes('keep2', 'SnapshotStarted')).length).toBeGreaterThan(0);
  });

  it('takes one snapshot per new snapshot-now token, and retention keeps exactly maxCount of its own, never another policy’s or a hand-made one', async () => {
    // keep2-x took one at creation (its token): older than everything keep2 has.
    const other = await eventually(async () => (await policySnapshots(repo.main, 'keep2-x')).find((s) => s.state === 'SUCCESS'), { timeoutMs: 60_000, intervalMs: 500, what: 'keep2-x’s snapshot' });
    expect(other.metadata?.['snapshotNowToken']).toBe('first');
    // Its schedule is read in Europe/Berlin: midnight on 1 January there is 23:00 UTC the day before (in winter).
    const otherPolicy = await readyIs('keep2-x', 'True', 'Scheduled');
    expect(otherPolicy.status).toMatchObject({ lastManualToken: 'first', nextSnapshotTime: `${new Date().getUTCFullYear()}-12-31T23:00:00.000Z`, snapshotCount: 1 });

    const tokenSnapshots: string[] = [];
    for (const token of ['t1', 't2', 't3']) {
      await snapshotNow('keep2', token);
      tokenSnapshots.push(
        await eventually(
          async () => {
            const current = await policy('keep2');
            const carrying = (await policySnapshots(repo.main, 'keep2')).filter((s) => s.metadata?.['snapshotNowToken'] === token);
            return current.status?.['lastManualToken'] === token && carrying.length === 1 ? carrying[0]?.snapshot : undefined;
          },
          { timeoutMs: 60_000, intervalMs: 500, what: `keep2 snapshot-now ${token}` },
        ),
      );
    }
    // At rest (none in progress, retention applied): exactly two of its own, all successful.
    const kept = await eventually(
      async () => {
        const own = await policySnapshots(repo.main, 'keep2');
        return own.length === 2 && own.every((s) => s.state === 'SUCCESS') ? own : undefined;
      },
      { timeoutMs: 90_000, intervalMs: 500, what: 'keep2 at exactly 2 snapshots' },
    );
    expect(kept.map((s) => s.metadata?.['snapshotNowToken'] ?? 'scheduled')).toContain('t3');
    // Untouched: the other policy's snapshot and the hand-made look-alike.
    const all = (await listed(repo.main)).map((s) => s.snapshot);
    expect(all).toContain(other.snapshot);
    expect(all).toContain(`${team}-keep2-20000101000000`);
    // Every token snapshot retention removed (t1 at least: t3 and one newer or t2 are the two kept) is reported by
    // its own Event. Events trail the deletes (lower write priority than status), so they are awaited.
    const keptNames = new Set(kept.map((s) => s.snapshot));
    const removed = tokenSnapshots.filter((name) => !keptNames.has(name));
    expect(removed.length).toBeGreaterThanOrEqual(1);
    await eventually(
      async () => {
        const notes = await eventNotes('keep2', 'SnapshotDeleted');
        return removed.every((name) => notes.some((note) => note.includes(`snapshot ${name} `))) ? true : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: `a SnapshotDeleted Event for each of ${removed.join(', ')}` },
    );
    const status = (await policy('keep2')).status;
    expect(status?.['snapshotCount']).toBeLessThanOrEqual(3);
    // An unchanged token takes nothing more.
    await snapshotNow('keep2', 't3');
    expect((await policySnapshots(repo.main, 'keep2')).filter((s) => s.metadata?.['snapshotNowToken'] === 't3')).toHaveLength(1);
  });
});
