import { ExternalResourceReconciler, silentLogger } from '@domain-operators/reconcile';
import type { ExternalAdapter, ExternalContext, StatusWriter } from '@domain-operators/reconcile';
import { boundAdapter, FakeObjects, RecordingRecorder, withMeta } from '@domain-operators/reconcile/testing';
import { describe, expect, it } from 'vitest';
import type { KafkaUser } from '../api/v1alpha1/index.ts';
import type { AclBinding, QuotaChange, QuotaKey, QuotaValues, ScramMechanism } from '../kafka/admin.ts';
import { passwordFingerprint, principalOf } from '../kafka/user-plan.ts';
import type { ClusterClients } from './kafka-client-pool.ts';
import { KafkaUserAdapter } from './kafkauser.adapter.ts';
import type { DesiredKafkaUser, ObservedKafkaUser } from './kafkauser.adapter.ts';

/** The users of an in-memory Kafka: SCRAM passwords by mechanism, ACLs, quotas; every write in `writes`. */
class FakeUserAdmin {
  readonly credentials = new Map<ScramMechanism, string>();
  acls: AclBinding[] = [];
  quotas: QuotaValues = {};
  /** The entities `user=…,client-id=<id>`, by client id; an entity with no key left is gone, as in Kafka. */
  readonly clientIdQuotas = new Map<string, QuotaValues>();
  readonly writes: string[] = [];

  describeScramCredentials(): Promise<readonly ScramMechanism[]> {
    return Promise.resolve([...this.credentials.keys()]);
  }
  upsertScramCredential(_username: string, mechanism: ScramMechanism, password: string): Promise<void> {
    this.writes.push(`upsert ${mechanism}`);
    this.credentials.set(mechanism, password);
    return Promise.resolve();
  }
  deleteScramCredential(_username: string, mechanism: ScramMechanism): Promise<void> {
    this.writes.push(`delete ${mechanism}`);
    this.credentials.delete(mechanism);
    return Promise.resolve();
  }
  describeAcls(principal: string): Promise<readonly AclBinding[]> {
    return Promise.resolve(this.acls.filter((b) => b.principal === principal));
  }
  createAcls(bindings: readonly AclBinding[]): Promise<void> {
    this.writes.push('createAcls');
    this.acls.push(...bindings);
    return Promise.resolve();
  }
  deleteAcls(bindings: readonly AclBinding[]): Promise<void> {
    this.writes.push('deleteAcls');
    const gone = new Set(bindings.map((b) => JSON.stringify(b)));
    this.acls = this.acls.filter((b) => !gone.has(JSON.stringify(b)));
    return Promise.resolve();
  }
  describeUserQuotas(): Promise<QuotaValues> {
    return Promise.resolve(this.quotas);
  }
  alterUserQuotas(_username: string, change: QuotaChange): Promise<void> {
    this.writes.push('alterUserQuotas');
    this.quotas = applied(this.quotas, change);
    return Promise.resolve();
  }
  describeClientIdQuotas(): Promise<ReadonlyMap<string, QuotaValues>> {
    return Promise.resolve(new Map(this.clientIdQuotas));
  }
  alterClientIdQuotas(_username: string, changes: ReadonlyMap<string, QuotaChange>): Promise<void> {
    this.writes.push(`alterClientIdQuotas ${[...changes.keys()].join(',')}`);
    for (const [clientId, change] of changes) {
      const values = applied(this.clientIdQuotas.get(clientId) ?? {}, change);
      if (Object.keys(values).length === 0) this.clientIdQuotas.delete(clientId);
      else this.clientIdQuotas.set(clientId, values);
    }
    return Promise.resolve();
  }
}

function applied(values: QuotaValues, change: QuotaChange): QuotaValues {
  return Object.fromEntries(Object.entries({ ...values, ...change.set }).filter(([key]) => !change.remove.includes(key as QuotaKey)));
}

type UserAdapter = ExternalAdapter<KafkaUser, DesiredKafkaUser, ObservedKafkaUser, ClusterClients>;

/** The cluster the fake clients describe; a test replaces the id to stand for a rebuilt cluster. */
const cluster = { id: 'cluster-1' };

