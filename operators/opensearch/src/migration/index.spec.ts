import { describe, expect, it } from 'vitest';
import { convertOpster, expandLists, OPSTER_KINDS } from './index.ts';
import { opster, OPTIONS } from './migration.test-support.ts';

describe('convertOpster', () => {
  it('reads the nine kinds (and the ISM kind in both spellings)', () => {
    expect(OPSTER_KINDS).toHaveLength(10);
  });

  it('outputs nothing for an ISM policy and says it stays in OpenSearch untouched', () => {
    const result = convertOpster([opster('OpenSearchISMPolicy', 'hot-warm', { policyId: 'hot-warm-policy', defaultState: 'hot', states: [] })], OPTIONS);
    expect(result.objects).toEqual([]);
    expect(result.errors).toEqual([{ source: 'OpenSearchISMPolicy team-a/hot-warm', message: expect.stringContaining('hot-warm-policy stays in OpenSearch untouched') as string }]);
  });

  it('refuses other groups and kinds, and objects without a name, converting the rest', () => {
    const result = convertOpster(
      [
        { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } },
        opster('OpenSearchCluster', 'my-cluster', {}),
        { apiVersion: 'opensearch.opster.io/v1', kind: 'OpensearchTenant', metadata: {} },
        'text',
        opster('OpensearchTenant', 't', {}),
      ],
      OPTIONS,
    );
    expect(result.errors.map((error) => error.source)).toEqual(['Secret default/s', 'OpenSearchCluster team-a/my-cluster', 'OpensearchTenant default/(no name)', '(not an object)']);
    expect(result.objects.map((object) => object.metadata.name)).toEqual(['t']);
  });

  it('reads the renamed group opensearch.org/v1 and expands Lists, defaulting the namespace', () => {
    const tenant = { apiVersion: 'opensearch.org/v1', kind: 'OpensearchTenant', metadata: { name: 't' }, spec: {} };
    expect(expandLists([{ apiVersion: 'v1', kind: 'List', items: [tenant, tenant] }])).toEqual([tenant, tenant]);
    const result = convertOpster([{ apiVersion: 'v1', kind: 'List', items: [tenant] }], OPTIONS);
    expect(result.objects[0]?.metadata.namespace).toBe('default');
  });
});
