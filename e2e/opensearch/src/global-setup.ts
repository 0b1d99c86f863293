// Once per e2e run: the testenv components this suite needs (the apiserver and OpenSearch) are up, and the opensearch operator bundle is built.
import { prepareE2eRun } from '@domain-operators/e2e-harness';

/** Vitest global setup. */
export default async function setup(): Promise<void> {
  await prepareE2eRun({ system: 'opensearch', components: ['opensearch'] });
}