function adapterOver(admin: FakeUserAdmin): UserAdapter {
  // Only `admin` and `clusterInfo` are reached by user calls.
  const clients = { admin, clusterInfo: () => Promise.resolve({ clusterId: cluster.id, controllerId: 1, brokers: [] }) } as unknown as ClusterClients;
  return boundAdapter(new KafkaUserAdapter(), clients);
}

const read: AclBinding = { resourceType: 'topic', resourceName: 'team.events', patternType: 'literal', principal: principalOf('team.app'), host: '*', operation: 'Read', permission: 'allow' };

function wanted(change: Partial<DesiredKafkaUser> = {}): DesiredKafkaUser {
  return { connection: 'main', username: 'team.app', secretName: 'app-kafka-credentials', mechanism: 'SCRAM-SHA-512', password: 'pw-1', bindings: [read], quotas: { producer_byte_rate: 1024 }, clientIdQuotas: new Map(), ...change };
}

function user(status?: KafkaUser['status'], generation = 1): KafkaUser {
  return {
    apiVersion: 'kafka.domain-operators.io/v1alpha1',
    kind: 'KafkaUser',
    metadata: { name: 'app', namespace: 'team', uid: 'u1', generation },
    spec: { connectionRef: { name: 'main' }, authentication: { type: 'scram-sha-512' } },
    ...(status !== undefined && { status }),
  };
}

function contextOf(object: KafkaUser): ExternalContext<KafkaUser, ClusterClients> {
  return { request: { namespace: 'team', name: 'app' }, reconcileId: 'r1', log: silentLogger, signal: new AbortController().signal, externalName: 'main/team.app', object, client: () => Promise.reject(new Error('no client bound')) };
}

async function observed(adapter: UserAdapter, desired: DesiredKafkaUser, object: KafkaUser): Promise<ObservedKafkaUser> {
  const observation = await adapter.observe(desired, contextOf(object));
  if (!observation.exists) throw new Error('the user should exist');
  return observation.observed;
}

