// Once per e2e run: the testenv components this suite needs are up, and the redis operator bundle is built.
import { prepareE2eRun } from '@domain-operators/e2e-harness';

/** Vitest global setup. */
export default async function setup(): Promise<void> {
  await prepareE2eRun({ system: 'redis' });
}
