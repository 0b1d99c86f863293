import type { V1LabelSelector, V1Validation, V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding } from '@kubernetes/client-node';
import { GROUP, VERSION } from '../api/v1alpha1/index.ts';
import { CLIENT_ID_QUOTA_FIELDS, USER_QUOTA_FIELDS } from '../kafka/quota-policy.ts';

/**
 * The Kafka chart's ValidatingAdmissionPolicies (issue #20): the tenancy rules of a KafkaConnection, written in CEL,
 * refusing at `kubectl apply` a KafkaTopic or KafkaUser the operator would refuse with `TenancyViolation`. The
 * connection is the policy's parameter: the binding selects every KafkaConnection (`paramRef.selector: {}`), the
 * apiserver evaluates the policy once per connection, and each rule holds only for the connection the object's
 * `spec.connectionRef` names; with no KafkaConnection at all nothing is refused (`parameterNotFoundAction: Allow`),
 * since a missing connection is the operator's to report. Messages say what the operator's say (the shared table,
 * `tenancy-cases.ts`, checks both). The reconcile-time checks stay the guarantee.
 */

/** The name of the policy, and of its binding. */
export const KAFKA_TENANCY_POLICY = 'kafka-tenancy.kafka.domain-operators.io';

/** What an admission policy does with a refusal: `Deny` (default) or, for a gradual roll-out, `Warn` and `Audit`. */
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

/** Options of {@link kafkaTenancyPolicies}. */
export interface KafkaTenancyPolicyOptions {
  /** Default `['Deny']`. */
  readonly validationActions?: readonly ValidationAction[];
  /** The name of the policy and of its binding; default {@link KAFKA_TENANCY_POLICY}. */
  readonly name?: string;
  /** The namespaces the binding applies to; default every namespace. */
  readonly namespaceSelector?: V1LabelSelector;
}

/**
 * Only writes of a spec are judged: a create, or an update that changes the spec of an object not being deleted. The
 * operator's own writes (finalizers, annotations) of an object admitted before the rules tightened must go through,
 * or such an object could never be released; its spec is refused at the next change, and the operator reports it.
 */
const SPEC_WRITES = [{ name: 'spec-written', expression: "request.operation == 'CREATE' || (!has(object.metadata.deletionTimestamp) && object.spec != oldObject.spec)" }];

const PREFIX = 'variables.prefix';
const IS_MINE = 'params.metadata.name == object.spec.connectionRef.name';
const quoted = (expr: string): string => `'"' + ${expr} + '"'`;

/** CEL: the labels of the namespace, and whether the connection's selector selects it (as `matchesSelector`). */
const SELECTS = [
  '!has(params.spec.tenancy) || !has(params.spec.tenancy.namespaceSelector) || (',
  '(!has(params.spec.tenancy.namespaceSelector.matchLabels) || params.spec.tenancy.namespaceSelector.matchLabels.all(k, variables.labels.exists(l, l == k) && variables.labels[k] == params.spec.tenancy.namespaceSelector.matchLabels[k])) && ',
  '(!has(params.spec.tenancy.namespaceSelector.matchExpressions) || params.spec.tenancy.namespaceSelector.matchExpressions.all(e, ',
  "e.operator == 'Exists' ? variables.labels.exists(l, l == e.key) : ",
  "e.operator == 'DoesNotExist' ? !variables.labels.exists(l, l == e.key) : ",
  "e.operator == 'In' ? (variables.labels.exists(l, l == e.key) && has(e.values) && e.values.exists(v, v == variables.labels[e.key])) : ",
  '!(variables.labels.exists(l, l == e.key) && has(e.values) && e.values.exists(v, v == variables.labels[e.key]))',
  ')))',
].join('');

/** CEL: an ACL rule that stays inside the prefix (as `checkAclRules`), for `a`. */
const ACL_INSIDE = "(a.resource.type == 'cluster' ? (a.permission == 'deny' || a.operations.all(o, o == 'IdempotentWrite')) : a.resource.name.startsWith(variables.prefix))";