describe('KafkaUserAdapter reports its status fields instead of keeping them', () => {
  it('creates ACLs and quotas before the credential, and reports the credential it applied, never the password', async () => {
    const admin = new FakeUserAdmin();
    const created = await adapterOver(admin).create(wanted(), contextOf(user()));
    expect(admin.writes).toEqual(['createAcls', 'alterUserQuotas', 'upsert SCRAM-SHA-512']);
    const salt = (created.status?.['credential'] as { salt: string }).salt;
    expect(created.status).toEqual({
      username: 'team.app',
      secretName: 'app-kafka-credentials',
      credential: { mechanism: 'SCRAM-SHA-512', salt, fingerprint: passwordFingerprint('pw-1', salt), clusterId: 'cluster-1' },
      credentialMechanisms: ['SCRAM-SHA-512'],
    });
    expect(JSON.stringify(created)).not.toContain('pw-1');
  });

  it('judges the password by the credential its status records, and keeps that salt when rotating', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    const created = await adapter.create(wanted(), contextOf(user()));
    const recorded = user(created.status);

    const steady = await adapter.observe(wanted(), contextOf(recorded));
    expect(steady).toMatchObject({ exists: true, upToDate: true, status: { username: 'team.app', secretName: 'app-kafka-credentials' } });
    // A fresh adapter (a restarted process) judges the same from the status alone: nothing is kept in memory.
    expect(await adapterOver(admin).observe(wanted(), contextOf(recorded))).toMatchObject({ upToDate: true });
    // Without the record, the credential is written again.
    expect(await adapter.observe(wanted(), contextOf(user()))).toMatchObject({ upToDate: false, diff: ['credential: no applied credential is recorded'] });

    const rotated = wanted({ password: 'pw-2' });
    const plan = await observed(adapter, rotated, recorded);
    expect(plan.scram).toMatchObject({ upsert: true, why: 'the password changed' });
    const update = await adapter.update(rotated, plan, contextOf(recorded));
    const salt = recorded.status?.credential?.salt ?? '';
    expect(update.status).toEqual({ credential: { mechanism: 'SCRAM-SHA-512', salt, fingerprint: passwordFingerprint('pw-2', salt), clusterId: 'cluster-1' }, credentialMechanisms: ['SCRAM-SHA-512'] });
    expect(admin.credentials.get('SCRAM-SHA-512')).toBe('pw-2');
  });

  it('writes the credential again on a rebuilt or restored cluster, though its fingerprint still matches, and records the new cluster', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    const recorded = user((await adapter.create(wanted(), contextOf(user()))).status);
    // A cluster restored from a backup made before a rotation: Kafka has a credential, with the old password.
    admin.credentials.set('SCRAM-SHA-512', 'pw-0');
    cluster.id = 'cluster-2';
    try {
      const plan = await observed(adapter, wanted(), recorded);
      expect(plan.scram).toMatchObject({ upsert: true, why: 'it was applied on cluster cluster-1, this is cluster cluster-2' });
      const update = await adapter.update(wanted(), plan, contextOf(recorded));
      expect(admin.credentials.get('SCRAM-SHA-512')).toBe('pw-1');
      expect(update.status).toMatchObject({ credential: { clusterId: 'cluster-2', salt: recorded.status?.credential?.salt } });
      // From then on it is up to date again.
      expect(await adapter.observe(wanted(), contextOf(user(update.status)))).toMatchObject({ upToDate: true });
    } finally {
      cluster.id = 'cluster-1';
    }
  });

  it('reports nothing from an update that leaves the credential alone', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    const recorded = user((await adapter.create(wanted(), contextOf(user()))).status);
    const fewer = wanted({ bindings: [], quotas: {} });
    const update = await adapter.update(fewer, await observed(adapter, fewer, recorded), contextOf(recorded));
    expect(update).toEqual({});
    expect(admin.writes.slice(3)).toEqual(['deleteAcls', 'alterUserQuotas']);
  });

  it('asks for the mechanism to be recorded before a credential is written for it, and only then', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    // `intent` is pure: it asks Kafka nothing, so the adapter needs no client bound for it.
    const plan = new KafkaUserAdapter();
    expect(plan.intent(wanted(), undefined, contextOf(user()))).toEqual({ credentialMechanisms: ['SCRAM-SHA-512'] });
    const recorded = user((await adapter.create(wanted(), contextOf(user()))).status);
    // Nothing to write, or a rotation under a recorded mechanism: nothing to record.
    expect(plan.intent(wanted(), await observed(adapter, wanted(), recorded), contextOf(recorded))).toBeUndefined();
    const rotated = wanted({ password: 'pw-2' });
    expect(plan.intent(rotated, await observed(adapter, rotated, recorded), contextOf(recorded))).toBeUndefined();
    const sha256 = wanted({ mechanism: 'SCRAM-SHA-256' });
    expect(plan.intent(sha256, await observed(adapter, sha256, recorded), contextOf(recorded))).toEqual({ credentialMechanisms: ['SCRAM-SHA-512', 'SCRAM-SHA-256'] });
  });

  it('on a change of mechanism writes the new credential, removes the recorded old one and reports what is left', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    const recorded = user((await adapter.create(wanted(), contextOf(user()))).status);
    const sha256 = wanted({ mechanism: 'SCRAM-SHA-256' });
    const update = await adapter.update(sha256, await observed(adapter, sha256, recorded), contextOf(recorded));
    expect(admin.writes.slice(3)).toEqual(['upsert SCRAM-SHA-256', 'delete SCRAM-SHA-512']);
    expect(update.status).toMatchObject({ credential: { mechanism: 'SCRAM-SHA-256' }, credentialMechanisms: ['SCRAM-SHA-256'] });
  });
});

