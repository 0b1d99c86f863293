// Disaster recovery end to end (issue #16): the Kafka cluster behind a KafkaConnection loses all its data and comes
// back with a new cluster id at the same address (testenv's `rebuildKafkaPair`: the second, two-broker cluster, which
// no other suite uses meanwhile, so the main Kafka the later files need is never touched). Without any edit, the
// connection says so (Ready reason ClusterReplaced, a Warning Event with the old and the new id, status.clusterId),
// every KafkaTopic's topic is back with its partitions and configs, every KafkaUser's login from its Secret works
// again over a real SASL/SCRAM connection with its ACLs (allowed and denied) and quotas, and topics created on the
// new cluster without a KafkaTopic are left alone. It starts and stops testenv processes, so it skips itself on an
// existing cluster (`$E2E_KUBECONFIG`, kind in hosted CI), whose Kafka it does not control.
import type { V1Secret } from '@kubernetes/client-node';
import { adminConnection, eventually, freshNamespace, metricSum, randomSuffix, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, eventType, getCondition } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { downKafkaPair, rebuildKafkaPair, upKafkaPair } from '@domain-operators/testenv';
import type { KafkaInfo, KafkaRebuild } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { becomes } from './access.ts';
import { kafkaConnections, kafkaTopics, kafkaUsers } from './api.ts';
import type { KafkaTopic, KafkaUser } from './api.ts';
import { cleanUp, createConnection, topicResource, userResource, waitForReason } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';
import type { UserLogin } from './kafka-checker.ts';

const skip = targetsExistingCluster();
const id = randomSuffix();
const connection = `e2e-dr-${id}`;
/** The connection is checked every 10 s (default 30 s), so the replacement is seen sooner. */
const HEALTH_CHECK_INTERVAL = '10s';
/** Topics and users are drift-checked only every 30 min here: within the test, only the connection's wake can bring them back. */
const NO_DRIFT_CHECK = { 'kafka.domain-operators.io/drift-check-interval': '30m' };

let client: Client;
let pair: KafkaInfo;
let checker: KafkaChecker | undefined;
let operator: OperatorProcess | undefined;
let namespace: string;
/** Ends the polls of the connection's states (each test ends its own; afterAll all of them, when a test failed first). */
const recordings: AbortController[] = [];

/** The KafkaTopics: partitions, configs, both deletion policies, an explicit topic name (after the namespace's prefix). */
const TOPICS: readonly { readonly name: string; readonly topicName?: string; readonly spec: Partial<KafkaTopic['spec']> }[] = [
  { name: 'orders', spec: { partitions: 3, config: { 'retention.ms': '86400000', 'max.message.bytes': '524288' } } },
  { name: 'payments', spec: { partitions: 2, config: { 'retention.bytes': '10485760', 'segment.ms': '3600000' }, deletionPolicy: 'Delete' } },
  // Compacted: nobody produces to it here (a record without a key would be refused).
  { name: 'audit', topicName: 'audit-log', spec: { partitions: 1, config: { 'cleanup.policy': 'compact', 'min.compaction.lag.ms': '60000' } } },
];

beforeAll(async () => {
  if (skip) return;
  const { client: admin } = await adminConnection();
  client = admin;
  pair = await upKafkaPair();
  checker = new KafkaChecker(pair);
  namespace = await freshNamespace({}, 'e2e-kafka-dr');
  await createConnection(client, pair, { name: connection, secretNamespace: namespace, tenancy: { namePrefix: '{namespace}.' } });
  await client.patch(kafkaConnections.type, { namespace: undefined, name: connection }, { type: 'merge', body: { metadata: { annotations: { 'kafka.domain-operators.io/health-check-interval': HEALTH_CHECK_INTERVAL } } } });
  operator = await startOperator({ system: 'kafka', values: { watchNamespaces: [namespace] } });
}, 240_000);

afterAll(async () => {
  if (skip) return;
  for (const recording of recordings) recording.abort();
  await operator?.stop();
  await checker?.close();
  await cleanUp(client, [namespace], [connection]);
  await downKafkaPair();
}, 120_000);

/** The topic a KafkaTopic of {@link TOPICS} stands for: `<namespace>.<topicName or name>`. */
function topicNameOf(name: string): string {
  const explicit = TOPICS.find((t) => t.name === name)?.topicName;
  return `${namespace}.${explicit ?? name}`;
}

