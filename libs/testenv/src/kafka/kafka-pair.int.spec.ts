import { NODE_IP } from '../node/addresses.ts';
import { Admin } from '@platformatic/kafka';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaInfo } from '../env-file.ts';
import { downKafkaPair, rebuildKafkaPair, stopKafkaPairBroker, upKafkaPair } from '../kafka-pair.ts';

function adminOn(kafka: KafkaInfo, bootstrap: string, password = kafka.superUser.password): Admin {
  return new Admin({
    clientId: 'testenv-pair-int',
    bootstrapBrokers: [bootstrap],
    sasl: { mechanism: kafka.superUser.mechanism, username: kafka.superUser.username, password },
    retries: 0,
  });
}

describe('testenv two-node Kafka cluster (real brokers)', () => {
  let kafka: KafkaInfo;

  beforeAll(async () => {
    kafka = await upKafkaPair({ log: () => undefined });
  }, 180_000);

  afterAll(async () => {
    await downKafkaPair({ log: () => undefined });
  });

  it('lists both brokers, each reached on its own listener with the super user', async () => {
    expect(kafka.bootstrapServers).toEqual([`${NODE_IP}:19192`, `${NODE_IP}:19195`]);
    for (const bootstrap of kafka.bootstrapServers) {
      const admin = adminOn(kafka, bootstrap);
      try {
        const metadata = await admin.metadata({ topics: [], forceUpdate: true });
        expect([...metadata.brokers.keys()].sort()).toEqual([1, 2]);
      } finally {
        await admin.close();
      }
    }
  });

  it('refuses a wrong password on the broker-only node too', async () => {
    const admin = adminOn(kafka, kafka.bootstrapServers[1] ?? '', 'not-the-password');
    try {
      await expect(admin.listTopics()).rejects.toThrow();
    } finally {
      await admin.close().catch(() => undefined);
    }
  });

  it('places a topic of replication factor 2 on both brokers', async () => {
    const admin = adminOn(kafka, kafka.bootstrapServers[0] ?? '');
    const name = `pair-${Date.now()}`;
    try {
      await admin.createTopics({ topics: [name], partitions: 2, replicas: 2 });
      const topic = (await admin.metadata({ topics: [name], forceUpdate: true })).topics.get(name);
      expect(topic?.partitions.map((partition) => [...partition.replicas].sort())).toEqual([
        [1, 2],
        [1, 2],
      ]);
      await admin.deleteTopics({ topics: [name] });
    } finally {
      await admin.close();
    }
  });

  it('starts a stopped broker 2 again with its data, keeping the cluster and its login', async () => {
    const admin = adminOn(kafka, kafka.bootstrapServers[0] ?? '');
    const name = `pair-restart-${Date.now()}`;
    try {
      await admin.createTopics({ topics: [name], partitions: 1, replicas: 2 });
      await stopKafkaPairBroker({ log: () => undefined });
      const alone = await admin.metadata({ topics: [], forceUpdate: true });
      expect([...alone.brokers.keys()]).toEqual([1]);

      const again = await upKafkaPair({ log: () => undefined });
      expect(again).toEqual(kafka);
      const both = await admin.metadata({ topics: [name], forceUpdate: true });
      expect([...both.brokers.keys()].sort()).toEqual([1, 2]);
      expect([...(both.topics.get(name)?.partitions[0]?.replicas ?? [])].sort()).toEqual([1, 2]);
      await admin.deleteTopics({ topics: [name] });
    } finally {
      await admin.close();
    }
  });

  it('rebuilds the cluster in place: a new cluster id, no topics, the same addresses and super user on both nodes', async () => {
    const name = `pair-before-rebuild-${Date.now()}`;
    const before = adminOn(kafka, kafka.bootstrapServers[0] ?? '');
    let oldId: string;
    try {
      await before.createTopics({ topics: [name], partitions: 1, replicas: 2 });
      oldId = (await before.metadata({ topics: [], forceUpdate: true })).id;
    } finally {
      await before.close();
    }
    const rebuilt = await rebuildKafkaPair({ log: () => undefined });
    expect(rebuilt.info).toEqual(kafka);
    expect(rebuilt.previousClusterId).toBe(oldId);
    expect(rebuilt.clusterId).not.toBe(oldId);
    for (const bootstrap of kafka.bootstrapServers) {
      const admin = adminOn(kafka, bootstrap);
      try {
        const metadata = await admin.metadata({ topics: [], forceUpdate: true });
        expect(metadata.id).toBe(rebuilt.clusterId);
        expect([...metadata.brokers.keys()].sort()).toEqual([1, 2]);
        expect(await admin.listTopics()).not.toContain(name);
      } finally {
        await admin.close();
      }
    }
    // `up` finds the rebuilt cluster healthy and keeps it.
    expect(await upKafkaPair({ log: () => undefined })).toEqual(kafka);
  }, 180_000);
});
