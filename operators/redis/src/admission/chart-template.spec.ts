// The chart's admission template says exactly what policies.ts says: the committed file is what the renderer writes
// (`nx run redis-operator:admission-policies`), and helm renders it into the policies and bindings policyObjects
// builds, with the default Deny and with the Warn roll-out.
import { fileURLToPath } from 'node:url';
import { admissionTemplateSuite } from '@domain-operators/e2e-harness';
import { admissionPolicies } from './policies.ts';

admissionTemplateSuite({
  chartDir: fileURLToPath(new URL('../../../../charts/redis-operator', import.meta.url)),
  policies: admissionPolicies,
  source: 'src/admission/policies.ts',
  regenerate: 'npx nx run redis-operator:admission-policies',
});
