// Helpers for this operator's integration tests: the operator's controllers run in-process on a Manager against the
// real testenv apiserver and Kafka; Kafka is checked through @platformatic/kafka's own Admin and Producer classes,
// independent of the operator's adapter. Not exported from the package.
import { randomBytes } from 'node:crypto';
import type { KubernetesObject, V1CustomResourceDefinition, V1Secret } from '@kubernetes/client-node';
import { KubeConfig } from '@kubernetes/client-node';
import {
  Client,
  clientEventSink,
  coreTypes,
  EventRecorder,
  getCondition,
  HttpsRestTransport,
  isAlreadyExists,
  isNotFound,
  Manager,
  parseManagerOptions,
  systemClock,
} from '@domain-operators/reconcile';
import type { Condition, ResourceType } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import type { KafkaInfo } from '@domain-operators/testenv';
import { Admin, ClientQuotaEntityTypes, ClientQuotaMatchTypes, ConfigResourceTypes, ConfigSources, findErrorBy, Producer, stringSerializers } from '@platformatic/kafka';
import { customResources, kafkaConnections } from './api/v1alpha1/index.ts';
import type { KafkaConnection } from './api/v1alpha1/index.ts';
import { kafkaControllers } from './controllers/setup.ts';
import { classifyKafkaError, isKafkaAdminError } from './kafka/errors.ts';
import type { KafkaControllersOptions } from './controllers/setup.ts';

/** A random lower-case suffix for unique names. */
export function suffix(): string {
  return randomBytes(3).toString('hex');
}

/** Polls `check` until it returns a value that is not `undefined`/`false`; rejects with the last error after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms${last instanceof Error ? ` (${last.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The admin connection to the testenv apiserver. */
export async function adminCluster(): Promise<{ kubeConfig: KubeConfig; client: Client; kafka: KafkaInfo }> {
  const env = await ensureTestEnv(['apiserver', 'kafka']);
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromFile(env.apiserver.kubeconfig);
  return { kubeConfig, client: new Client({ rest: await HttpsRestTransport.create(kubeConfig) }), kafka: env.kafka };
}

/** Creates or updates this operator's CRDs and waits until they are served. */
export async function installCrds(client: Client): Promise<void> {
  for (const kind of customResources) {
    try {
      await client.create(coreTypes.customResourceDefinition, kind.crd as unknown as V1CustomResourceDefinition);
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      const current = await client.get(coreTypes.customResourceDefinition, { namespace: undefined, name: kind.name });
      const crd = JSON.parse(JSON.stringify(kind.crd)) as V1CustomResourceDefinition;
      crd.metadata = { name: kind.name, resourceVersion: current.metadata?.resourceVersion ?? '' };
      await client.replace(coreTypes.customResourceDefinition, crd);
    }
  }
  for (const kind of customResources) {
    await eventually(async () => Array.isArray((await client.list(kind.type, { limit: 1 })).items), 30_000, `${kind.name} served`);
  }
}

/** Creates a namespace `<prefix>-<random>` with labels. */
export async function freshNamespace(client: Client, prefix: string, labels: Record<string, string> = {}): Promise<string> {
  const name = `${prefix}-${suffix()}`;
  await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });
  return name;
}

/** Deletes an object, ignoring one already gone. */
export async function deleteIfExists(client: Client, type: ResourceType, namespace: string | undefined, name: string): Promise<void> {
  try {
    await client.delete(type, { namespace, name });
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** The condition `type` of an object read live, or undefined. */
export async function conditionOf<T extends KubernetesObject>(client: Client, type: ResourceType<T>, namespace: string | undefined, name: string, condition: string): Promise<Condition | undefined> {
  const object = (await client.get(type, { namespace, name })) as T & { status?: { conditions?: Condition[] } };
  return getCondition(object.status?.conditions, condition);
}

/** The operator's controllers running in-process, and what a test needs around them. */
export interface RunningOperator {
  stop(): Promise<void>;
}

/** Starts the three controllers on a Manager (no probes, no metrics server, no leader election). */
export function runOperator(kubeConfig: KubeConfig, client: Client, options: KafkaControllersOptions = {}): RunningOperator {
  const config = parseManagerOptions(['--metrics-bind-address=0', '--health-probe-bind-address=0', '--log-level=warn'], {}, { leaseName: 'kafka-operator-int' });
  const manager = new Manager({ kubeConfig }, config);
  const events = new EventRecorder({ sink: clientEventSink(client) }, { reportingController: 'kafka.domain-operators.io/kafka-operator-int', reportingInstance: `int-${suffix()}` });
  const kafka = kafkaControllers({ informers: manager.informers, client, events, clock: systemClock }, { controller: manager.controllerOptions(), ...options });
  for (const controller of kafka.controllers) manager.add(controller);
  const stop = new AbortController();
  const running = manager.start(stop.signal);
  return {
    async stop() {
      stop.abort();
      await running;
      await events.shutdown();
      await kafka.close();
    },
  };
}

/** A KafkaConnection to the testenv broker as its super user, with the login in a Secret of `namespace`. */
export async function createConnection(client: Client, kafka: KafkaInfo, namespace: string, name: string, tenancy?: KafkaConnection['spec']['tenancy']): Promise<void> {
  const secret: V1Secret = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: `${name}-login`, namespace },
    stringData: { username: kafka.superUser.username, password: kafka.superUser.password },
  };
  await client.create(coreTypes.secret, secret);
  await client.create(kafkaConnections.type, {
    apiVersion: kafkaConnections.apiVersion,
    kind: 'KafkaConnection',
    metadata: { name },
    spec: {
      bootstrapServers: [...kafka.bootstrapServers],
      sasl: { mechanism: kafka.superUser.mechanism, secretRef: { namespace, name: `${name}-login`, usernameKey: 'username', passwordKey: 'password' } },
      ...(tenancy !== undefined && { tenancy }),
    },
  });
}

