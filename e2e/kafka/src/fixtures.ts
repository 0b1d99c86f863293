// What the Kafka e2e suites build their scenarios from: the Kafka under test, KafkaConnections with their login
// Secret, KafkaTopic and KafkaUser objects, waits on a condition's reason, and clean-up that never leaves a
// namespace stuck. Everything goes through the Kubernetes API as admin (a platform admin or a team would do the same).
import type { V1Secret } from '@kubernetes/client-node';
import { backendsUnderTest, eventually, describeConditions } from '@domain-operators/e2e-harness';
import type { ObjectWithConditions } from '@domain-operators/e2e-harness';
import { kafkaConnections, kafkaTopics, kafkaUsers } from './api.ts';
import type { KafkaConnection, KafkaTopic, KafkaUser } from './api.ts';
import { coreTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client, Condition, ResourceType } from '@domain-operators/reconcile';
import type { KafkaInfo } from '@domain-operators/testenv';

/**
 * The Kafka under test, chosen by configuration (`backendsUnderTest`): the one `$E2E_BACKENDS` describes (kind in
 * hosted CI), else testenv's broker, started when it is not running (never stopped here).
 */
export async function kafkaUnderTest(): Promise<KafkaInfo> {
  return (await backendsUnderTest(['kafka'])).kafka;
}

/** Options of {@link createConnection}. */
export interface ConnectionFixture {
  /** Name of the KafkaConnection (cluster-scoped). */
  readonly name: string;
  /** Namespace of the login Secret `<name>-login`. */
  readonly secretNamespace: string;
  readonly tenancy?: KafkaConnection['spec']['tenancy'];
  /** A password other than the super user's, to make the login fail. */
  readonly password?: string;
}

/** Creates, as the platform admin would, a Secret with the super user's login and a KafkaConnection using it. */
export async function createConnection(client: Client, kafka: KafkaInfo, fixture: ConnectionFixture): Promise<void> {
  const secretName = `${fixture.name}-login`;
  const secret: V1Secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: secretName, namespace: fixture.secretNamespace },
    stringData: { username: kafka.superUser.username, password: fixture.password ?? kafka.superUser.password },
  };
  await client.create(coreTypes.secret, secret);
  await client.create(kafkaConnections.type, {
    apiVersion: kafkaConnections.apiVersion,
    kind: 'KafkaConnection',
    metadata: { name: fixture.name },
    spec: {
      bootstrapServers: [...kafka.bootstrapServers],
      sasl: { mechanism: kafka.superUser.mechanism, secretRef: { namespace: fixture.secretNamespace, name: secretName, usernameKey: 'username', passwordKey: 'password' } },
      ...(fixture.tenancy !== undefined && { tenancy: fixture.tenancy }),
    },
  });
}

/** A KafkaTopic object (RF 1, one partition and Retain unless `spec` says otherwise). Pure. */
export function topicResource(namespace: string, name: string, connection: string, spec: Partial<KafkaTopic['spec']> = {}): KafkaTopic {
  return {
    apiVersion: kafkaTopics.apiVersion,
    kind: 'KafkaTopic',
    metadata: { name, namespace },
    spec: { connectionRef: { name: connection }, partitions: 1, replicationFactor: 1, deletionPolicy: 'Retain', ...spec },
  };
}

/** A KafkaUser object with a generated SCRAM-SHA-512 password unless `spec` says otherwise. Pure. */
export function userResource(namespace: string, name: string, connection: string, spec: Partial<KafkaUser['spec']> = {}): KafkaUser {
  return {
    apiVersion: kafkaUsers.apiVersion,
    kind: 'KafkaUser',
    metadata: { name, namespace },
    spec: { connectionRef: { name: connection }, authentication: { type: 'scram-sha-512' }, ...spec },
  };
}

/**
 * Polls the object until its condition `type` has `status` and `reason` for its current generation, and resolves
 * with the condition's message. Rejects after `timeoutMs` with the conditions last seen.
 */
export async function waitForReason<T extends ObjectWithConditions>(
  client: Client,
  type: ResourceType<T>,
  request: { namespace: string | undefined; name: string },
  expected: { type: string; status: Condition['status']; reason: string },
  timeoutMs = 60_000,
): Promise<string> {
  let last: T | undefined;
  const what = `${type.kind} ${request.name} ${expected.type}=${expected.status}/${expected.reason}`;
  return eventually(
    async () => {
      last = await client.get(type, request);
      const c = last.status?.conditions?.find((x) => x.type === expected.type);
      const current = c?.observedGeneration === undefined || c.observedGeneration >= (last.metadata?.generation ?? 0);
      return c?.status === expected.status && c.reason === expected.reason && current ? c.message : undefined;
    },
    { timeoutMs, intervalMs: 250, what },
  ).catch((err: unknown) => {
    // The conditions seen last, read when giving up (not when starting to wait).
    throw new Error(`${err instanceof Error ? err.message : String(err)}; last seen: ${describeConditions(last)}`, { cause: err });
  });
}

/** Deletes an object as admin, ignoring one already gone. */
export async function deleteIfExists(client: Client, type: ResourceType, request: { namespace: string | undefined; name: string }): Promise<void> {
  try {
    await client.delete(type, request);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/**
 * Clean-up after a suite whose operator has stopped: removes the finalizers of every KafkaTopic and KafkaUser left in
 * `namespaces` (nobody would release them), then deletes the namespaces and the named KafkaConnections. Idempotent.
 */
export async function cleanUp(client: Client, namespaces: readonly string[], connections: readonly string[]): Promise<void> {
  for (const namespace of namespaces) {
    for (const type of [kafkaTopics.type, kafkaUsers.type] as ResourceType[]) {
      for (const object of await client.listAll(type, { namespace }).catch(() => [])) {
        await client
          .patch(type, { namespace, name: object.metadata?.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } })
          .catch(() => undefined);
      }
    }
    await deleteIfExists(client, coreTypes.namespace, { namespace: undefined, name: namespace });
  }
  for (const name of connections) await deleteIfExists(client, kafkaConnections.type, { namespace: undefined, name });
}
