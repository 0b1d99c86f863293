// The Kafka chart's ValidatingAdmissionPolicy (issue #20, ADR 0029): the tenancy rules of a KafkaConnection, written
// in CEL, refusing at `kubectl apply` a KafkaTopic or KafkaUser the operator would refuse with `TenancyViolation`. The
// connection is the policy's parameter (defineConnectionPolicy: only the connection the object's
// `spec.connectionRef` names decides; a missing connection admits, the operator reports it). Messages say what the
// operator's say: the shared tables (`tenancy-cases.ts`) check both. The reconcile-time checks stay the guarantee.
import { celPresent, celRenderedPrefix, celSelectorMatches, defineConnectionPolicy } from '@domain-operators/reconcile';
import type { AdmissionPolicy, AdmissionValidation } from '@domain-operators/reconcile';
import { GROUP, VERSION } from '../api/v1alpha1/index.ts';
import { CLIENT_ID_QUOTA_FIELDS, USER_QUOTA_FIELDS } from '../kafka/quota-policy.ts';

const PREFIX = 'variables.prefix';
const quoted = (expr: string): string => `'"' + ${expr} + '"'`;

/** CEL: an ACL rule that stays inside the prefix (as `checkAclRules`), for `a`. */
const ACL_INSIDE = "(a.resource.type == 'cluster' ? (a.permission == 'deny' || a.operations.all(o, o == 'IdempotentWrite')) : a.resource.name.startsWith(variables.prefix))";

function validations(): AdmissionValidation[] {
  const topicName = "(object.kind == 'KafkaTopic' && has(object.spec.topicName))";
  const username = "(object.kind == 'KafkaUser' && has(object.spec.username))";
  const explicitField = `(${topicName} ? 'topicName' : 'username')`;
  const explicit = `(${topicName} ? object.spec.topicName : object.spec.username)`;
  const hasExplicit = `(${topicName} || ${username})`;
  const ceiling = (field: string) => `params.spec.tenancy.maxUserQuotas.${field}`;
  const hasCeiling = (field: string) => celPresent(ceiling(field));
  const isUserWithQuotas = "object.kind == 'KafkaUser' && has(object.spec.quotas)";
  return [
    {
      expression: 'variables.selected',
      messageExpression: `'namespace ' + ${quoted('namespaceObject.metadata.name')} + ' is not selected by KafkaConnection ' + ${quoted('params.metadata.name')} + ' (tenancy.namespaceSelector)'`,
    },
    {
      expression: `!variables.selected || !${hasExplicit} || ${explicit}.startsWith(${PREFIX})`,
      messageExpression: `${explicitField} + ' ' + ${quoted(explicit)} + ' is outside this namespace\\'s prefix: it must start with ' + ${quoted(PREFIX)} + ' (KafkaConnection ' + ${quoted('params.metadata.name')} + ')'`,
    },
    {
      expression: `!variables.selected || !${hasExplicit} || ${PREFIX} == '' || ${explicit} != ${PREFIX}`,
      messageExpression: `${explicitField} + ' ' + ${quoted(explicit)} + ' is only the prefix ' + ${quoted(PREFIX)} + '; add a name after it'`,
    },
    {
      expression: `!variables.selected || ${PREFIX} == '' || object.kind != 'KafkaUser' || !has(object.spec.acls) || object.spec.acls.all(a, ${ACL_INSIDE})`,
      messageExpression:
        `object.spec.acls.filter(a, !${ACL_INSIDE}).map(a, a.resource.type == 'cluster' ? ` +
        `'acls: allowing ' + a.operations.filter(o, o != 'IdempotentWrite').join(', ') + ' on the cluster reaches every tenant\\'s resources; only IdempotentWrite (or a deny) is allowed on the cluster resource under the prefix ' + ${quoted(PREFIX)} : ` +
        `'acls: ' + a.resource.patternType + ' ' + a.resource.type + ' ' + ${quoted('a.resource.name')} + (a.resource.name == '*' ? ' ("*" means every resource of that type)' : '') + ' is outside this namespace\\'s prefix: it must start with ' + ${quoted(PREFIX)})[0]`,
    },
    ...USER_QUOTA_FIELDS.map((field) => ({
      expression: `!(${isUserWithQuotas}) || !has(object.spec.quotas.${field}) || !(${hasCeiling(field)}) || object.spec.quotas.${field} <= ${ceiling(field)}`,
      messageExpression: `'quotas.${field} ' + string(object.spec.quotas.${field}) + ' is above the ceiling ' + string(${ceiling(field)}) + ' that the connection\\'s tenancy.maxUserQuotas.${field} sets for this namespace (KafkaConnection ' + ${quoted('params.metadata.name')} + ')'`,
    })),
    ...CLIENT_ID_QUOTA_FIELDS.map((field) => {
      const above = `has(c.${field}) && c.${field} > ${ceiling(field)}`;
      return {
        expression: `!(${isUserWithQuotas}) || !has(object.spec.quotas.clients) || !(${hasCeiling(field)}) || !object.spec.quotas.clients.exists(c, ${above})`,
        messageExpression: `object.spec.quotas.clients.filter(c, ${above}).map(c, 'quotas.clients (clientId ' + ${quoted('c.clientId')} + ').${field} ' + string(c.${field}) + ' is above the ceiling ' + string(${ceiling(field)}) + ' that the connection\\'s tenancy.maxUserQuotas.${field} sets for this namespace')[0]`,
      };
    }),
  ];
}

/** The tenancy policy of KafkaTopics and KafkaUsers, parameterised by the KafkaConnection they name. */
const tenancy = defineConnectionPolicy({
  name: 'tenancy',
  group: GROUP,
  resources: ['kafkatopics', 'kafkausers'],
  connection: { apiVersion: `${GROUP}/${VERSION}`, kind: 'KafkaConnection' },
  variables: [
    { name: 'selected', expression: celSelectorMatches('params.spec.tenancy.namespaceSelector', 'namespaceObject.metadata.labels') },
    { name: 'prefix', expression: celRenderedPrefix('params.spec.tenancy.namePrefix') },
  ],
  validations: validations(),
});

/** The policies rendered into charts/kafka-operator/templates/admission-policies.yaml (`nx run kafka-operator:admission-policies`). */
export const admissionPolicies: readonly AdmissionPolicy[] = [tenancy];
