// OpenSearchSnapshotRepository end to end (issue #16): the operator as its chart's ServiceAccount against testenv's
// apiserver and OpenSearch node, whose path.repo is env.json's `opensearch.snapshotDir`. Checked with independent HTTP
// requests to OpenSearch and by reading the repository's folder on the host: an fs repository is registered and
// verified (Ready, with the nodes that verified it); unregistered by hand it is registered again with a DriftCorrected
// Event; a location outside path.repo is Ready=False with OpenSearch's refusal; a location that is a regular file fails
// its verification (Ready=False with OpenSearch's message) and is Ready once the file is gone; a repository registered by hand with
// other settings is AlreadyExists and left alone until adopted; a second resource for the same repository is a
// ResourceConflict; deleted with deletionPolicy Delete it is unregistered while a snapshot taken by hand stays in its
// folder (registered again by hand, the snapshot is listed).
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminClient, backendsUnderTest, eventsOnceSeen, eventually, randomSuffix, startOperator, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, getCondition, isNotFound } from '@domain-operators/reconcile';
import type { Client, KubeEvent } from '@domain-operators/reconcile';
import type { OpenSearchInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, GROUP, openSearchConnections, openSearchSnapshotRepositories } from './kinds.ts';
import type { Resource } from './kinds.ts';
import { openSearchRequests } from './opensearch-http.ts';
import type { OpenSearchRequest } from './opensearch-http.ts';

const sfx = randomSuffix();
const connection = `e2e-ossr-${sfx}`;
const READY_MS = 60_000;

let client: Client;
let openSearch: OpenSearchInfo;
let os: OpenSearchRequest;
let operator: OperatorProcess | undefined;
/** Every repository name this run registers (resources and by hand), unregistered at the end. */
const repositoryNames = new Set<string>();
/** Every resource this run creates. */
const resourceNames = new Set<string>();

/** A folder for one repository under path.repo. */
const folder = (name: string): string => join(openSearch.snapshotDir, `e2e-${sfx}-${name}`);

/** Creates an OpenSearchSnapshotRepository (cluster-scoped) on this run's connection. */
async function createRepository(name: string, spec: Record<string, unknown>, annotations: Record<string, string> = {}): Promise<void> {
  resourceNames.add(name);
  repositoryNames.add((spec['repositoryName'] as string | undefined) ?? name);
  await client.create(openSearchSnapshotRepositories, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchSnapshotRepository',
    metadata: { name, annotations },
    spec: { connectionRef: { name: connection }, ...spec },
  });
}

const ready = (name: string): Promise<Resource> => waitForCondition(client, openSearchSnapshotRepositories, { namespace: undefined, name }, 'Ready', 'True', READY_MS);

/** Waits until the resource's Ready is False with `reason`, and returns its message. */
async function refused(name: string, reason: string): Promise<string> {
  const object = await waitForCondition(client, openSearchSnapshotRepositories, { namespace: undefined, name }, 'Ready', 'False', READY_MS);
  const seen = await eventually(
    async () => {
      const current = await client.get(openSearchSnapshotRepositories, { namespace: undefined, name });
      const condition = getCondition(current.status?.conditions, 'Ready');
      return condition?.reason === reason ? condition : undefined;
    },
    { timeoutMs: READY_MS, what: `${name} Ready=False ${reason} (was ${getCondition(object.status?.conditions, 'Ready')?.reason ?? 'none'})` },
  );
  return seen.message;
}

/** The repository as OpenSearch reports it, `undefined` when not registered. */
async function registered(name: string): Promise<{ type: string; settings: Record<string, string> } | undefined> {
  const answer = await os('GET', `/_snapshot/${name}`);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw new Error(`GET /_snapshot/${name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  return (answer.body as Record<string, { type: string; settings: Record<string, string> }>)[name];
}

/** Registers a repository by hand (as someone with the admin login would), verification off. */
async function registerByHand(name: string, body: { type: string; settings: Record<string, unknown> }): Promise<void> {
  repositoryNames.add(name);
  const answer = await os('PUT', `/_snapshot/${name}?verify=false`, body);
  if (answer.status !== 200) throw new Error(`PUT /_snapshot/${name}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
}

/**
 * The notes of the resource's Events of `reason`, once there is one (they trail the status writes); Events of a
 * cluster-scoped object live in `default`.
 */
async function eventNotes(name: string, reason: string): Promise<string[]> {
  const about = (e: KubeEvent): boolean => e.regarding.kind === 'OpenSearchSnapshotRepository' && e.regarding.name === name && e.reason === reason;
  const events = await eventsOnceSeen(client, 'default', about, { what: `a ${reason} Event about ${name}` });
  return events.filter(about).map((e) => e.note ?? '');
}

beforeAll(async () => {
  client = await adminClient();
  ({ opensearch: openSearch } = await backendsUnderTest(['opensearch']));
  os = openSearchRequests(openSearch);
  operator = await startOperator({ system: 'opensearch', env: { OPENSEARCH_REQUEST_TIMEOUT: '10s' } });
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: operator.namespace, name: `${connection}-login` },
    stringData: { username: openSearch.adminUser.username, password: openSearch.adminUser.password },
  });
  await client.create(openSearchConnections, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchConnection',
    metadata: { name: connection },
    spec: { urls: [openSearch.url], credentialsSecretRef: { namespace: operator.namespace, name: `${connection}-login` } },
  });
  await waitForCondition(client, openSearchConnections, { namespace: undefined, name: connection }, 'Ready', 'True', 90_000);
});

