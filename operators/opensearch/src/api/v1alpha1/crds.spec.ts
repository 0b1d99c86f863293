import { fileURLToPath } from 'node:url';
import { staleCrdFiles } from '@domain-operators/reconcile';
import { expect, it } from 'vitest';
import { customResources } from './index.ts';

it('the committed CRDs in charts/opensearch-operator/crds are up to date (run `nx run opensearch-operator:crds`)', async () => {
  const dir = fileURLToPath(new URL('../../../../../charts/opensearch-operator/crds', import.meta.url));
  expect(await staleCrdFiles(customResources, { dir, source: 'src/api/v1alpha1/index.ts' })).toEqual([]);
});
