// 500 KafkaTopics applied at once; the operator is killed with SIGKILL midway (after about 150 are Ready) and
// restarted. Everything converges to Ready, and Kafka shows no duplicate work: each topic exists once, with the id
// the first create gave it (never deleted and created again), the right partitions and configs, and every resource
// says it created its topic (none adopted it, none refused it).
import { adminClient, eventually, freshNamespace, randomSuffix, startOperator } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { kafkaTopics } from './api.ts';
import type { KafkaTopic } from './api.ts';
import { eventType, getCondition } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import type { KafkaInfo } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, createConnection, kafkaUnderTest, topicResource } from './fixtures.ts';
import { KafkaChecker } from './kafka-checker.ts';
import { metricSum } from './metrics-text.ts';

const TOPICS = 500;
const KILL_AFTER_READY = 150;
const CREATES_IN_FLIGHT = 50;

let client: Client;
let kafka: KafkaInfo;
let checker: KafkaChecker;
let operator: OperatorProcess | undefined;
let namespace: string;
const id = randomSuffix();
const connection = `e2e-crash-${id}`;
const names = Array.from({ length: TOPICS }, (_, i) => `crash-${id}-${String(i).padStart(3, '0')}`);
/** Partitions 1–4 and a retention per topic, so that a topic created with another one's spec would show. */
const partitionsOf = (i: number): number => (i % 4) + 1;
const retentionOf = (i: number): string => String(3_600_000 + i);

beforeAll(async () => {
  client = await adminClient();
  kafka = await kafkaUnderTest();
  checker = new KafkaChecker(kafka);
  namespace = await freshNamespace({}, 'e2e-crash');
  await createConnection(client, kafka, { name: connection, secretNamespace: namespace });
  // Only this namespace: an operator watching every namespace also meets what earlier suites of the run are still
  // deleting (their KafkaConnection already gone), and its failed reconciles of those would be counted below.
  operator = await startOperator({ system: 'kafka', values: { watchNamespaces: [namespace] } });
});

afterAll(async () => {
  await operator?.stop();
  await cleanUp(client, [namespace], [connection]);
  await checker.deleteTopics(names);
  await checker.close();
});

function running(): OperatorProcess {
  if (operator === undefined) throw new Error('the operator did not start');
  return operator;
}

async function listTopics(): Promise<KafkaTopic[]> {
  return client.listAll(kafkaTopics.type, { namespace });
}

const isReady = (t: KafkaTopic): boolean => {
  const ready = getCondition(t.status?.conditions, 'Ready');
  return ready?.status === 'True' && ready.observedGeneration === t.metadata.generation;
};

/**
 * Converged: Ready and Synced at the current generation (a failed retry keeps Ready=True), the claim settled, and
 * the topic facts written (in the same status patch as the conditions).
 */
const isConverged = (t: KafkaTopic): boolean => {
  const synced = getCondition(t.status?.conditions, 'Synced');
  const settled = t.status?.ownership === 'Created' && t.status.topicId !== undefined;
  return isReady(t) && synced?.status === 'True' && synced.observedGeneration === t.metadata.generation && settled;
};

/** The `error` of every failed reconcile in a JSON log, with the topic's name replaced by `<topic>`. */
function reconcileErrors(log: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const line of log.split('\n')) {
    if (!line.includes('"controller":"kafkatopic"') || !line.includes('reconcile failed')) continue;
    const entry = JSON.parse(line) as { namespace?: string; name?: string; error?: string };
    if (entry.namespace !== undefined && entry.namespace !== namespace) continue;
    const error = (entry.error ?? '?').replaceAll(entry.name ?? '\u0000', '<topic>');
    counts.set(error, (counts.get(error) ?? 0) + 1);
  }
  return counts;
}

async function applyAll(): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < TOPICS) {
      const i = next++;
      await client.create(
        kafkaTopics.type,
        topicResource(namespace, names[i] ?? '', connection, { partitions: partitionsOf(i), config: { 'retention.ms': retentionOf(i) }, deletionPolicy: 'Retain' }),
      );
    }
  };
  await Promise.all(Array.from({ length: CREATES_IN_FLIGHT }, worker));
}

