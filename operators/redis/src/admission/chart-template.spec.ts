// The chart's admission policy template says exactly what policies.ts says: rendered by helm with the default values
// and with the Warn roll-out, it holds the policy and binding redisUserPolicies() builds (the template is written
// from that module; this test fails when one changes without the other).
import { fileURLToPath } from 'node:url';
import { helmTemplate, parseManifests } from '@domain-operators/e2e-harness';
import { describe, expect, it } from 'vitest';
import { redisUserPolicies } from './policies.ts';
import type { ValidationAction } from './policies.ts';

const chartDir = fileURLToPath(new URL('../../../../charts/redis-operator', import.meta.url));

async function rendered(values: Readonly<Record<string, unknown>> = {}) {
  const objects = parseManifests(await helmTemplate({ chartDir, releaseName: 'r', namespace: 'ops', setJson: values }));
  return objects.filter((o) => o.apiVersion === 'admissionregistration.k8s.io/v1');
}

describe('charts/redis-operator/templates/admission-policies.yaml', () => {
  it.each([[['Deny']], [['Warn', 'Audit']]] as [ValidationAction[]][])('renders the policy and binding of policies.ts, with validationActions %j', async (actions) => {
    const objects = await rendered({ admissionPolicies: { enabled: true, validationActions: actions } });
    const [policy, binding] = redisUserPolicies({ name: 'r-redis-operator-users', validationActions: actions });
    expect(objects.map((o) => o.kind)).toEqual(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);
    expect(objects[0]).toMatchObject({ metadata: { name: policy.metadata?.name }, spec: policy.spec });
    expect(objects[1]).toMatchObject({ metadata: { name: binding.metadata?.name }, spec: binding.spec });
    expect((objects[0] as { spec: object }).spec).toEqual(policy.spec);
  });

  it('renders nothing when admissionPolicies.enabled is false', async () => {
    expect(await rendered({ admissionPolicies: { enabled: false } })).toEqual([]);
  });
});
