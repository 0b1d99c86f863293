import { byOwnerUid, Client, KubeApiError, Reasons, StoreWriter } from '@domain-operators/reconcile';
import type { RestRequest, RestTransport } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type { RedisBackup, RedisReplication } from '../api/v1alpha1/index.ts';
import type { BackupSchedule } from '../api/v1alpha1/backup-schedule.ts';
import { SCHEDULE_LABEL, SLOT_ANNOTATION } from '../backup/scheduled-name.ts';
import { BACKUPS_BY_OWNER, BackupScheduleReconciler, SCHEDULE_REASONS } from './backupschedule.reconciler.ts';
import { reconcileContext, RecordingEvents } from './reconciler.test-support.ts';

const RR_UID = '0b7d2c55-8f0e-4d7a-9d1e-4c3b2a1f0e9d';
const BACKUPS = '/apis/redis.domain-operators.io/v1alpha1/namespaces/ns/redisbackups';
const isStatusPath = (path: string): boolean => path.startsWith('/apis/redis.domain-operators.io/v1alpha1/namespaces/ns/redisreplications/') && path.endsWith('/status');

const DESTINATION = { s3: { bucket: 'backups', prefix: 'redis', endpoint: 'http://s3.test', forcePathStyle: true, credentialsSecretRef: { name: 's3-creds' } } };

function replication(backup: BackupSchedule | undefined, status?: Record<string, unknown>, name = 'cache'): RedisReplication {
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisReplication',
    metadata: { namespace: 'ns', name, uid: RR_UID, generation: 1, creationTimestamp: new Date('2026-11-01T00:00:00Z') },
    spec: { replicas: 2, image: 'redis:7.2', ...(backup === undefined ? {} : { backup }) },
    ...(status === undefined ? {} : { status }),
  };
}

function schedule(overrides: Partial<BackupSchedule> = {}): BackupSchedule {
  return { schedule: '*/10 * * * *', destination: DESTINATION, deletionPolicy: 'Delete', ...overrides };
}

/** A RedisBackup of the schedule of `cache` for the slot at `iso`, in `phase`. */
function scheduled(iso: string, phase: string | undefined, extra: { owner?: string; label?: boolean } = {}): RedisBackup {
  const stamp = iso.replace(/[-:T]/g, '').slice(0, 12);
  return {
    apiVersion: 'redis.domain-operators.io/v1alpha1',
    kind: 'RedisBackup',
    metadata: {
      namespace: 'ns',
      name: `cache-${stamp}`,
      uid: `uid-${stamp}`,
      ...(extra.label === false ? {} : { labels: { [SCHEDULE_LABEL]: 'cache' } }),
      annotations: { [SLOT_ANNOTATION]: iso },
      ownerReferences: [{ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', name: 'cache', uid: extra.owner ?? RR_UID, controller: true }],
    },
    spec: { replicationRef: { name: 'cache' }, destination: DESTINATION, deletionPolicy: 'Delete' },
    ...(phase === undefined ? {} : { status: { phase } }),
  } as RedisBackup;
}

function handMade(name: string, phase = 'Succeeded'): RedisBackup {
  return { apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisBackup', metadata: { namespace: 'ns', name, uid: `uid-${name}` }, spec: { replicationRef: { name: 'cache' }, destination: DESTINATION }, status: { phase } } as RedisBackup;
}

/**
 * An apiserver for RedisBackups and the RedisReplication's status: creates refuse a taken name (AlreadyExists),
 * deletes check the UID precondition, status merge patches are merged as JSON merge patches. The cache follows
 * every write unless `staleCache` is set.
 */
class FakeApi implements RestTransport {
  readonly requests: RestRequest[] = [];
  readonly server = new Map<string, RedisBackup>();
  readonly cache = new StoreWriter<RedisBackup>({ indexers: { [BACKUPS_BY_OWNER]: byOwnerUid } });
  status: Record<string, unknown> = {};
  staleCache = false;
  #uids = 0;

  constructor(backups: readonly RedisBackup[]) {
    for (const b of backups) this.server.set(b.metadata.name ?? '', b);
    this.cache.replace(backups);
  }

  json(request: RestRequest): Promise<unknown> {
    this.requests.push(request);
    if (request.method === 'POST' && request.path === BACKUPS) {
      const body = request.body as RedisBackup;
      const name = body.metadata.name ?? '';
      if (this.server.has(name)) return Promise.reject(new KubeApiError(`redisbackups "${name}" already exists`, 409, 'AlreadyExists'));
      const made = structuredClone(body);
      made.metadata.uid = `made-${++this.#uids}`;
      this.server.set(name, made);
      if (!this.staleCache) this.cache.apply(made);
      return Promise.resolve(made);
    }
    if (request.method === 'DELETE' && request.path.startsWith(`${BACKUPS}/`)) {
      const name = request.path.slice(BACKUPS.length + 1);
      const existing = this.server.get(name);
      if (existing === undefined) return Promise.reject(new KubeApiError('not found', 404, 'NotFound'));
      const uid = (request.body as { preconditions?: { uid?: string } }).preconditions?.uid;
      if (uid !== undefined && uid !== existing.metadata.uid) return Promise.reject(new KubeApiError('precondition failed', 409, 'Conflict'));
      this.server.delete(name);
      if (!this.staleCache) this.cache.delete(existing);
      return Promise.resolve({});
    }
    if (request.method === 'PATCH' && isStatusPath(request.path)) {
      this.status = mergePatch(this.status, (request.body as { status: Record<string, unknown> }).status);
      return Promise.resolve({ status: this.status });
    }
    return Promise.reject(new Error(`unexpected ${request.method} ${request.path}`));
  }

  stream(): never {
    throw new Error('no watches');
  }

  /** The writes sent so far, as `METHOD name` (status: `PATCH status`). */
  writes(): string[] {
    return this.requests.map((r) => (isStatusPath(r.path) ? 'PATCH status' : `${r.method} ${r.method === 'POST' ? ((r.body as RedisBackup).metadata.name ?? '') : r.path.slice(BACKUPS.length + 1)}`));
  }
}

function mergePatch(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(target).filter(([k]) => patch[k] !== null));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) continue;
    if (typeof v === 'object' && !Array.isArray(v) && typeof out[k] === 'object' && out[k] !== null) out[k] = mergePatch(out[k] as Record<string, unknown>, v as Record<string, unknown>);
    else if (typeof v === 'object' && !Array.isArray(v)) out[k] = mergePatch({}, v as Record<string, unknown>);
    else out[k] = v;
  }
  return out;
}

