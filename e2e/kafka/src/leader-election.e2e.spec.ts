// Leader election as users run it: the chart with two replicas, both Pods Running and Ready from the image, one
// of them holding the Lease and reconciling. Its container is killed; the other Pod takes the Lease over and
// reconciles, and the kubelet brings the killed one back as a standby.
import type { V1Lease, V1Pod } from '@kubernetes/client-node';
import { adminClient, eventually, freshNamespace, metricSum, randomSuffix, startOperator, targetsExistingCluster, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, resourceType } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { containerHostPid } from '@domain-operators/testenv';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kafkaTopics } from './api.ts';
import { cleanUp, createConnection, kafkaUnderTest, topicResource } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';

const LEASE = 'kafka-operator.kafka.domain-operators.io';
const leaseType = resourceType({ group: 'coordination.k8s.io', version: 'v1', kind: 'Lease', plural: 'leases', namespaced: true });

let client: Client;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
let namespace: string;
let opsNamespace: string;
const id = randomSuffix();
const connection = `e2e-le-${id}`;
const topics: string[] = [];

beforeAll(async () => {
  client = await adminClient();
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  opsNamespace = await freshNamespace({}, 'e2e-kafka-ops');
  namespace = await freshNamespace({}, 'e2e-le');
  await createConnection(client, kafka, { name: connection, secretNamespace: opsNamespace });
  operator = await startOperator({ system: 'kafka', values: { replicaCount: 2, watchNamespaces: [namespace] } });
});

afterAll(async () => {
  await operator?.stop();
  await checker.deleteTopics(topics);
  await checker.close();
  await cleanUp(client, [namespace, opsNamespace], [connection]);
});

function running(): OperatorProcess {
  if (operator === undefined) throw new Error('the operator did not start');
  return operator;
}

async function holder(): Promise<string | undefined> {
  const lease: V1Lease = await client.get(leaseType, { namespace: running().namespace, name: LEASE });
  return lease.spec?.holderIdentity ?? undefined;
}

async function operatorPods(): Promise<V1Pod[]> {
  const selector = running().installation.deployment.spec?.selector.matchLabels ?? {};
  const list = await client.list(coreTypes.pod, {
    namespace: running().namespace,
    labelSelector: Object.entries(selector).map(([k, v]) => `${k}=${v}`).join(','),
  });
  return list.items.filter((pod) => pod.metadata?.deletionTimestamp === undefined);
}

async function topicReady(name: string): Promise<void> {
  topics.push(name);
  await client.create(kafkaTopics.type, topicResource(namespace, name, connection, { partitions: 1 }));
  await waitForCondition(client, kafkaTopics.type, { namespace, name }, 'Ready', 'True', 90_000);
}

describe.skipIf(targetsExistingCluster())('two replicas with leader election', () => {
  it('runs one leader; when its container is killed the standby takes over and reconciles', async () => {
    const pods = await operatorPods();
    expect(pods.map((pod) => pod.status?.conditions?.find((c) => c.type === 'Ready')?.status)).toEqual(['True', 'True']);
    // The Lease may still name a Pod of the suite before, terminating (not listed above) until it has exited and
    // let the Lease go: wait for a holder among these two Pods.
    let first = '';
    const leader = await eventually(
      async () => {
        first = (await holder()) ?? '';
        return pods.find((pod) => first !== '' && first.startsWith(pod.metadata?.name ?? '?'));
      },
      { timeoutMs: 60_000, what: 'a Lease holder among the two Pods' },
    ).catch(() => undefined);
    expect(leader, `the Lease holder ${first} is one of the two Pods`).toBeDefined();
    await topicReady(`le-${id}-before`);

    const containerId = leader?.status?.containerStatuses?.find((c) => c.name === 'operator')?.containerID?.replace(/^[a-z]+:\/\//, '') ?? '';
    const pid = containerHostPid(containerId);
    expect(pid).toBeDefined();
    const killedAt = Date.now();
    process.kill(pid ?? 0, 'SIGKILL');
    const next = await eventually(async () => {
      const now = await holder();
      return now !== undefined && now !== first ? now : undefined;
    }, { timeoutMs: 90_000, intervalMs: 250, what: 'the standby holding the Lease' });
    console.log(`leader ${first} killed; ${next} holds the Lease ${((Date.now() - killedAt) / 1000).toFixed(1)} s later`);
    await topicReady(`le-${id}-after`);
    expect((await checker.topicNames()).has(`le-${id}-after`)).toBe(true);

    // The killed Pod's container is restarted by the kubelet and stays a standby.
    const restarted = await eventually(async () => {
      const pod = (await operatorPods()).find((p) => p.metadata?.uid === leader?.metadata?.uid);
      const status = pod?.status?.containerStatuses?.find((c) => c.name === 'operator');
      return status !== undefined && status.restartCount >= 1 && status.ready ? status : undefined;
    }, { timeoutMs: 120_000, intervalMs: 500, what: 'the killed container restarted and Ready' });
    expect(restarted.lastState?.terminated?.exitCode).toBe(137);
    expect(await holder()).toBe(next);
    expect(metricSum(await running().metricsText(), 'leader_election_master_status', {})).toBeLessThanOrEqual(1);
  }, 300_000);
});
