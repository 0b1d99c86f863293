import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { staleCrdFiles } from '@domain-operators/reconcile';
import { customResources } from './index.ts';

it('the committed CRDs are up to date (run `nx run redis-operator:crds`)', async () => {
  const dir = fileURLToPath(new URL('../../../../../charts/redis-operator/crds', import.meta.url));
  expect(await staleCrdFiles(customResources, { dir, source: 'src/api/v1alpha1/index.ts' })).toEqual([]);
});