function world(backups: readonly RedisBackup[] = [], now = '2026-12-01T12:34:56Z') {
  const api = new FakeApi(backups);
  const events = new RecordingEvents();
  let clock = new Date(now);
  const reconciler = new BackupScheduleReconciler({ client: new Client({ rest: api }), backups: api.cache, recorder: events, now: () => clock }, { slotMarginMs: 500 });
  /** Reconciles `rr` with the status the fake apiserver holds, as the cache would show it after the last write. */
  const reconcile = (rr: RedisReplication) => reconciler.reconcile({ ...rr, status: { ...rr.status, ...api.status } }, reconcileContext(rr));
  return {
    api,
    events,
    reconcile,
    setNow: (iso: string) => {
      clock = new Date(iso);
    },
  };
}

describe('a backup schedule', () => {
  it('creates the most recent slot’s RedisBackup, owned by the replication, labelled and annotated, and reports it', async () => {
    const w = world();
    const result = await w.reconcile(replication(schedule({ source: 'Primary' })));
    expect(w.api.writes()).toEqual(['POST cache-202612011230', 'PATCH status']);
    const made = w.api.server.get('cache-202612011230');
    expect(made?.metadata.ownerReferences).toEqual([{ apiVersion: 'redis.domain-operators.io/v1alpha1', kind: 'RedisReplication', name: 'cache', uid: RR_UID, controller: true, blockOwnerDeletion: true }]);
    expect(made?.metadata.labels).toEqual({ [SCHEDULE_LABEL]: 'cache' });
    expect(made?.metadata.annotations).toEqual({ [SLOT_ANNOTATION]: '2026-12-01T12:30:00.000Z' });
    expect(made?.spec).toEqual({ replicationRef: { name: 'cache' }, source: 'Primary', destination: DESTINATION, deletionPolicy: 'Delete' });
    expect(w.api.status).toEqual({
      backup: { lastScheduleTime: '2026-12-01T12:30:00.000Z', lastBackup: 'cache-202612011230', nextScheduleTime: '2026-12-01T12:40:00.000Z', active: 1, retained: 1 },
    });
    // Wakes at the next slot (12:40:00, 5 min 4 s away) plus the margin.
    expect(result).toEqual({ kind: 'requeueAfter', delayMs: 304_000 + 500 });
    expect(w.events.events.map((e) => e.reason)).toEqual([SCHEDULE_REASONS.scheduled]);
  });

  it('names the source it defaults to (PreferReplica)', async () => {
    const w = world();
    await w.reconcile(replication({ schedule: '*/10 * * * *', destination: DESTINATION } as BackupSchedule));
    expect(w.api.server.get('cache-202612011230')?.spec).toMatchObject({ source: 'PreferReplica' });
  });

  it('is quiet once the slot is taken: no second create, no status write', async () => {
    const w = world();
    const rr = replication(schedule());
    await w.reconcile(rr);
    const before = w.api.requests.length;
    await w.reconcile(rr);
    expect(w.api.requests.length).toBe(before);
  });

  it('never takes a slot twice after a crash between the create and the status write', async () => {
    // The backup exists (the cache shows it), the status was never written.
    const w = world([scheduled('2026-12-01T12:30:00.000Z', 'Running')]);
    await w.reconcile(replication(schedule()));
    expect(w.api.writes()).toEqual(['PATCH status']);
    expect(w.api.status['backup']).toMatchObject({ lastBackup: 'cache-202612011230', active: 1 });
  });

  it('never takes a slot twice on a stale cache: the second create is refused by name and the slot counts as taken', async () => {
    const w = world();
    w.api.staleCache = true;
    const rr = replication(schedule());
    await w.reconcile(rr);
    // The cache does not show the backup, and the status write is not seen either (a reconcile on old data).
    w.api.status = {};
    await w.reconcile(rr);
    expect(w.api.writes().filter((x) => x.startsWith('POST'))).toEqual(['POST cache-202612011230', 'POST cache-202612011230']);
    expect([...w.api.server.keys()]).toEqual(['cache-202612011230']);
    expect(w.events.events.filter((e) => e.reason === SCHEDULE_REASONS.scheduled)).toHaveLength(1);
  });

  it('takes one backup for many slots missed while the operator was down: the most recent', async () => {
    const w = world([scheduled('2026-12-01T09:00:00.000Z', 'Succeeded')]);
    await w.reconcile(replication(schedule()));
    expect(w.api.writes().filter((x) => x.startsWith('POST'))).toEqual(['POST cache-202612011230']);
  });

  it('does not take again a slot recorded in status whose backup was deleted by hand', async () => {
    const w = world();
    await w.reconcile(replication(schedule(), { backup: { lastScheduleTime: '2026-12-01T12:30:00.000Z' } }));
    expect(w.api.writes().filter((x) => x.startsWith('POST'))).toEqual([]);
  });

  it('waits while one of its backups is Pending or Running, then takes the most recent slot once it finishes', async () => {
    const running = scheduled('2026-12-01T12:20:00.000Z', 'Running');
    const w = world([running]);
    const rr = replication(schedule());
    await w.reconcile(rr);
    expect(w.api.writes()).toEqual(['PATCH status']);
    expect(w.api.status['backup']).toMatchObject({ active: 1, message: 'the slot of 2026-12-01T12:30:00.000Z waits for cache-202612011220 to finish' });
    w.api.cache.apply({ ...running, status: { phase: 'Succeeded' } });
    w.setNow('2026-12-01T12:52:00Z');
    await w.reconcile(rr);
    expect(w.api.writes().filter((x) => x.startsWith('POST'))).toEqual(['POST cache-202612011250']);
    // The waiting message is gone from the status (a null in the merge patch).
    expect(w.api.status['backup']).not.toHaveProperty('message');
    expect(w.api.status['backup']).toMatchObject({ lastSuccessfulTime: '2026-12-01T12:20:00.000Z', lastBackup: 'cache-202612011250' });
  });

  it('retention deletes only its own finished backups beyond maxCount, by UID, never a hand-made or a Running one', async () => {
    const own = [
      scheduled('2026-12-01T11:50:00.000Z', 'Succeeded'),
      scheduled('2026-12-01T12:00:00.000Z', 'Succeeded'),
      scheduled('2026-12-01T12:10:00.000Z', 'Running'),
      scheduled('2026-12-01T12:20:00.000Z', 'Succeeded'),
      scheduled('2026-12-01T12:30:00.000Z', 'Succeeded'),
    ];
    const others = [handMade('manual-old'), handMade('cache-202611010000'), scheduled('2026-12-01T11:00:00.000Z', 'Succeeded', { owner: 'another-uid' }), scheduled('2026-12-01T11:10:00.000Z', 'Succeeded', { label: false })];
    const w = world([...own, ...others]);
    await w.reconcile(replication(schedule({ retention: { maxCount: 2 } })));
    expect(w.api.writes()).toEqual(['DELETE cache-202612011150', 'DELETE cache-202612011200', 'PATCH status']);
    const deletes = w.api.requests.filter((r) => r.method === 'DELETE').map((r) => (r.body as { preconditions: { uid: string } }).preconditions.uid);
    expect(deletes).toEqual(['uid-202612011150', 'uid-202612011200']);
    for (const name of ['manual-old', 'cache-202611010000', 'cache-202612011100', 'cache-202612011110', 'cache-202612011210']) expect(w.api.server.has(name)).toBe(true);
    expect(w.api.status['backup']).toMatchObject({ retained: 3, active: 1 });
    expect(w.events.events.map((e) => e.reason)).toEqual([SCHEDULE_REASONS.pruned, SCHEDULE_REASONS.pruned]);
    expect(w.events.events[0]?.note).toBe('deleted RedisBackup cache-202612011150 (Succeeded, slot 2026-12-01T11:50:00.000Z) by retention: maxCount 2');
  });

  it('retention by maxAge keeps the newest success however old', async () => {
    const w = world([scheduled('2026-11-20T00:00:00.000Z', 'Succeeded'), scheduled('2026-11-21T00:00:00.000Z', 'Succeeded'), scheduled('2026-12-01T12:30:00.000Z', 'Failed')]);
    await w.reconcile(replication(schedule({ schedule: '0 0 * * *', retention: { maxAge: '7d' } }), { backup: { lastScheduleTime: '2026-12-01T12:30:00.000Z' } }));
    expect(w.api.writes().filter((x) => !x.startsWith('PATCH'))).toEqual(['DELETE cache-202611200000']);
  });

  it('does not send a delete twice for a backup already being deleted (behind its finalizer)', async () => {
    const old = scheduled('2026-12-01T11:50:00.000Z', 'Succeeded');
    const terminating = structuredClone(old);
    terminating.metadata.deletionTimestamp = new Date('2026-12-01T12:31:00Z');
    const w = world([terminating, scheduled('2026-12-01T12:20:00.000Z', 'Succeeded'), scheduled('2026-12-01T12:30:00.000Z', 'Succeeded')]);
    await w.reconcile(replication(schedule({ retention: { maxCount: 2 } })));
    expect(w.api.writes().filter((x) => x.startsWith('DELETE'))).toEqual([]);
  });

  it('skips a slot whose name a hand-made RedisBackup holds, and says so', async () => {
    const w = world([handMade('cache-202612011230')]);
    await w.reconcile(replication(schedule()));
    expect(w.api.writes()).toEqual(['PATCH status']);
    expect(w.api.status['backup']).toMatchObject({ message: 'the slot of 2026-12-01T12:30:00.000Z is skipped: RedisBackup cache-202612011230 exists and was not created by this schedule' });
  });

  it('suspended: creates nothing, still applies retention, names no next slot and does not requeue', async () => {
    const w = world([scheduled('2026-12-01T12:00:00.000Z', 'Succeeded'), scheduled('2026-12-01T12:10:00.000Z', 'Succeeded'), scheduled('2026-12-01T12:20:00.000Z', 'Succeeded')]);
    const result = await w.reconcile(replication(schedule({ suspend: true, retention: { maxCount: 2 } })));
    expect(w.api.writes()).toEqual(['DELETE cache-202612011200', 'PATCH status']);
    expect(w.api.status['backup']).toEqual({ lastScheduleTime: '2026-12-01T12:20:00.000Z', lastBackup: 'cache-202612011220', lastSuccessfulTime: '2026-12-01T12:20:00.000Z', active: 0, retained: 2, message: 'suspended: no new backups are taken (retention still runs)' });
    expect(result).toEqual({ kind: 'done' });
  });

  it('on resume takes the most recent slot missed while suspended, once', async () => {
    const w = world([scheduled('2026-12-01T11:00:00.000Z', 'Succeeded')]);
    await w.reconcile(replication(schedule({ suspend: true })));
    await w.reconcile(replication(schedule({ suspend: false })));
    expect(w.api.writes().filter((x) => x.startsWith('POST'))).toEqual(['POST cache-202612011230']);
  });

  it('reports an invalid zone once (status and a Warning Event), creates nothing and waits for a change', async () => {
    const w = world();
    const rr = replication(schedule({ timeZone: 'Mars/Olympus_Mons' }));
    expect(await w.reconcile(rr)).toEqual({ kind: 'done' });
    await w.reconcile(rr);
    expect(w.api.writes()).toEqual(['PATCH status']);
    expect(w.api.status['backup']).toMatchObject({ message: expect.stringContaining('Mars/Olympus_Mons') as unknown });
    expect(w.events.events.map((e) => [e.type, e.reason])).toEqual([['Warning', Reasons.invalidSpec]]);
  });

  it('without spec.backup removes its report and deletes nothing', async () => {
    const w = world([scheduled('2026-12-01T12:00:00.000Z', 'Succeeded')]);
    w.api.status = { backup: { lastScheduleTime: '2026-12-01T12:00:00.000Z', active: 0 } };
    await w.reconcile(replication(undefined));
    expect(w.api.writes()).toEqual(['PATCH status']);
    expect(w.api.status).toEqual({});
    await w.reconcile(replication(undefined));
    expect(w.api.writes()).toEqual(['PATCH status']);
  });

  it('names a long replication’s backups within 63 characters', async () => {
    const long = `cache-${'x'.repeat(70)}`;
    const w = world();
    await w.reconcile(replication(schedule(), undefined, long));
    const name = w.api.writes()[0]?.replace('POST ', '') ?? '';
    expect(name.length).toBeLessThanOrEqual(63);
    expect(name.endsWith('-202612011230')).toBe(true);
  });
});