/** The adapter under the runtime's reconciler, over the runtime's in-memory objects, as kafkaExternalDeps wires it. */
function underTheRuntime(admin: FakeUserAdmin, objects: FakeObjects<KafkaUser>, status: StatusWriter<KafkaUser> = objects.statusWriter) {
  const desired = (u: KafkaUser): DesiredKafkaUser => wanted({ mechanism: u.spec.authentication.type === 'scram-sha-256' ? 'SCRAM-SHA-256' : 'SCRAM-SHA-512', bindings: u.spec.acls === undefined ? [read] : [] });
  const reconciler = new ExternalResourceReconciler<KafkaUser, DesiredKafkaUser, ObservedKafkaUser, ClusterClients>(
    { adapter: adapterOver(admin), claims: objects.claims(() => 'main/team.app'), finalizer: objects.finalizer, status, events: new RecordingRecorder(), random: () => 0.5 },
    { annotationPrefix: 'kafka.domain-operators.io', connect: (u) => ({ externalName: 'main/team.app', desired: desired(u) }), defaultDeletionPolicy: 'Delete', adoptExactMatch: true },
  );
  const context = { request: { namespace: 'team', name: 'app' }, reconcileId: 'r', log: silentLogger, signal: new AbortController().signal };
  return { reconciler, reconcile: (object: KafkaUser = objects.current('u1')) => reconciler.reconcile(object, context) };
}

/** A status writer that records what each patch asked for (after the object it started from), and can fail. */
function recordingWriter(objects: FakeObjects<KafkaUser>) {
  const patches: { readonly fields: readonly string[]; readonly conditions: boolean }[] = [];
  let failing = false;
  const writer: StatusWriter<KafkaUser> = {
    patchStatus: async (object, desired, now) => {
      if (failing) throw new Error('apiserver unavailable');
      const before = objects.statusWrites;
      const reply = await objects.statusWriter.patchStatus(object, desired, now);
      if (objects.statusWrites > before) patches.push({ fields: Object.keys(desired.fields ?? {}).sort(), conditions: desired.conditions !== undefined });
      return reply;
    },
  };
  return { writer, patches, fail: (on: boolean) => (failing = on) };
}

describe('KafkaUserAdapter per-client-id quotas', () => {
  const batch = new Map<string, QuotaValues>([
    ['batch', { producer_byte_rate: 512 }],
    ['ui', { consumer_byte_rate: 2048, request_percentage: 10 }],
  ]);

  it('creates the entity of each client id, and a user with only client-id quotas exists in Kafka', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    await adapter.create(wanted({ bindings: [], quotas: {}, clientIdQuotas: batch }), contextOf(user()));
    expect(admin.writes).toEqual(['alterClientIdQuotas batch,ui', 'upsert SCRAM-SHA-512']);
    expect(admin.clientIdQuotas).toEqual(batch);
    admin.credentials.clear();
    expect(await adapter.observe(wanted({ bindings: [], quotas: {}, clientIdQuotas: batch }), contextOf(user()))).toMatchObject({ exists: true });
  });

  it('changes a value, removes a key and removes the entity of a client id no longer in the spec, with a diff naming each', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    const recorded = user((await adapter.create(wanted({ clientIdQuotas: batch }), contextOf(user()))).status);
    const next = wanted({ clientIdQuotas: new Map([['ui', { consumer_byte_rate: 4096 }]]) });
    const observation = await adapter.observe(next, contextOf(recorded));
    expect(observation).toMatchObject({
      exists: true,
      upToDate: false,
      diff: ['quota consumer_byte_rate of client-id ui: 2048 → 4096', 'quota request_percentage of client-id ui: 10 → (none)', 'quota producer_byte_rate of client-id batch: 512 → (none)'],
    });
    if (!observation.exists) throw new Error('the user should exist');
    await adapter.update(next, observation.observed, contextOf(recorded));
    expect(admin.clientIdQuotas).toEqual(new Map([['ui', { consumer_byte_rate: 4096 }]]));
    expect(admin.quotas).toEqual({ producer_byte_rate: 1024 });
    expect(await adapter.observe(next, contextOf(recorded))).toMatchObject({ upToDate: true });
  });

  it('removes every client-id entity of the user on delete', async () => {
    const admin = new FakeUserAdmin();
    const adapter = adapterOver(admin);
    await adapter.create(wanted({ clientIdQuotas: batch }), contextOf(user()));
    await adapter.delete({ externalName: 'main/team.app', desired: undefined }, contextOf(user()));
    expect(admin.clientIdQuotas.size).toBe(0);
    expect(admin.quotas).toEqual({});
  });
});

