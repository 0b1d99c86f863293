// The benchmark's second floor: the Kubernetes work alone. Whatever an operator does in Kafka, 1,000 KafkaTopics
// cannot be Ready before the apiserver has taken 1,000 creates and at least one status write per topic; this
// measures exactly that, with no operator and no Kafka, from the same client at the same concurrency as the
// operator phase. With `external`, the same round also waits for each topic's CreateTopics answer before its Ready
// write: the unavoidable work of both systems together, on the same cores, with no operator.
import type { Client } from '@domain-operators/reconcile';
import { kafkaTopics } from '../src/index.ts';

/** What one round of {@link apiserverFloorRound} does per topic. */
export interface ApiserverFloorRound {
  readonly client: Client;
  readonly namespace: string;
  readonly connection: string;
  readonly names: readonly string[];
  readonly partitions: number;
  readonly config: Readonly<Record<string, string>>;
  /** Status patches per topic after its create: 1 (only Ready), or 2 (a claim first, as the operator writes). */
  readonly statusWrites: 1 | 2;
  /** Topics worked on at once, each by its own create-then-patch sequence. */
  readonly inFlight: number;
  /**
   * The external work, started with the round's clock: called once when the round starts, it returns what to await
   * for a topic before its Ready status write (its CreateTopics answer, for the floor with Kafka). None by default.
   */
  readonly external?: () => (name: string) => Promise<unknown>;
}

/**
 * Creates every KafkaTopic of `names` in `namespace` and writes its status as the operator would (the claim, then
 * Ready with the topic facts), `inFlight` topics at a time; resolves with the seconds from the first create until
 * the last status write returned. The objects are left in place ({@link deleteFloorObjects} removes them).
 */
export async function apiserverFloorRound(round: ApiserverFloorRound): Promise<number> {
  const { client, namespace } = round;
  const started = performance.now();
  const externalDone = round.external?.();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < round.names.length) {
      const name = round.names[next++] ?? '';
      const created = await client.create(kafkaTopics.type, {
        apiVersion: kafkaTopics.apiVersion,
        kind: 'KafkaTopic',
        metadata: { name, namespace },
        spec: { connectionRef: { name: round.connection }, partitions: round.partitions, replicationFactor: 1, config: { ...round.config }, deletionPolicy: 'Retain' },
      });
      const generation = created.metadata.generation ?? 1;
      const externalName = `${round.connection}/${name}`;
      if (round.statusWrites === 2) {
        await client.patchStatus(kafkaTopics.type, { namespace, name }, { type: 'merge', body: { status: { externalName, ownership: 'CreatePending' } } });
      }
      await externalDone?.(name);
      const now = new Date().toISOString();
      const condition = (type: string, reason: string) => ({ type, status: 'True', reason, message: '', lastTransitionTime: now, observedGeneration: generation });
      await client.patchStatus(
        kafkaTopics.type,
        { namespace, name },
        {
          type: 'merge',
          body: {
            status: {
              observedGeneration: generation,
              conditions: [condition('Synced', 'ReconcileSuccess'), condition('Ready', 'Available')],
              externalName,
              ownership: 'Created',
              topicName: name,
              topicId: 'AAAAAAAAAAAAAAAAAAAAAA',
              partitions: round.partitions,
              replicationFactor: 1,
            },
          },
        },
      );
    }
  };
  await Promise.all(Array.from({ length: round.inFlight }, worker));
  return Math.round((performance.now() - started) / 10) / 100;
}

/** Deletes the KafkaTopics of `names` in `namespace` (`inFlight` at a time), missing ones ignored. Not measured. */
export async function deleteFloorObjects(client: Client, namespace: string, names: readonly string[], inFlight: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      const name = names[next++] ?? '';
      await client.delete(kafkaTopics.type, { namespace, name }).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
}
