// The broker frozen (SIGSTOP) while the operator runs: the KafkaConnection goes to KafkaUnavailable, a topic applied
// meanwhile waits with the same reason, and after SIGCONT both are Ready again by themselves. The broker is resumed
// in `finally`, whatever happens. It freezes testenv's broker process, so it skips itself on an existing cluster
// (`$E2E_KUBECONFIG`, kind in hosted CI), where the broker is a Pod this suite does not control.
import { adminClient, eventually, freshNamespace, randomSuffix, startOperator, targetsExistingCluster, waitForCondition } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { kafkaConnections, kafkaTopics } from './api.ts';
import type { Client } from '@domain-operators/reconcile';
import { kafkaBrokerPid } from '@domain-operators/testenv';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, createConnection, kafkaUnderTest, topicResource, waitForReason } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';

let client: Client;
let kafka: KafkaInfo;
let operator: OperatorProcess | undefined;
let namespace: string;
const id = randomSuffix();
const connection = `e2e-outage-${id}`;
const topic = `frozen-${id}`;
const skip = targetsExistingCluster();

beforeAll(async () => {
  if (skip) return;
  client = await adminClient();
  kafka = await kafkaUnderTest();
  namespace = await freshNamespace({}, 'e2e-outage');
  await createConnection(client, kafka, { name: connection, secretNamespace: namespace });
  // Only this namespace, so the request counts below are this suite's alone.
  operator = await startOperator({ system: 'kafka', values: { watchNamespaces: [namespace] } });
});

afterAll(async () => {
  if (skip) return;
  await operator?.stop();
  const checker = new KafkaChecker(kafka);
  await checker.deleteTopics([topic]);
  await checker.close();
  await cleanUp(client, [namespace], [connection]);
});

async function brokerPid(): Promise<number> {
  const pid = await kafkaBrokerPid();
  if (pid === undefined) throw new Error('testenv\u2019s Kafka broker does not run');
  return pid;
}

describe.skipIf(skip)('Kafka unavailable, end to end', () => {
  it('reports KafkaUnavailable while the broker is stopped and recovers by itself after it continues', async () => {
    await waitForCondition(client, kafkaConnections.type, { namespace: undefined, name: connection }, 'Ready', 'True', 60_000);
    const pid = await brokerPid();
    const stopped = Date.now();
    process.kill(pid, 'SIGSTOP');
    let detectedMs: number;
    try {
      // Health checks run every 30 s when healthy; a request to a frozen broker times out after 15 s.
      expect(await waitForReason(client, kafkaConnections.type, { namespace: undefined, name: connection }, { type: 'Ready', status: 'False', reason: 'KafkaUnavailable' }, 90_000)).toMatch(/.+/);
      detectedMs = Date.now() - stopped;
      await client.create(kafkaTopics.type, topicResource(namespace, topic, connection, { deletionPolicy: 'Delete' }));
      await waitForReason(client, kafkaTopics.type, { namespace, name: topic }, { type: 'Synced', status: 'False', reason: 'KafkaUnavailable' }, 30_000);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const resumed = Date.now();
    await waitForCondition(client, kafkaConnections.type, { namespace: undefined, name: connection }, 'Ready', 'True', 90_000);
    const connectionBackMs = Date.now() - resumed;
    await waitForCondition(client, kafkaTopics.type, { namespace, name: topic }, 'Ready', 'True', 60_000);
    const topicBackMs = Date.now() - resumed;
    console.log(`KafkaUnavailable after ${detectedMs} ms; connection Ready ${connectionBackMs} ms and topic Ready ${topicBackMs} ms after SIGCONT`);
    const checker = new KafkaChecker(kafka);
    try {
      // The broker's Metadata answers trail its controller for a moment after it resumes.
      const shape = await eventually(() => checker.topic(topic), { timeoutMs: 30_000, intervalMs: 500, what: `Kafka listing ${topic}` });
      expect(shape).toEqual({ partitions: 1, replicationFactor: 1 });
    } finally {
      await checker.close();
    }
  });

  it('did not hot-loop while Kafka was away', async () => {
    const metrics = await (operator ?? { metricsText: () => Promise.resolve('') }).metricsText();
    // Failing connection checks run every 10 s and topic retries back off: a few dozen requests at most, not thousands.
    const metadata = /kafka_operator_admin_requests_total\{api="Metadata"\} (\d+)/.exec(metrics);
    expect(Number(metadata?.[1] ?? 0)).toBeLessThan(200);
  });
});