function validations(): V1Validation[] {
  const topicName = "(object.kind == 'KafkaTopic' && has(object.spec.topicName))";
  const username = "(object.kind == 'KafkaUser' && has(object.spec.username))";
  const explicitField = `(${topicName} ? 'topicName' : 'username')`;
  const explicit = `(${topicName} ? object.spec.topicName : object.spec.username)`;
  const hasExplicit = `(${topicName} || ${username})`;
  const ceiling = (field: string) => `params.spec.tenancy.maxUserQuotas.${field}`;
  const hasCeiling = (field: string) => `has(params.spec.tenancy) && has(params.spec.tenancy.maxUserQuotas) && has(${ceiling(field)})`;
  const isUserWithQuotas = "object.kind == 'KafkaUser' && has(object.spec.quotas)";
  return [
    {
      expression: `!(${IS_MINE}) || variables.selected`,
      messageExpression: `'namespace ' + ${quoted('namespaceObject.metadata.name')} + ' is not selected by KafkaConnection ' + ${quoted('params.metadata.name')} + ' (tenancy.namespaceSelector)'`,
      reason: 'Invalid',
    },
    {
      expression: `!(${IS_MINE}) || !variables.selected || !${hasExplicit} || ${explicit}.startsWith(${PREFIX})`,
      messageExpression: `${explicitField} + ' ' + ${quoted(explicit)} + ' is outside this namespace\\'s prefix: it must start with ' + ${quoted(PREFIX)} + ' (KafkaConnection ' + ${quoted('params.metadata.name')} + ')'`,
      reason: 'Invalid',
    },
    {
      expression: `!(${IS_MINE}) || !variables.selected || !${hasExplicit} || ${PREFIX} == '' || ${explicit} != ${PREFIX}`,
      messageExpression: `${explicitField} + ' ' + ${quoted(explicit)} + ' is only the prefix ' + ${quoted(PREFIX)} + '; add a name after it'`,
      reason: 'Invalid',
    },
    {
      expression: `!(${IS_MINE}) || !variables.selected || ${PREFIX} == '' || object.kind != 'KafkaUser' || !has(object.spec.acls) || object.spec.acls.all(a, ${ACL_INSIDE})`,
      messageExpression:
        `object.spec.acls.filter(a, !${ACL_INSIDE}).map(a, a.resource.type == 'cluster' ? ` +
        `'acls: allowing ' + a.operations.filter(o, o != 'IdempotentWrite').join(', ') + ' on the cluster reaches every tenant\\'s resources; only IdempotentWrite (or a deny) is allowed on the cluster resource under the prefix ' + ${quoted(PREFIX)} : ` +
        `'acls: ' + a.resource.patternType + ' ' + a.resource.type + ' ' + ${quoted('a.resource.name')} + (a.resource.name == '*' ? ' ("*" means every resource of that type)' : '') + ' is outside this namespace\\'s prefix: it must start with ' + ${quoted(PREFIX)})[0]`,
      reason: 'Invalid',
    },
    ...USER_QUOTA_FIELDS.map((field) => ({
      expression: `!(${IS_MINE}) || !(${isUserWithQuotas}) || !has(object.spec.quotas.${field}) || !(${hasCeiling(field)}) || object.spec.quotas.${field} <= ${ceiling(field)}`,
      messageExpression: `'quotas.${field} ' + string(object.spec.quotas.${field}) + ' is above the ceiling ' + string(${ceiling(field)}) + ' that the connection\\'s tenancy.maxUserQuotas.${field} sets for this namespace (KafkaConnection ' + ${quoted('params.metadata.name')} + ')'`,
      reason: 'Invalid',
    })),
    ...CLIENT_ID_QUOTA_FIELDS.map((field) => {
      const above = `has(c.${field}) && c.${field} > ${ceiling(field)}`;
      return {
        expression: `!(${IS_MINE}) || !(${isUserWithQuotas}) || !has(object.spec.quotas.clients) || !(${hasCeiling(field)}) || !object.spec.quotas.clients.exists(c, ${above})`,
        messageExpression: `object.spec.quotas.clients.filter(c, ${above}).map(c, 'quotas.clients (clientId ' + ${quoted('c.clientId')} + ').${field} ' + string(c.${field}) + ' is above the ceiling ' + string(${ceiling(field)}) + ' that the connection\\'s tenancy.maxUserQuotas.${field} sets for this namespace')[0]`,
        reason: 'Invalid',
      };
    }),
  ];
}

/**
 * The policy and its binding. Pure; the chart renders them with the binding's `validationActions` from its values.
 */
export function kafkaTenancyPolicies(options: KafkaTenancyPolicyOptions = {}): [V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding] {
  const name = options.name ?? KAFKA_TENANCY_POLICY;
  const policy: V1ValidatingAdmissionPolicy = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicy',
    metadata: { name },
    spec: {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: `${GROUP}/${VERSION}`, kind: 'KafkaConnection' },
      matchConditions: SPEC_WRITES,
      matchConstraints: {
        resourceRules: [{ apiGroups: [GROUP], apiVersions: [VERSION], operations: ['CREATE', 'UPDATE'], resources: ['kafkatopics', 'kafkausers'] }],
      },
      variables: [
        { name: 'labels', expression: 'has(namespaceObject.metadata.labels) ? namespaceObject.metadata.labels : {}' },
        { name: 'selected', expression: SELECTS },
        {
          name: 'prefix',
          expression: "has(params.spec.tenancy) && has(params.spec.tenancy.namePrefix) ? params.spec.tenancy.namePrefix.replace('{namespace}', namespaceObject.metadata.name) : ''",
        },
      ],
      validations: validations(),
    },
  };
  const binding: V1ValidatingAdmissionPolicyBinding = {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingAdmissionPolicyBinding',
    metadata: { name },
    spec: {
      policyName: name,
      paramRef: { selector: {}, parameterNotFoundAction: 'Allow' },
      validationActions: [...(options.validationActions ?? ['Deny'])],
      ...(options.namespaceSelector !== undefined && { matchResources: { namespaceSelector: options.namespaceSelector } }),
    },
  };
  return [policy, binding];
}