afterAll(async () => {
  // Resources first, while the operator runs (Retain ones carry no finalizer; a Delete one unregisters its repository).
  for (const name of resourceNames) await client.delete(openSearchSnapshotRepositories, { namespace: undefined, name }).catch(() => undefined);
  for (const name of resourceNames) {
    await eventually(
      async () =>
        client.get(openSearchSnapshotRepositories, { namespace: undefined, name }).then(
          () => undefined,
          (err: unknown) => (isNotFound(err) ? true : undefined),
        ),
      { timeoutMs: 30_000, what: `${name} deleted` },
    ).catch(() => undefined);
  }
  await operator?.stop();
  for (const name of resourceNames) {
    await client.patch(openSearchSnapshotRepositories, { namespace: undefined, name }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
  }
  await client.delete(openSearchConnections, { namespace: undefined, name: connection }).catch(() => undefined);
  // This run's own snapshots and registrations (never anyone else's: the names carry the run's suffix).
  for (const name of repositoryNames) {
    const listed = await os('GET', `/_snapshot/${name}/_all`).catch(() => undefined);
    const snapshots = ((listed?.body as { snapshots?: { snapshot: string }[] } | undefined)?.snapshots ?? []).map((s) => s.snapshot);
    for (const snapshot of snapshots.filter((s) => s.includes(sfx))) await os('DELETE', `/_snapshot/${name}/${snapshot}`).catch(() => undefined);
    await os('DELETE', `/_snapshot/${name}`).catch(() => undefined);
  }
  await os('DELETE', `/e2e-ossr-${sfx}-*`).catch(() => undefined);
  // This run's folders under path.repo (unregistered above, so OpenSearch holds none of them open).
  for (const entry of existsSync(openSearch.snapshotDir) ? readdirSync(openSearch.snapshotDir) : []) {
    if (entry.startsWith(`e2e-${sfx}-`)) rmSync(join(openSearch.snapshotDir, entry), { recursive: true, force: true });
  }
});

describe('OpenSearchSnapshotRepository against the real OpenSearch', () => {
  it('registers an fs repository under path.repo and verifies it: Ready with the nodes that verified it', async () => {
    const name = `e2e-${sfx}-main`;
    await createRepository(name, { type: 'fs', settings: { location: folder('main'), compress: true }, deletionPolicy: 'Retain' }, { [`${GROUP}/drift-check-interval`]: '10s' });

    const object = await ready(name);

    const nodes = ((await os('GET', '/_nodes')).body as { nodes: Record<string, { name: string }> }).nodes;
    expect(object.status).toMatchObject({ repositoryName: name, ownership: 'Created', observedGeneration: 1 });
    expect(object.status?.['verifiedNodes']).toEqual(Object.values(nodes).map((n) => n.name).sort());
    expect(await registered(name)).toEqual({ type: 'fs', settings: { location: folder('main'), compress: 'true' } });
    // The verification wrote (and removed) its test blob in the folder: OpenSearch created it.
    expect(existsSync(folder('main'))).toBe(true);
  });

  it('registers a repository unregistered by hand again at the next drift check, with a DriftCorrected Event', async () => {
    const name = `e2e-${sfx}-main`;
    expect((await os('DELETE', `/_snapshot/${name}`)).status).toBe(200);
    expect(await registered(name)).toBeUndefined();

    const back = await eventually(async () => registered(name), { timeoutMs: 40_000, intervalMs: 250, what: `${name} registered again` });

    expect(back).toEqual({ type: 'fs', settings: { location: folder('main'), compress: 'true' } });
    const notes = await eventNotes(name, 'DriftCorrected');
    expect(notes.join(' ')).toContain(`recreated ${connection}/${name}`);
    expect((await ready(name)).status?.['verifiedNodes']).not.toEqual([]);
  });

  it("refuses a location outside path.repo: Ready=False RepositoryRefused with OpenSearch's message, nothing registered", async () => {
    const name = `e2e-${sfx}-outside`;
    const outside = `/tmp/e2e-ossr-outside-${sfx}`;
    await createRepository(name, { type: 'fs', settings: { location: outside } });

    const message = await refused(name, 'RepositoryRefused');

    expect(message).toContain(outside);
    expect(message).toContain('path.repo');
    expect(await registered(name)).toBeUndefined();
    const synced = getCondition((await client.get(openSearchSnapshotRepositories, { namespace: undefined, name })).status?.conditions, 'Synced');
    expect(synced).toMatchObject({ status: 'False', reason: 'RepositoryRefused' });
  });

  it('reports a failed verification (the location is a regular file) as Ready=False RepositoryVerificationFailed, retries it, and is Ready once the storage works', async () => {
    const name = `e2e-${sfx}-unverified`;
    const location = folder('unverified');
    writeFileSync(location, 'not a folder\n');
    await createRepository(name, { type: 'fs', settings: { location } });

    const message = await refused(name, 'RepositoryVerificationFailed');

    expect(message).toContain('is not accessible');
    expect(message).toContain(location);
    // Registered (verification off), not verified: OpenSearch's own verify says the same.
    expect(await registered(name)).toEqual({ type: 'fs', settings: { location } });
    expect((await os('POST', `/_snapshot/${name}/_verify`)).status).toBe(500);

    rmSync(location);
    const object = await ready(name);
    expect(object.status?.['verifiedNodes']).not.toEqual([]);
    expect(getCondition(object.status?.conditions, 'Synced')).toMatchObject({ status: 'True' });
  });

  it('leaves a repository registered by hand with other settings alone (AlreadyExists, with the differences), and takes it over with the adopt annotation', async () => {
    const name = `e2e-${sfx}-existing`;
    await registerByHand(name, { type: 'fs', settings: { location: folder('existing-by-hand') } });
    await createRepository(name, { type: 'fs', settings: { location: folder('existing'), readonly: false } });

    const message = await refused(name, 'AlreadyExists');

    expect(message).toContain(`settings.location: want ${folder('existing')}, have ${folder('existing-by-hand')}`);
    expect(await registered(name)).toEqual({ type: 'fs', settings: { location: folder('existing-by-hand') } });

    await client.patch(openSearchSnapshotRepositories, { namespace: undefined, name }, { type: 'merge', body: { metadata: { annotations: { [`${GROUP}/adopt`]: 'true' } } } });
    const adopted = await eventually(
      async () => {
        const object = await client.get(openSearchSnapshotRepositories, { namespace: undefined, name });
        return getCondition(object.status?.conditions, 'Ready')?.status === 'True' ? object : undefined;
      },
      { timeoutMs: READY_MS, what: `${name} adopted` },
    );
    expect(adopted.status).toMatchObject({ ownership: 'Adopted', repositoryName: name });
    expect(await registered(name)).toEqual({ type: 'fs', settings: { location: folder('existing'), readonly: 'false' } });
    expect((await eventNotes(name, 'Adopted')).length).toBeGreaterThan(0);
  });

  it('gives a second resource for the same repository ResourceConflict, naming the one that manages it', async () => {
    const name = `e2e-${sfx}-second`;
    await createRepository(name, { repositoryName: `e2e-${sfx}-main`, type: 'fs', settings: { location: folder('second') } });

    const message = await refused(name, 'ResourceConflict');

    expect(message).toContain(`e2e-${sfx}-main`);
    expect(await registered(`e2e-${sfx}-main`)).toEqual({ type: 'fs', settings: { location: folder('main'), compress: 'true' } });
  });

  it('unregisters the repository when deleted with deletionPolicy Delete, and a snapshot taken by hand stays in its folder', async () => {
    const name = `e2e-${sfx}-delete`;
    const index = `e2e-ossr-${sfx}-docs`;
    const snapshot = `by-hand-${sfx}`;
    await createRepository(name, { type: 'fs', settings: { location: folder('delete') }, deletionPolicy: 'Delete' });
    await ready(name);
    expect((await os('PUT', `/${index}`, { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
    expect((await os('POST', `/${index}/_doc?refresh=true`, { message: 'kept' })).status).toBe(201);
    const taken = await os('PUT', `/_snapshot/${name}/${snapshot}?wait_for_completion=true`, { indices: index, include_global_state: false });
    expect((taken.body as { snapshot?: { state?: string } }).snapshot?.state).toBe('SUCCESS');
    const filesBefore = readdirSync(folder('delete')).sort();

    await client.delete(openSearchSnapshotRepositories, { namespace: undefined, name });
    await eventually(async () => ((await registered(name)) === undefined ? true : undefined), { timeoutMs: 30_000, what: `${name} unregistered` });

    await eventually(
      async () =>
        client.get(openSearchSnapshotRepositories, { namespace: undefined, name }).then(
          () => undefined,
          (err: unknown) => (isNotFound(err) ? true : undefined),
        ),
      { timeoutMs: 30_000, what: `${name} deleted` },
    );
    expect((await eventNotes(name, 'Deleted')).join(' ')).toContain(`deleted ${connection}/${name}`);
    // The snapshot's files are all still there (index-N, snap-<uuid>.dat, meta-<uuid>.dat, indices/…).
    const filesAfter = readdirSync(folder('delete')).sort();
    expect(filesAfter).toEqual(filesBefore);
    expect(filesAfter.some((file) => file.startsWith('snap-'))).toBe(true);

    // Registered again by hand, the snapshot is listed, whole.
    await registerByHand(name, { type: 'fs', settings: { location: folder('delete') } });
    const listed = (await os('GET', `/_snapshot/${name}/_all`)).body as { snapshots: { snapshot: string; state: string; indices: string[] }[] };
    expect(listed.snapshots.map((s) => ({ snapshot: s.snapshot, state: s.state, indices: s.indices }))).toEqual([{ snapshot, state: 'SUCCESS', indices: [index] }]);
  });
});