describe('the operator killed midway through 500 topics', () => {
  it('converges after a restart, with no duplicate work visible in Kafka', async () => {
    const started = Date.now();
    const applying = applyAll();
    let readyAtKill: number;
    for (;;) {
      readyAtKill = (await listTopics()).filter(isReady).length;
      if (readyAtKill >= KILL_AFTER_READY) break;
      if (Date.now() - started > 300_000) throw new Error(`only ${readyAtKill} KafkaTopics Ready after 300 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const adminRequestsBeforeKill = await running().metricsText().catch(() => '');
    const exit = await running().kill('SIGKILL');
    const killedAt = Date.now();
    const inKafkaAtKill = [...(await checker.topicNames())].filter((n) => n.startsWith(`crash-${id}-`)).length;
    await applying;
    expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
    const statusAtKill = await listTopics();
    const pendingAtKill = statusAtKill.filter((t) => t.status?.ownership === 'CreatePending').length;

    await running().restart();
    for (;;) {
      const topics = await listTopics();
      const converged = topics.filter(isConverged).length;
      if (converged === TOPICS) break;
      if (Date.now() - killedAt > 300_000) {
        const stuck = topics.filter((t) => !isConverged(t)).slice(0, 5).map((t) => `${t.metadata.name ?? '?'}: ${JSON.stringify(t.status)}`);
        throw new Error(`only ${converged} of ${TOPICS} KafkaTopics converged 300 s after the restart; for example ${stuck.join('; ')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const convergedMs = Date.now() - killedAt;

    // Kafka: each topic once, with the right shape and its only override, and the id the status recorded.
    const topics = await listTopics();
    // A broker's Metadata answers trail the controller after a burst of creations (seconds on a loaded machine):
    // wait until it lists every topic the controller confirmed to the operator.
    const inKafka = await eventually(
      async () => {
        const described = await checker.topics(names);
        return described.size === TOPICS ? described : undefined;
      },
      { timeoutMs: 60_000, intervalMs: 500, what: `Kafka's Metadata listing all ${TOPICS} topics` },
    );
    const overrides = await checker.topicOverrides(names);
    const wrong: string[] = [];
    names.forEach((name, i) => {
      const described = inKafka.get(name);
      const status = topics.find((t) => t.metadata.name === name)?.status;
      if (described?.partitions !== partitionsOf(i) || described.replicationFactor !== 1) wrong.push(`${name}: ${JSON.stringify(described)}`);
      if (JSON.stringify(overrides.get(name)) !== JSON.stringify({ 'retention.ms': retentionOf(i) })) wrong.push(`${name}: overrides ${JSON.stringify(overrides.get(name))}`);
      if (status?.topicId !== described?.id) wrong.push(`${name}: status topicId ${status?.topicId ?? '-'} but Kafka has ${described?.id ?? '-'}`);
      if (status?.ownership !== 'Created') wrong.push(`${name}: ownership ${status?.ownership ?? '-'}`);
    });
    expect(wrong.length === 0 ? [] : [`${wrong.length} wrong`, ...wrong.slice(0, 12)]).toEqual([]);
    expect(inKafka.size).toBe(TOPICS);

    // Both processes: the only failed reconciles are CreateTopics answering TOPIC_ALREADY_EXISTS for a topic our own
    // CreatePending claim names (Metadata from the broker trailed the controller; the next observe finds the topic
    // and the claim becomes Created, as checked above) and JSON patches whose `test` guard met a cache that trailed
    // our own write (422, retried; Retain topics carry no finalizer now, but the allowance costs nothing). Nothing
    // was adopted, recreated or drift-corrected.
    const metrics = await running().metricsText();
    const log = await running().logTail(50_000);
    const errors = reconcileErrors(log);
    const events = await client.listAll(eventType, { namespace });
    const reasons = new Map<string, number>();
    for (const e of events) reasons.set(e.reason, (reasons.get(e.reason) ?? 0) + (e.series?.count ?? 1));
    const createdPerTopic = new Map<string, number>();
    for (const e of events.filter((x) => x.reason === 'Created')) createdPerTopic.set(e.regarding.name ?? '', (createdPerTopic.get(e.regarding.name ?? '') ?? 0) + 1);
    console.log(
      [
        `Ready at kill: ${readyAtKill}; topics in Kafka at kill: ${inKafkaAtKill}; CreatePending at kill: ${pendingAtKill}`,
        `admin requests before the kill: ${['Metadata', 'CreateTopics', 'DescribeConfigs'].map((api) => `${api} ${metricSum(adminRequestsBeforeKill, 'kafka_operator_admin_requests_total', { api })}`).join(', ')}`,
        `all ${TOPICS} converged ${convergedMs} ms after the kill`,
        `admin requests after the restart: ${['Metadata', 'CreateTopics', 'DescribeConfigs', 'IncrementalAlterConfigs', 'CreatePartitions'].map((api) => `${api} ${metricSum(metrics, 'kafka_operator_admin_requests_total', { api })}`).join(', ')}`,
        `failed reconciles (both processes): ${[...errors].map(([error, count]) => `${count} × ${error}`).join('; ') || 'none'}`,
        `events: ${[...reasons].map(([reason, count]) => `${reason} ${count}`).join(', ')}`,
      ].join('\n'),
    );
    const unexpected = [...errors.keys()].filter(
      (error) => !/^create topic <topic>: Topic '<topic>' already exists\. \(TOPIC_ALREADY_EXISTS\)$/.test(error) && !/^PATCH \S+\/kafkatopics\/<topic>: 422 /.test(error),
    );
    expect(unexpected).toEqual([]);
    expect(log).not.toMatch(/forbidden/i);
    expect(reasons.get('Adopted') ?? 0).toBe(0);
    expect(reasons.get('DriftCorrected') ?? 0).toBe(0);
    expect([...createdPerTopic.values()].every((count) => count === 1)).toBe(true);
  });
});