/** Kafka as seen through @platformatic/kafka's own Admin client (not the operator's adapter). */
export class KafkaChecker {
  readonly #kafka: KafkaInfo;
  readonly #admin: Admin;

  constructor(kafka: KafkaInfo) {
    this.#kafka = kafka;
    this.#admin = new Admin({ clientId: 'kafka-operator-int-checker', bootstrapBrokers: [...kafka.bootstrapServers], sasl: { ...kafka.superUser } });
  }

  /** Partitions and replication factor of a topic, or undefined when it does not exist. */
  async topic(name: string): Promise<{ partitions: number; replicationFactor: number } | undefined> {
    const names = await this.#admin.listTopics({ includeInternals: false });
    if (!names.includes(name)) return undefined;
    const metadata = await this.#admin.metadata({ topics: [name], forceUpdate: true });
    const topic = metadata.topics.get(name);
    if (topic === undefined) return undefined;
    return { partitions: topic.partitionsCount, replicationFactor: Math.min(...topic.partitions.map((p) => p.replicas.length)) };
  }

  /** The topic-level config overrides of a topic. */
  async topicOverrides(name: string): Promise<Record<string, string>> {
    const [description] = await this.#admin.describeConfigs({ resources: [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: name }] });
    const out: Record<string, string> = {};
    for (const c of description?.configs ?? []) if (c.configSource === ConfigSources.DYNAMIC_TOPIC_CONFIG && typeof c.value === "string") out[c.name] = c.value;
    return out;
  }

  /** Quotas of the entity user=<username>. */
  async userQuotas(username: string): Promise<Record<string, number>> {
    const entries = await this.#admin.describeClientQuotas({ components: [{ entityType: ClientQuotaEntityTypes.USER, matchType: ClientQuotaMatchTypes.EXACT, match: username }] });
    const out: Record<string, number> = {};
    for (const entry of entries) for (const v of entry.values) out[v.key] = v.value;
    return out;
  }

  /** Creates a topic directly (as someone other than the operator). */
  async createTopic(name: string, partitions: number, configs: Record<string, string> = {}): Promise<void> {
    await this.#admin.createTopics({ topics: [name], partitions, replicas: 1, configs: Object.entries(configs).map(([n, value]) => ({ name: n, value: value })) });
  }

  /** Deletes topics directly, ignoring missing ones. */
  async deleteTopics(names: readonly string[]): Promise<void> {
    const existing = new Set(await this.#admin.listTopics());
    const present = names.filter((n) => existing.has(n));
    if (present.length > 0) await this.#admin.deleteTopics({ topics: present });
  }

  /** Produces one record with a SCRAM login: `allowed`, `denied` (authorization), `login-failed`, or `other: …`. */
  async produceAs(username: string, password: string, mechanism: 'SCRAM-SHA-512' | 'SCRAM-SHA-256', topic: string): Promise<string> {
    const producer = new Producer({
      clientId: 'kafka-operator-int-user',
      bootstrapBrokers: [...this.#kafka.bootstrapServers],
      sasl: { mechanism, username, password },
      serializers: stringSerializers,
      retries: 0,
    });
    try {
      await producer.send({ messages: [{ topic, value: 'hello' }] });
      return 'allowed';
    } catch (err) {
      if (findErrorBy(err as Error, 'apiCode', 29) !== null) return 'denied';
      if (isKafkaAdminError(classifyKafkaError(err, 'produce'), 'AuthenticationFailed')) return 'login-failed';
      return `other: ${(err as Error).message}`;
    } finally {
      await producer.close().catch(() => undefined);
    }
  }

  /** The admin client itself, for ACL set-up in tests. */
  get admin(): Admin {
    return this.#admin;
  }

  async close(): Promise<void> {
    await this.#admin.close();
  }
}
