import type { ComponentContext } from './component.ts';
import type { KafkaInfo } from './env-file.ts';
import type { KafkaRebuild } from './kafka/kafka.ts';
import { KAFKA_PAIR_INSTANCE, kafkaNodePidFile, kafkaPairComponent } from './kafka/kafka.ts';
import { stopDaemon } from './process.ts';
import type { TestenvPaths } from './paths.ts';
import { resolvePaths } from './paths.ts';

/** Options of {@link upKafkaPair} and {@link downKafkaPair}. */
export interface KafkaPairOptions {
  readonly paths?: TestenvPaths;
  /** Receives one progress line at a time; default: standard error. */
  readonly log?: (line: string) => void;
}

function contextOf(options: KafkaPairOptions): ComponentContext {
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  return { paths: options.paths ?? resolvePaths(), progress: (message) => { log(`kafka-pair: ${message}`); } };
}

/**
 * Starts the two-node Kafka cluster beside testenv's own (node 1 broker and controller on 19192, broker 2 on 19195),
 * or returns its info when it already runs and both nodes answer; a stopped broker 2 is started again with its data
 * (see {@link stopKafkaPairBroker}). For tests that need more than one broker; it is not part of `testenv up`. Its
 * info is not written to `env.json`. Rejects with the failing node's log tail.
 */
export async function upKafkaPair(options: KafkaPairOptions = {}): Promise<KafkaInfo> {
  return kafkaPairComponent.up(contextOf(options));
}

/** Stops both nodes of the two-node cluster and deletes their data. Never throws when nothing runs. */
export async function downKafkaPair(options: KafkaPairOptions = {}): Promise<void> {
  await kafkaPairComponent.down(contextOf(options));
}

/**
 * Stops broker 2 of the two-node cluster (SIGTERM: a controlled shutdown, so the controller fences it at once),
 * keeping its data; {@link upKafkaPair} starts it again. Never throws when it does not run.
 */
export async function stopKafkaPairBroker(options: KafkaPairOptions = {}): Promise<void> {
  await stopDaemon(kafkaNodePidFile(options.paths ?? resolvePaths(), KAFKA_PAIR_INSTANCE, 2));
}

/**
 * Wipes the two-node cluster and starts it again as a new cluster: the same addresses, super user and password, an
 * empty metadata log (no topics, SCRAM users, ACLs or quotas) and a new cluster id, as a cluster rebuilt or restored
 * behind the same address would be (the Kafka component's `rebuild`). For disaster-recovery tests; the pair serves
 * nothing else meanwhile (the main cluster is left alone). Resolves with both ids once both nodes answer; rejects
 * when the pair was not started ({@link upKafkaPair} first). Afterwards the pair is up and healthy, empty.
 */
export async function rebuildKafkaPair(options: KafkaPairOptions = {}): Promise<KafkaRebuild> {
  return kafkaPairComponent.rebuild(contextOf(options));
}