/** One state of the connection's Ready as a poll saw it. */
interface ConnectionState {
  readonly reason: string | undefined;
  readonly status: string | undefined;
  readonly message: string | undefined;
  readonly clusterId: string | undefined;
  /** When the poll first saw it (epoch ms). */
  readonly at: number;
}

/** A running poll of the connection's states ({@link recordConnection}). */
interface ConnectionRecording {
  /** Each distinct state of its Ready and cluster id, in order, as seen so far. */
  readonly states: ConnectionState[];
  /** Ends the poll and resolves once it has. */
  stop(): Promise<void>;
}

/**
 * Polls the connection every 200 ms and keeps each distinct state of its Ready and cluster id, in order:
 * `ClusterReplaced` lasts one health check (10 s here), possibly while the rebuild is still starting broker 2.
 */
function recordConnection(): ConnectionRecording {
  const abort = new AbortController();
  recordings.push(abort);
  const states: ConnectionState[] = [];
  const done = pollConnection(abort.signal, states);
  return {
    states,
    stop: async () => {
      abort.abort();
      await done;
    },
  };
}

async function pollConnection(signal: AbortSignal, states: ConnectionState[]): Promise<void> {
  while (!signal.aborted) {
    const object = await client.get(kafkaConnections.type, { namespace: undefined, name: connection }).catch(() => undefined);
    const ready = getCondition(object?.status?.conditions, 'Ready');
    const state = { reason: ready?.reason, status: ready?.status, message: ready?.message, clusterId: object?.status?.clusterId };
    const previous = states.at(-1);
    const same = previous !== undefined && previous.reason === state.reason && previous.status === state.status && previous.message === state.message && previous.clusterId === state.clusterId;
    if (object !== undefined && !same) states.push({ ...state, at: Date.now() });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Where the scenario stands after the rebuild: a topic counts only with an id other than its first and its status
 * naming `clusterId`, a user with a credential applied on `clusterId`.
 */
interface AfterRebuild {
  readonly firstTopicIds: ReadonlyMap<string, string>;
  readonly clusterId: string;
}

function stringData(secret: V1Secret, key: string): string | undefined {
  const value = secret.data?.[key];
  return value === undefined ? undefined : Buffer.from(value, 'base64').toString('utf8');
}

/** The login a KafkaUser's own Secret gives: its username from status, its password from the Secret it names. */
async function loginOf(user: KafkaUser): Promise<UserLogin> {
  const secretName = user.status?.secretName;
  const username = user.status?.username;
  if (secretName === undefined || username === undefined) throw new Error(`KafkaUser ${user.metadata.name ?? ''} has no username or secretName in status`);
  const secret = await client.get(coreTypes.secret, { namespace, name: secretName });
  const password = stringData(secret, user.spec.authentication.passwordSecretRef?.key ?? 'password');
  if (password === undefined) throw new Error(`Secret ${secretName} has no password`);
  return { username, password, mechanism: user.spec.authentication.type === 'scram-sha-256' ? 'SCRAM-SHA-256' : 'SCRAM-SHA-512' };
}

/**
 * Every KafkaTopic and KafkaUser of the namespace Ready at its generation, each topic's status naming the id its topic
 * has in Kafka; after the rebuild, also a new topic id and the user's credential applied on the new cluster.
 */
async function converged(what: string, after?: AfterRebuild): Promise<{ topics: KafkaTopic[]; users: KafkaUser[] }> {
  let last = '';
  return eventually(
    async () => {
      const topics = await client.listAll(kafkaTopics.type, { namespace });
      const users = await client.listAll(kafkaUsers.type, { namespace });
      const inKafka = await checker?.topics(TOPICS.map((t) => topicNameOf(t.name)));
      const waiting = [
        ...topics.filter((t) => {
          const ready = getCondition(t.status?.conditions, 'Ready');
          const name = t.metadata.name ?? '';
          const kafkaId = inKafka?.get(topicNameOf(name))?.id;
          const current = ready?.status === 'True' && t.status?.observedGeneration === t.metadata.generation && kafkaId !== undefined && t.status?.topicId === kafkaId;
          return !current || (after !== undefined && (after.firstTopicIds.get(name) === kafkaId || t.status?.clusterId !== after.clusterId));
        }),
        ...users.filter(
          (u) =>
            getCondition(u.status?.conditions, 'Ready')?.status !== 'True' ||
            u.status?.observedGeneration !== u.metadata.generation ||
            (after !== undefined && u.status?.credential?.clusterId !== after.clusterId),
        ),
      ].map((o) => `${o.metadata.name ?? ''}: ${JSON.stringify(o.status?.conditions?.map((c) => `${c.type}=${c.status}/${c.reason}`))}`);
      last = [`${String(topics.length)}/${String(TOPICS.length)} KafkaTopics, ${String(users.length)}/2 KafkaUsers`, ...waiting].join('; ');
      return topics.length === TOPICS.length && users.length === 2 && waiting.length === 0 ? { topics, users } : undefined;
    },
    { timeoutMs: 120_000, intervalMs: 500, what },
  ).catch((err: unknown) => {
    throw new Error(`${String(err)}; still waiting: ${last}`);
  });
}

describe.skipIf(skip)('Kafka disaster recovery: the cluster is rebuilt with a new id behind the same address', () => {
  it('recreates every topic, re-applies every user, says so on the connection, and deletes no topic without a KafkaTopic', async () => {
    for (const t of TOPICS) {
      const topic = topicResource(namespace, t.name, connection, { ...t.spec, ...(t.topicName !== undefined && { topicName: topicNameOf(t.name) }) });
      topic.metadata.annotations = NO_DRIFT_CHECK;
      await client.create(kafkaTopics.type, topic);
    }
    // A user with a generated password and one with a Secret of its own (another mechanism).
    const svcPassword = `svc-${randomSuffix(16)}`;
    await client.create(coreTypes.secret, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'svc-login', namespace }, stringData: { password: svcPassword } });
    const users = [
      userResource(namespace, 'app', connection, {
        acls: [
          { resource: { type: 'topic', name: topicNameOf('orders'), patternType: 'literal' }, operations: ['Write', 'Read', 'Describe'] },
          { resource: { type: 'group', name: `${namespace}.`, patternType: 'prefixed' }, operations: ['Read'] },
        ],
        quotas: { producerByteRate: 1048576, requestPercentage: 50 },
      }),
      userResource(namespace, 'svc', connection, {
        authentication: { type: 'scram-sha-256', passwordSecretRef: { name: 'svc-login', key: 'password' } },
        acls: [{ resource: { type: 'topic', name: `${namespace}.pay`, patternType: 'prefixed' }, operations: ['Write', 'Describe'] }],
      }),
    ];
    for (const user of users) {
      user.metadata.annotations = NO_DRIFT_CHECK;
      await client.create(kafkaUsers.type, user);
    }
    const before = await converged('every KafkaTopic and KafkaUser Ready on the first cluster');
    const firstIds = new Map(before.topics.map((t) => [t.metadata.name ?? '', t.status?.topicId ?? '']));
    const generationOf = (o: KafkaTopic | KafkaUser, kind: string): [string, number | undefined] => [`${kind}/${o.metadata.name ?? ''}`, o.metadata.generation];
    const generations = new Map([...before.topics.map((t) => generationOf(t, 'topic')), ...before.users.map((u) => generationOf(u, 'user'))]);
    const logins = new Map<string, UserLogin>();
    for (const user of before.users) logins.set(user.metadata.name ?? '', await loginOf(user));
    const app = logins.get('app');
    const svc = logins.get('svc');
    if (app === undefined || svc === undefined) throw new Error('both users should have a login');
    expect(svc.password).toBe(svcPassword);
    const first = checker;
    if (first === undefined) throw new Error('no checker of the first cluster');
    await becomes(() => first.produceAs(app, topicNameOf('orders')), 'allowed', 'app produces to orders on the first cluster');
    const firstCluster = (await client.get(kafkaConnections.type, { namespace: undefined, name: connection })).status?.clusterId;

    // The disaster: all data gone, a new cluster id, the same address and super user.
    await first.close();
    checker = undefined;
    const recording = recordConnection();
    const { states } = recording;
    const rebuilt: KafkaRebuild = await rebuildKafkaPair();
    const rebuiltAt = Date.now();
    expect(rebuilt.previousClusterId).toBe(firstCluster);
    expect(rebuilt.clusterId).not.toBe(firstCluster);
    checker = new KafkaChecker(pair);
    const kafka = checker;
    // Topics someone makes on the new cluster by hand, with no KafkaTopic: one inside the namespace's prefix, one outside.
    const handMade = [`${namespace}.handmade`, `e2e-dr-handmade-${id}`];
    await kafka.createTopics(handMade, 2);

    // The connection says what happened: the reason on Ready, the new id in status, a Warning Event with both ids.
    const replaced = await eventually(async () => Promise.resolve(states.find((state) => state.reason === 'ClusterReplaced')), {
      timeoutMs: 90_000,
      intervalMs: 250,
      what: `KafkaConnection ${connection} Ready with reason ClusterReplaced`,
    }).catch((err: unknown) => {
      throw new Error(`${String(err)}; seen: ${JSON.stringify(states)}`);
    });
    expect(replaced).toMatchObject({ status: 'True', clusterId: rebuilt.clusterId });
    expect(replaced.message).toContain(`the cluster id changed from ${rebuilt.previousClusterId} to ${rebuilt.clusterId}`);
    const events = await eventually(
      async () => {
        const found = (await client.listAll(eventType, { namespace: 'default' })).filter((e) => e.regarding.name === connection && e.reason === 'ClusterReplaced');
        return found.length > 0 ? found : undefined;
      },
      { timeoutMs: 30_000, intervalMs: 500, what: `a ClusterReplaced Event about KafkaConnection ${connection}` },
    );
    expect(events).toHaveLength(1);
    expect(events[0]?.type).toBe('Warning');
    expect(events[0]?.note).toContain(`from ${rebuilt.previousClusterId} to ${rebuilt.clusterId}`);
    expect(JSON.stringify(events)).not.toContain(pair.superUser.password);

    // Every KafkaTopic's topic is back, with a new id (created on the new cluster), its partitions and configs, long
    // before any drift check (30 min here): the connection woke them.
    const after = await converged('every KafkaTopic recreated and every KafkaUser re-applied on the new cluster', { firstTopicIds: firstIds, clusterId: rebuilt.clusterId });
    const timeline = states.map((state) => `${String(state.at - rebuiltAt)} ms ${state.status ?? '?'}/${state.reason ?? '?'} ${state.clusterId ?? '-'}`).join('; ');
    console.log(`all converged ${String(Date.now() - rebuiltAt)} ms after the rebuild returned (cluster ${rebuilt.previousClusterId} → ${rebuilt.clusterId}); connection: ${timeline}`);
    for (const t of TOPICS) {
      const name = topicNameOf(t.name);
      expect(await kafka.topic(name), name).toEqual({ partitions: t.spec.partitions, replicationFactor: 1 });
      expect(await kafka.overridesOf(name), name).toEqual(t.spec.config ?? {});
    }
    // Nobody edited anything: the specs are at the generations they had.
    expect(new Map([...after.topics.map((t) => generationOf(t, 'topic')), ...after.users.map((u) => generationOf(u, 'user'))])).toEqual(generations);
    for (const user of after.users) expect(user.status?.credential?.clusterId, user.metadata.name).toBe(rebuilt.clusterId);

    // Every KafkaUser's login from its Secret works again, unchanged, and its ACLs allow and deny as before.
    for (const user of after.users) expect(await loginOf(user)).toEqual(logins.get(user.metadata.name ?? ''));
    await becomes(() => kafka.produceAs(app, topicNameOf('orders')), 'allowed', 'app produces to orders on the new cluster');
    await becomes(() => kafka.consumeAs(app, topicNameOf('orders'), `${namespace}.dr`), 'allowed', 'app consumes orders in its group on the new cluster');
    expect(await kafka.consumeAs(app, topicNameOf('orders'), `elsewhere-${id}`)).toBe('denied');
    expect(await kafka.produceAs(app, topicNameOf('payments'))).toBe('denied');
    await becomes(() => kafka.produceAs(svc, topicNameOf('payments')), 'allowed', 'svc produces to payments on the new cluster');
    expect(await kafka.produceAs(svc, topicNameOf('orders'))).toBe('denied');
    expect(await kafka.produceAs({ ...svc, password: 'not-the-password' }, topicNameOf('payments'))).toBe('login-failed');
    expect(await kafka.userQuotas(app.username)).toEqual({ producer_byte_rate: 1048576, request_percentage: 50 });

    // Once the operator has converged, and after one more connection check, the hand-made topics are still there.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    for (const name of handMade) expect(await kafka.topic(name), name).toEqual({ partitions: 2, replicationFactor: 1 });
    // The next check finds the same id again: back to Connected, and the connection never named the old id again.
    const connected = await waitForReason(client, kafkaConnections.type, { namespace: undefined, name: connection }, { type: 'Ready', status: 'True', reason: 'Connected' }, 30_000);
    expect(connected).toContain(rebuilt.clusterId);
    await recording.stop();
    const afterReplaced = states.slice(states.indexOf(replaced));
    expect(afterReplaced.filter((state) => state.clusterId !== rebuilt.clusterId)).toEqual([]);
  });

  // Follows the first case, on its resources (now on the first rebuilt cluster).
  it('finds a replacement it never saw go down by the cluster id alone, and wakes every topic and user on it at once', async () => {
    const running = operator;
    const kafkaBefore = checker;
    if (running === undefined || kafkaBefore === undefined) throw new Error('the first case did not get this far');
    // The connection is checked every 60 s from the next check on, so the rebuild (about 30 s) can fall between two
    // checks: then no check sees Kafka down, Ready never flips, and only the new cluster id can wake the topics and
    // users (their drift check is 30 min away).
    await client.patch(kafkaConnections.type, { namespace: undefined, name: connection }, { type: 'merge', body: { metadata: { annotations: { 'kafka.domain-operators.io/health-check-interval': '60s' } } } });
    const checks = async (): Promise<number> => metricSum(await running.metricsText(), 'controller_runtime_reconcile_total', { controller: 'kafkaconnection' });
    // The last check at the 10 s pace, then 12 s without another: the next one is due 60 s after it.
    let count = await checks();
    let lastCheckSeenAt = Date.now();
    for (let quiet = 0; quiet < 12_000; ) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const now = await checks();
      if (now !== count) {
        count = now;
        lastCheckSeenAt = Date.now();
      }
      quiet = Date.now() - lastCheckSeenAt;
    }
    const topicIds = new Map((await client.listAll(kafkaTopics.type, { namespace })).map((t) => [t.metadata.name ?? '', t.status?.topicId ?? '']));

    await kafkaBefore.close();
    checker = undefined;
    const recording = recordConnection();
    const rebuilt = await rebuildKafkaPair();
    const beforeNextCheck = Date.now() < lastCheckSeenAt + 55_000;
    checker = new KafkaChecker(pair);
    const kafka = checker;

    await converged('every KafkaTopic and KafkaUser on the second rebuilt cluster', { firstTopicIds: topicIds, clusterId: rebuilt.clusterId });
    await recording.stop();
    const timeline = recording.states.map((state) => `${String(state.at - lastCheckSeenAt)} ms ${state.status ?? '?'}/${state.reason ?? '?'} ${state.clusterId ?? '-'}`).join('; ');
    console.log(`rebuilt ${rebuilt.previousClusterId} → ${rebuilt.clusterId} ${beforeNextCheck ? 'before' : 'after'} the next connection check was due; connection after the last check: ${timeline}`);
    expect(recording.states.find((state) => state.reason === 'ClusterReplaced')).toMatchObject({ status: 'True', clusterId: rebuilt.clusterId });
    // When the rebuild ended before the next check, that check was the only one to see the new cluster: Kafka was never seen down.
    if (beforeNextCheck) expect(recording.states.filter((state) => state.status !== 'True')).toEqual([]);
    for (const t of TOPICS) expect(await kafka.topic(topicNameOf(t.name)), t.name).toEqual({ partitions: t.spec.partitions, replicationFactor: 1 });
    const users = await client.listAll(kafkaUsers.type, { namespace });
    const app = users.find((u) => u.metadata.name === 'app');
    const svc = users.find((u) => u.metadata.name === 'svc');
    if (app === undefined || svc === undefined) throw new Error('both KafkaUsers should still exist');
    const appLogin = await loginOf(app);
    await becomes(() => kafka.produceAs(appLogin, topicNameOf('orders')), 'allowed', 'app produces to orders on the second rebuilt cluster');
    const svcLogin = await loginOf(svc);
    await becomes(() => kafka.produceAs(svcLogin, topicNameOf('payments')), 'allowed', 'svc produces to payments on the second rebuilt cluster');
  });
});