describe('KafkaUser status, one path', () => {
  it('writes the claim with the mechanism ahead of the create, then the facts with the conditions and observedGeneration in one patch', async () => {
    const admin = new FakeUserAdmin();
    const objects = new FakeObjects<KafkaUser>('kafka.domain-operators.io/finalizer');
    objects.put(user());
    const { writer, patches } = recordingWriter(objects);
    await underTheRuntime(admin, objects, writer).reconcile();

    expect(patches).toEqual([
      { fields: ['credentialMechanisms', 'externalName', 'ownership'], conditions: false },
      { fields: ['credential', 'credentialMechanisms', 'externalName', 'ownership', 'secretName', 'username'], conditions: true },
    ]);
    const status = objects.current('u1').status;
    expect(status).toMatchObject({ observedGeneration: 1, ownership: 'Created', username: 'team.app', secretName: 'app-kafka-credentials', credential: { mechanism: 'SCRAM-SHA-512' } });
    expect(status?.conditions?.every((c) => c.observedGeneration === 1)).toBe(true);
  });

  it('does not write the credential again when the next reconcile gets a cached object without the facts (read your own writes)', async () => {
    const admin = new FakeUserAdmin();
    const objects = new FakeObjects<KafkaUser>('kafka.domain-operators.io/finalizer');
    objects.put(user());
    const stale = objects.current('u1');
    const { reconcile } = underTheRuntime(admin, objects);
    await reconcile();
    const salt = objects.current('u1').status?.credential?.salt;
    const writes = objects.statusWrites;

    await reconcile(withMeta(stale, { finalizers: ['kafka.domain-operators.io/finalizer'] }));
    expect(admin.writes.filter((w) => w.startsWith('upsert'))).toEqual(['upsert SCRAM-SHA-512']);
    expect(objects.current('u1').status?.credential?.salt).toBe(salt);
    expect(objects.statusWrites).toBe(writes);
  });

  it('moves observedGeneration with the conditions of a changed spec, in one patch', async () => {
    const admin = new FakeUserAdmin();
    const objects = new FakeObjects<KafkaUser>('kafka.domain-operators.io/finalizer');
    objects.put(user());
    const { writer, patches } = recordingWriter(objects);
    const { reconcile } = underTheRuntime(admin, objects, writer);
    await reconcile();
    objects.edit('u1', (u) => ({ ...u, spec: { ...u.spec, acls: [] } }));
    await reconcile();

    expect(admin.acls).toEqual([]);
    expect(patches.slice(2)).toEqual([{ fields: ['externalName', 'ownership', 'secretName', 'username'], conditions: true }]);
    expect(objects.current('u1').status).toMatchObject({ observedGeneration: 2 });
  });

  it('removes the credential of a former mechanism written just before a crash that lost its record', async () => {
    const admin = new FakeUserAdmin();
    const objects = new FakeObjects<KafkaUser>('kafka.domain-operators.io/finalizer');
    objects.put(user());
    const { writer, fail } = recordingWriter(objects);
    // The claim goes out, the create runs, then the apiserver is gone: the credential's record is never written.
    let claims = 0;
    const crashing: StatusWriter<KafkaUser> = {
      patchStatus: async (object, desired, now) => {
        const reply = await writer.patchStatus(object, desired, now);
        if (++claims === 1) fail(true);
        return reply;
      },
    };
    await expect(underTheRuntime(admin, objects, crashing).reconcile()).rejects.toThrow('apiserver unavailable');
    expect(admin.credentials.has('SCRAM-SHA-512')).toBe(true);
    expect(objects.current('u1').status?.credential).toBeUndefined();

    // A restarted process meets a spec that moved to SCRAM-SHA-256 meanwhile.
    fail(false);
    objects.edit('u1', (u) => ({ ...u, spec: { ...u.spec, authentication: { type: 'scram-sha-256' } } }));
    await underTheRuntime(admin, objects).reconcile();
    expect([...admin.credentials.keys()]).toEqual(['SCRAM-SHA-256']);
    expect(objects.current('u1').status).toMatchObject({ credential: { mechanism: 'SCRAM-SHA-256' }, credentialMechanisms: ['SCRAM-SHA-256'], observedGeneration: 2 });
  });
});
