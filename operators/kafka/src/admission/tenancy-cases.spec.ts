// The shared table of tenancy cases through the operator's own checks: the reconcilers' externalName, which runs
// the namespace selection, the name prefix, the ACL and the quota checks exactly as a reconcile does, over in-memory
// caches. The same table goes through the chart's admission policies in a real apiserver (tenancy-policies.int.spec.ts).
import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
import { CONNECTION_INDEX, byConnectionRef, isDependencyError, isTerminalError, StoreWriter } from '@domain-operators/reconcile';
import type { Client, Recorder, SecretSource } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics, kafkaUsers } from '../api/v1alpha1/index.ts';
import type { KafkaConnection, KafkaTopic, KafkaUser } from '../api/v1alpha1/index.ts';
import { ConnectionResolver } from '../controllers/connection-resolver.ts';
import type { KafkaClientPool } from '../controllers/kafka-client-pool.ts';
import { KafkaTopicReconciler } from '../controllers/kafkatopic.reconciler.ts';
import { KafkaUserReconciler } from '../controllers/kafkauser.reconciler.ts';
import { CASE_CONNECTION, CASE_NAMESPACE, KAFKA_TENANCY_CASES } from './tenancy-cases.ts';
import type { KafkaTenancyCase } from './tenancy-cases.ts';

/** What the operator decides about a case: admitted, refused with a TenancyViolation message, or another error. */
type Verdict = { readonly admitted: true } | { readonly admitted: false; readonly message: string };

const cache = <T extends KubernetesObject>(store: StoreWriter<T>) => ({ store: store.reader(), onChange: () => () => undefined });

/** The operator's decision on `c`, through the reconcilers' externalName over caches holding the case's objects. */
function operatorVerdict(c: KafkaTenancyCase): Verdict {
  const connections = new StoreWriter<KafkaConnection>();
  const namespaces = new StoreWriter<V1Namespace>();
  const topics = new StoreWriter<KafkaTopic>({ indexers: { [CONNECTION_INDEX]: byConnectionRef } });
  const users = new StoreWriter<KafkaUser>({ indexers: { [CONNECTION_INDEX]: byConnectionRef } });
  namespaces.replace([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: CASE_NAMESPACE, labels: { ...c.namespaceLabels } } }]);
  const connection: KafkaConnection = {
    apiVersion: kafkaConnections.apiVersion,
    kind: 'KafkaConnection',
    metadata: { name: CASE_CONNECTION },
    spec: { bootstrapServers: ['kafka:9092'], ...(c.tenancy !== null && c.tenancy !== undefined && { tenancy: c.tenancy }) },
  };
  connections.replace(c.tenancy === null ? [] : [connection]);
  const unused = {} as unknown;
  const resolver = new ConnectionResolver({ connections: cache(connections), namespaces: cache(namespaces), secrets: unused as SecretSource, pool: unused as KafkaClientPool });
  const events: Recorder = { record: () => undefined };
  const shared = { client: unused as Client, resolver, events };
  const metadata = { name: c.object.name, namespace: CASE_NAMESPACE, uid: 'u1', generation: 1 };
  const connectionRef = { name: CASE_CONNECTION };
  try {
    if (c.object.kind === 'KafkaTopic') {
      const reconciler = new KafkaTopicReconciler({ ...shared, caches: { topics: cache(topics), connections: cache(connections), namespaces: cache(namespaces) } });
      reconciler.externalName({ apiVersion: kafkaTopics.apiVersion, kind: 'KafkaTopic', metadata, spec: { ...c.object.spec, connectionRef } });
    } else {
      const secrets = unused as SecretSource;
      const reconciler = new KafkaUserReconciler({ ...shared, secrets, caches: { users: cache(users), connections: cache(connections), namespaces: cache(namespaces) } });
      reconciler.externalName({ apiVersion: kafkaUsers.apiVersion, kind: 'KafkaUser', metadata, spec: { ...c.object.spec, connectionRef } });
    }
    return { admitted: true };
  } catch (err) {
    // A missing connection is the operator's to report (retried), never a refusal at admission.
    if (isDependencyError(err, 'ConnectionNotFound')) return { admitted: true };
    if (isTerminalError(err) && err.reason === 'TenancyViolation') return { admitted: false, message: err.message };
    throw err;
  }
}

describe('the shared Kafka tenancy cases, through the operator\u2019s checks', () => {
  it('has unique titles and at least one admitted and one refused case of each kind', () => {
    expect(new Set(KAFKA_TENANCY_CASES.map((c) => c.title)).size).toBe(KAFKA_TENANCY_CASES.length);
    for (const kind of ['KafkaTopic', 'KafkaUser']) {
      const mine = KAFKA_TENANCY_CASES.filter((c) => c.object.kind === kind);
      expect(mine.some((c) => c.refused === undefined)).toBe(true);
      expect(mine.some((c) => c.refused !== undefined)).toBe(true);
    }
  });

  it.each(KAFKA_TENANCY_CASES.map((c) => [c.title, c] as const))('%s', (_title, c) => {
    const verdict = operatorVerdict(c);
    if (c.refused === undefined) expect(verdict).toEqual({ admitted: true });
    else expect(verdict).toEqual({ admitted: false, message: expect.stringContaining(c.refused) as unknown });
  });
});
