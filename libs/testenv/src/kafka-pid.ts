import { kafkaNodePidFile } from './kafka/kafka.ts';
import type { TestenvPaths } from './paths.ts';
import { resolvePaths } from './paths.ts';
import { runningPid } from './process.ts';

/**
 * The pid of testenv's Kafka broker (node 1 of the `kafka` component), for tests that signal it (SIGSTOP, SIGCONT)
 * or measure it; `undefined` when it does not run.
 */
export async function kafkaBrokerPid(paths: TestenvPaths = resolvePaths()): Promise<number | undefined> {
  return runningPid(kafkaNodePidFile(paths, 'kafka', 1));
}
