// What a watcher sees of status while a spec changes: for each kind the operator manages (KafkaTopic, KafkaUser,
// KafkaConnection), every version the apiserver sends from before the resource is Ready until it is Ready at its
// new generation is recorded, and none may set `status.observedGeneration` while a condition still describes an
// older generation (what kstatus and `kubectl wait` would take for "current" too early). Each check also requires a
// version at the new generation, so an empty or too short recording cannot pass.
import { adminConnection, eventually, freshNamespace, generationLies, kstatusReading, randomSuffix, startOperator, watchStatuses } from '@domain-operators/e2e-harness';
import type { ObjectWithConditions, OperatorProcess, StatusWatch, WatchedVersion } from '@domain-operators/e2e-harness';
import { getCondition } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import type { KubeConfig } from '@kubernetes/client-node';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics, kafkaUsers } from './api.ts';
import { cleanUp, createConnection, deleteIfExists, kafkaUnderTest, topicResource, userResource } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';

let client: Client;
let kubeConfig: KubeConfig;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
let namespace: string;
const id = randomSuffix();
const connection = `e2e-statusgen-${id}`;
/** A connection of its own for the KafkaConnection check: changing its spec touches no topic or user. */
const spareConnection = `e2e-statusgen-spare-${id}`;
const topicName = `statusgen-${id}`;
/** Every watch started, so one a failed test left running is stopped in `afterAll`. */
const watches: StatusWatch[] = [];

beforeAll(async () => {
  ({ client, kubeConfig } = await adminConnection());
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  namespace = await freshNamespace({}, 'e2e-statusgen');
  await createConnection(client, kafka, { name: connection, secretNamespace: namespace, tenancy: { namePrefix: '{namespace}.' } });
  operator = await startOperator({ system: 'kafka' });
});

afterAll(async () => {
  await Promise.all(watches.map((w) => w.stop().catch(() => undefined)));
  // The user goes while the operator runs, so its ACLs and quotas leave Kafka with it.
  await deleteIfExists(client, kafkaUsers.type, { namespace, name: 'app' });
  await eventually(async () => ((await client.list(kafkaUsers.type, { namespace })).items.length === 0 ? true : undefined), { timeoutMs: 30_000, what: 'KafkaUser app deleted' }).catch(() => undefined);
  await operator?.stop();
  await checker.deleteAclsOf(`User:${namespace}.app`);
  await checker.deleteTopics([`${namespace}.${topicName}`]);
  await checker.close();
  await cleanUp(client, [namespace], [connection, spareConnection]);
});

/** Starts recording the versions of `type` (in `scope`; cluster-wide when `undefined`). */
async function watch(type: ResourceType, scope: string | undefined): Promise<StatusWatch> {
  const started = await watchStatuses(kubeConfig, type, scope);
  watches.push(started);
  return started;
}

/** Polls the object until `Ready` is True at `generation` and `status.observedGeneration` says so too; resolves with it. */
async function readyAt<T extends ObjectWithConditions & { readonly status?: { readonly observedGeneration?: number } }>(
  type: ResourceType<T>,
  request: { readonly namespace: string | undefined; readonly name: string },
  generation: number,
): Promise<T> {
  return eventually(
    async () => {
      const object = await client.get(type, request);
      const ready = getCondition(object.status?.conditions, 'Ready');
      const current = ready?.status === 'True' && ready.observedGeneration === generation && object.status?.observedGeneration === generation;
      return current ? object : undefined;
    },
    { timeoutMs: 90_000, intervalMs: 250, what: `${type.kind} ${request.name} Ready at generation ${generation}` },
  );
}

/** The versions of `name` only (a cluster-wide watch of connections sees the other suites' leftovers too). */
function of(versions: readonly WatchedVersion[], name: string): WatchedVersion[] {
  return versions.filter((v) => v.name === name);
}

/**
 * The check of every test: no version lies about its generation, and the recording spans the change (a version
 * current at the generation before it and one at the generation after), so it cannot pass by seeing nothing.
 */
