// The chart's admission policy template says exactly what policies.ts says: the committed file is what the renderer
// writes (`nx run opensearch-operator:admission-policies`), and helm renders it into the policies and bindings
// policyObjects builds, with the default Deny and with the Warn roll-out.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { helmTemplate, parseManifests } from '@domain-operators/e2e-harness';
import { policyObjects, renderAdmissionTemplate } from '@domain-operators/reconcile';
import type { ValidationActions } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import { admissionPolicies } from './policies.ts';

const chartDir = fileURLToPath(new URL('../../../../charts/opensearch-operator', import.meta.url));

async function rendered(values: Readonly<Record<string, unknown>> = {}) {
  const objects = parseManifests(await helmTemplate({ chartDir, releaseName: 'r', namespace: 'ops', setJson: values }));
  return objects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
}

describe('charts/opensearch-operator/templates/admission-policies.yaml', () => {
  it('is what policies.ts renders', () => {
    expect(readFileSync(`${chartDir}/templates/admission-policies.yaml`, 'utf8')).toBe(renderAdmissionTemplate(admissionPolicies, 'src/admission/policies.ts'));
  });

  it.each([[['Deny']], [['Warn', 'Audit']]] as [ValidationActions][])('renders the policies and bindings of policies.ts, with validationActions %j', async (actions) => {
    // helm orders by kind, so both sides are compared in kind, name order.
    const order = (a: { kind?: string; metadata?: { name?: string } }, b: typeof a): number => `${a.kind ?? ''}/${a.metadata?.name ?? ''}`.localeCompare(`${b.kind ?? ''}/${b.metadata?.name ?? ''}`);
    const objects = (await rendered({ admissionPolicies: { enabled: true, validationActions: actions } })).sort(order);
    const expected = admissionPolicies.flatMap((p) => policyObjects(p, { namePrefix: 'r-opensearch-operator', validationActions: actions })).sort(order);
    expect(objects.map((o) => [o.kind, o.metadata?.name])).toEqual(expected.map((o) => [o.kind, o.metadata.name]));
    objects.forEach((o, i) => {
      expect((o as unknown as { spec: object }).spec).toEqual(expected[i]?.spec);
    });
  });

  it('renders nothing when admissionPolicies.enabled is false', async () => {
    expect(await rendered({ admissionPolicies: { enabled: false, validationActions: ['Deny'] } })).toEqual([]);
  });
});
