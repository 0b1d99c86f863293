import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { defineConnectionPolicy, defineObjectPolicy, policyObjects } from './admission-policy.ts';
import type { ConnectionPolicyOptions } from './admission-policy.ts';
import { renderAdmissionTemplate } from './admission-template.ts';
import { caseDisagreements, fillCase } from './admission-case.ts';

const options: ConnectionPolicyOptions = {
  name: 'gizmo-tenancy',
  group: 'example.io',
  resources: ['gizmos'],
  connection: { apiVersion: 'example.io/v1', kind: 'GizmoConnection' },
  validations: [{ expression: 'object.spec.size < 10', messageExpression: '"too big"' }],
};
const policy = defineConnectionPolicy(options);

describe('connection policies', () => {
  it('guard every validation by the object naming this connection, and select every connection as a parameter', () => {
    const [vap, binding] = policyObjects(policy, { namePrefix: 'r', validationActions: ['Warn', 'Audit'] });
    expect(vap.metadata.name).toBe('r-gizmo-tenancy');
    expect(vap.spec['failurePolicy']).toBe('Fail');
    expect(vap.spec['validations']).toEqual([{ expression: '!variables.applies || (object.spec.size < 10)', messageExpression: '"too big"', reason: 'Invalid' }]);
    expect(binding.spec).toEqual({ policyName: 'r-gizmo-tenancy', validationActions: ['Warn', 'Audit'], paramRef: { selector: {}, parameterNotFoundAction: 'Allow' } });
  });

  it('add the policy\u2019s own guard to the connection\u2019s, and confine the binding to labelled namespaces when asked', () => {
    const guarded = defineConnectionPolicy({ ...options, variables: [{ name: 'big', expression: 'object.spec.size > 5' }], when: 'variables.big' });
    const [vap, binding] = policyObjects(guarded, { namePrefix: '', validationActions: ['Deny'], namespaceLabels: { run: 'x' } });
    expect(vap.spec['variables']).toEqual([
      { name: 'applies', expression: 'has(object.spec.connectionRef) && params.metadata.name == object.spec.connectionRef.name' },
      { name: 'big', expression: 'object.spec.size > 5' },
    ]);
    expect(vap.spec['validations']).toEqual([{ expression: '!(variables.applies && (variables.big)) || (object.spec.size < 10)', messageExpression: '"too big"', reason: 'Invalid' }]);
    expect(binding.spec['matchResources']).toEqual({ namespaceSelector: { matchLabels: { run: 'x' } } });
  });

  it('without a connection: no parameter, no guard, no paramRef', () => {
    const own = defineObjectPolicy({ name: 'gizmo-rules', group: 'example.io', resources: ['gizmos'], validations: [{ expression: 'object.spec.size < 10', messageExpression: '"too big"' }] });
    const [vap, binding] = policyObjects(own, { namePrefix: 'r', validationActions: ['Deny'] });
    expect(vap.spec['paramKind']).toBeUndefined();
    expect(vap.spec['variables']).toBeUndefined();
    expect(vap.spec['validations']).toEqual([{ expression: 'object.spec.size < 10', messageExpression: '"too big"', reason: 'Invalid' }]);
    expect(binding.spec).toEqual({ policyName: 'r-gizmo-rules', validationActions: ['Deny'] });
  });

  it('refuse CEL that Helm would read as a template, and names that are not DNS labels', () => {
    expect(() => defineConnectionPolicy({ ...options, validations: [{ expression: 'true', messageExpression: '"{{ x }}"' }] })).toThrow(/Helm/);
    expect(() => defineConnectionPolicy({ ...options, name: 'Gizmo' })).toThrow(/lowercase/);
  });
});

describe('the chart template', () => {
  const text = renderAdmissionTemplate([policy], 'src/admission/policies.ts');

  it('is gated by admissionPolicies.enabled and takes the actions and the names from the release', () => {
    expect(text.split('\n')[1]).toBe('{{- if .Values.admissionPolicies.enabled }}');
    expect(text).toContain('name: {{ include "operator.fullname" . }}-gizmo-tenancy');
    expect(text).toContain('validationActions: {{ toJson .Values.admissionPolicies.validationActions }}');
    expect(text).toContain('{{- include "operator.labels" . | nindent 4 }}');
  });

  it('is YAML once the Helm actions are replaced', () => {
    const filled = text
      .split('\n')
      .filter((line) => !line.startsWith('{{-') && !line.includes('nindent'))
      .join('\n')
      .replaceAll('{{ include "operator.fullname" . }}', 'r')
      .replace('{{ toJson .Values.admissionPolicies.validationActions }}', '["Deny"]');
    const docs = parseAllDocuments(filled).map((d) => d.toJS() as { kind: string });
    expect(docs.map((d) => d.kind)).toEqual(['ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding']);
    expect(parse('a: ["Deny"]')).toEqual({ a: ['Deny'] });
  });
});

describe('case tables', () => {
  it('replace the namespace placeholder and report each disagreement', () => {
    expect(fillCase({ a: ['{ns}-x', '{connection}'], '{ns}-key': 1 }, { namespace: 'team-a', connection: 'main' })).toEqual({ a: ['team-a-x', 'main'], 'team-a-key': 1 });
    expect(fillCase('{ns} on {connection}', { namespace: 'team-a' })).toBe('team-a on {connection}');
    const cases = [
      { title: 'in', kind: 'Gizmo', name: 'a', spec: {} },
      { title: 'out', kind: 'Gizmo', name: 'b', spec: {}, refused: 'outside {ns}' },
    ];
    expect(caseDisagreements('cel', cases, [undefined, 'b is outside team-a'], { namespace: 'team-a' })).toEqual([]);
    expect(caseDisagreements('cel', cases, [undefined, 'b is outside team-b'], { namespace: 'team-a' })).toEqual(['cel: "out" refused with "b is outside team-b", which lacks "outside team-a"']);
    expect(caseDisagreements('cel', cases, ['no', undefined], { namespace: 'team-a' })).toEqual([
      'cel: "in" should be admitted, was refused: no',
      'cel: "out" should be refused (outside team-a), was admitted',
    ]);
  });
});