async function expectHonest(versions: readonly WatchedVersion[], before: number, after: number): Promise<void> {
  expect(generationLies(versions)).toEqual([]);
  expect(versions.some((v) => v.observedGeneration === before)).toBe(true);
  expect(versions.some((v) => v.observedGeneration === after)).toBe(true);
  // The real kstatus (Flux, kpt): never Current before the change is applied, InProgress while it is in flight.
  const reading = await kstatusReading(versions, after);
  expect(reading.lies).toEqual([]);
  expect(reading.inProgress).toBeGreaterThan(0);
}

describe('status.observedGeneration never runs ahead of the conditions', () => {
  it('KafkaTopic: 3 → 6 partitions and a config change', async () => {
    const recording = await watch(kafkaTopics.type, namespace);
    const created = await client.create(kafkaTopics.type, topicResource(namespace, topicName, connection, { partitions: 3, config: { 'retention.ms': '3600000' } }));
    await readyAt(kafkaTopics.type, { namespace, name: topicName }, created.metadata.generation ?? 1);

    const patched = await client.patch(kafkaTopics.type, { namespace, name: topicName }, { type: 'merge', body: { spec: { partitions: 6, config: { 'retention.ms': '7200000' } } } });
    const generation = patched.metadata.generation ?? 0;
    expect(generation).toBeGreaterThan(created.metadata.generation ?? 1);
    const ready = await readyAt(kafkaTopics.type, { namespace, name: topicName }, generation);
    const versions = of(await recording.stop(), topicName);

    expect(ready.status?.partitions).toBe(6);
    expect((await checker.topic(`${namespace}.${topicName}`))?.partitions).toBe(6);
    await expectHonest(versions, created.metadata.generation ?? 1, generation);
  });

  it('KafkaUser: an ACL and a quota change', async () => {
    const recording = await watch(kafkaUsers.type, namespace);
    const topic = `${namespace}.${topicName}`;
    const created = await client.create(
      kafkaUsers.type,
      userResource(namespace, 'app', connection, {
        acls: [{ resource: { type: 'topic', name: topic, patternType: 'literal' }, operations: ['Read', 'Describe'], host: '*', permission: 'allow' }],
        quotas: { producerByteRate: 1048576 },
      }),
    );
    await readyAt(kafkaUsers.type, { namespace, name: 'app' }, created.metadata.generation ?? 1);

    const patched = await client.patch(
      kafkaUsers.type,
      { namespace, name: 'app' },
      {
        type: 'merge',
        body: {
          spec: {
            acls: [{ resource: { type: 'topic', name: topic, patternType: 'literal' }, operations: ['Read', 'Describe', 'Write'], host: '*', permission: 'allow' }],
            quotas: { producerByteRate: 2097152, consumerByteRate: 4194304 },
          },
        },
      },
    );
    const generation = patched.metadata.generation ?? 0;
    expect(generation).toBeGreaterThan(created.metadata.generation ?? 1);
    await readyAt(kafkaUsers.type, { namespace, name: 'app' }, generation);
    const versions = of(await recording.stop(), 'app');

    expect(await checker.userQuotas(`${namespace}.app`)).toEqual({ producer_byte_rate: 2097152, consumer_byte_rate: 4194304 });
    await expectHonest(versions, created.metadata.generation ?? 1, generation);
  });

  it('KafkaConnection: a tenancy change of a connection nothing uses', async () => {
    const recording = await watch(kafkaConnections.type, undefined);
    await createConnection(client, kafka, { name: spareConnection, secretNamespace: namespace });
    const created = await client.get(kafkaConnections.type, { namespace: undefined, name: spareConnection });
    await readyAt(kafkaConnections.type, { namespace: undefined, name: spareConnection }, created.metadata.generation ?? 1);

    const patched = await client.patch(kafkaConnections.type, { namespace: undefined, name: spareConnection }, { type: 'merge', body: { spec: { tenancy: { namePrefix: '{namespace}.' } } } });
    const generation = patched.metadata.generation ?? 0;
    expect(generation).toBeGreaterThan(created.metadata.generation ?? 1);
    await readyAt(kafkaConnections.type, { namespace: undefined, name: spareConnection }, generation);
    const versions = of(await recording.stop(), spareConnection);

    await expectHonest(versions, created.metadata.generation ?? 1, generation);
  });
});
