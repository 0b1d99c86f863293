// The shared tables of tenancy cases through the operator's own checks: the reconcilers' externalName, which runs
// the namespace selection, the name prefix, the ACL and the quota checks exactly as a reconcile does, over in-memory
// caches. The same tables go through the chart's admission policy in a real apiserver (tenancy-policies.int.spec.ts).
import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
import { caseDisagreements, fillCase, isDependencyError, isTerminalError, StoreWriter } from '@domain-operators/reconcile';
import type { AdmissionCaseTable, CaseNames, CaseVerdict, Client, SecretSource } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { kafkaConnections, kafkaTopics, kafkaUsers } from '../api/v1alpha1/index.ts';
import type { KafkaConnection } from '../api/v1alpha1/index.ts';
import { kafkaConnectionKit } from '../controllers/kafka-connections.ts';
import type { KafkaClientPool } from '../controllers/kafka-client-pool.ts';
import { KafkaTopicKind } from '../controllers/kafkatopic.reconciler.ts';
import { KafkaUserKind } from '../controllers/kafkauser.reconciler.ts';
import { KAFKA_TENANCY_TABLES } from './tenancy-cases.ts';
import type { KafkaTenancyCase } from './tenancy-cases.ts';

/** The names the operator-side run gives the placeholders. */
const NAMES: CaseNames = { namespace: 'team-a', connection: 'main' };

const cache = <T extends KubernetesObject>(store: StoreWriter<T>) => ({ store: store.reader(), onChange: () => () => undefined });

/**
 * The operator's decision on `c` of `table`, through the reconcilers' externalName over caches holding the table's
 * namespace and connection: admitted (`undefined`, also for a missing connection, which the operator reports instead
 * of refusing) or the `TenancyViolation` message. Any other error is thrown.
 */
function operatorVerdict(table: AdmissionCaseTable<KafkaTenancyCase>, c: KafkaTenancyCase): CaseVerdict {
  const connections = new StoreWriter<KafkaConnection>();
  const namespaces = new StoreWriter<V1Namespace>();
  namespaces.replace([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMES.namespace, labels: { ...table.namespaceLabels } } }]);
  const tenancy = table.tenancy === undefined ? undefined : (fillCase(table.tenancy, NAMES) as KafkaConnection['spec']['tenancy']);
  connections.replace([
    { apiVersion: kafkaConnections.apiVersion, kind: 'KafkaConnection', metadata: { name: NAMES.connection ?? '' }, spec: { bootstrapServers: ['kafka:9092'], ...(tenancy !== undefined && { tenancy }) } },
  ]);
  const unused = {} as unknown;
  const kit = kafkaConnectionKit({ connections: cache(connections), namespaces: cache(namespaces), secrets: unused as SecretSource, pool: unused as KafkaClientPool });
  const shared = { client: unused as Client, kit };
  const metadata = { name: c.name, namespace: NAMES.namespace, uid: 'u1', generation: 1 };
  const filled = fillCase(c, NAMES);
  const connectionRef = { name: NAMES.connection ?? '' };
  try {
    if (filled.kind === 'KafkaTopic') {
      new KafkaTopicKind({ kit }).externalName({ apiVersion: kafkaTopics.apiVersion, kind: 'KafkaTopic', metadata, spec: { connectionRef, ...filled.spec } });
    } else {
      const secrets = unused as SecretSource;
      new KafkaUserKind({ ...shared, secrets }).externalName({ apiVersion: kafkaUsers.apiVersion, kind: 'KafkaUser', metadata, spec: { connectionRef, ...filled.spec } });
    }
    return undefined;
  } catch (err) {
    // A missing connection is the operator's to report (retried), never a refusal at admission.
    if (isDependencyError(err, 'ConnectionNotFound')) return undefined;
    if (isTerminalError(err) && err.reason === 'TenancyViolation') return err.message;
    throw err;
  }
}

describe('the shared Kafka tenancy cases, through the operator\u2019s checks', () => {
  const cases = KAFKA_TENANCY_TABLES.flatMap((table) => table.cases);

  it('have unique titles and at least one admitted and one refused case of each kind', () => {
    expect(new Set(cases.map((c) => c.title)).size).toBe(cases.length);
    for (const kind of ['KafkaTopic', 'KafkaUser']) {
      const mine = cases.filter((c) => c.kind === kind);
      expect(mine.some((c) => c.refused === undefined)).toBe(true);
      expect(mine.some((c) => c.refused !== undefined)).toBe(true);
    }
  });

  it.each(KAFKA_TENANCY_TABLES.flatMap((table) => table.cases.map((c) => [c.title, table, c] as const)))('%s', (_title, table, c) => {
    expect(caseDisagreements('operator', [c], [operatorVerdict(table, c)], NAMES)).toEqual([]);
  });
});
