// The admission kinds as the client addresses them.
import { resourceType } from '../client/resource-type.ts';
import type { ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding } from './admission-policy.ts';

/** `ValidatingAdmissionPolicy` and `ValidatingAdmissionPolicyBinding` (admissionregistration.k8s.io/v1, cluster-scoped). */
export const admissionTypes = {
  policy: resourceType<ValidatingAdmissionPolicy>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', namespaced: false }),
  binding: resourceType<ValidatingAdmissionPolicyBinding>({
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    plural: 'validatingadmissionpolicybindings',
    namespaced: false,
  }),
} as const;
