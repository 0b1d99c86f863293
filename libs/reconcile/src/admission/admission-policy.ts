// Tenancy rules at admission (issue #20, ADR 0029): a ValidatingAdmissionPolicy per rule set whose parameter is the
// connection the object names in `spec.connectionRef`, and its binding. Pure: builds objects, talks to nothing.

/** One rule of a policy: `expression` is true when the object is allowed; `messageExpression` says why not. */
export interface AdmissionValidation {
  /** CEL, true = admitted. May use `object`, `params` (the connection), `namespaceObject` and `variables`. */
  readonly expression: string;
  /** CEL string shown to the person applying, evaluated only when `expression` is false. */
  readonly messageExpression: string;
  /** Machine reason of the refusal (HTTP 422, as the CRDs' own CEL). */
  readonly reason?: 'Invalid';
}

/** A named CEL value the validations share (`variables.<name>`). */
export interface AdmissionVariable {
  readonly name: string;
  readonly expression: string;
}

/** What {@link defineConnectionPolicy} needs. */
export interface ConnectionPolicyOptions {
  /** The policy's name without the release prefix, e.g. `opensearch-index-tenancy`. Lowercase, digits and `-`. */
  readonly name: string;
  /** API group of the objects checked. */
  readonly group: string;
  /** Plural resource names in `group` the policy checks on CREATE and UPDATE. */
  readonly resources: readonly string[];
  /** The connection kind (cluster-scoped), the policy's `paramKind`. */
  readonly connection: { readonly apiVersion: string; readonly kind: string };
  /** Variables evaluated before the validations (after the built-in `applies`). */
  readonly variables?: readonly AdmissionVariable[];
  readonly validations: readonly AdmissionValidation[];
}

/** A ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) as a plain object. */
export interface ValidatingAdmissionPolicy {
  readonly apiVersion: 'admissionregistration.k8s.io/v1';
  readonly kind: 'ValidatingAdmissionPolicy';
  readonly metadata: { readonly name: string };
  readonly spec: Readonly<Record<string, unknown>>;
}

/** A ValidatingAdmissionPolicyBinding as a plain object. */
export interface ValidatingAdmissionPolicyBinding {
  readonly apiVersion: 'admissionregistration.k8s.io/v1';
  readonly kind: 'ValidatingAdmissionPolicyBinding';
  readonly metadata: { readonly name: string };
  readonly spec: Readonly<Record<string, unknown>>;
}

/** The actions a binding takes on a failed validation: refuse, or admit with a warning and an audit annotation. */
export type ValidationActions = readonly ['Deny'] | readonly ['Warn', 'Audit'] | readonly ('Deny' | 'Warn' | 'Audit')[];

/** A policy and its binding, before a name prefix and validation actions are chosen (see {@link policyObjects}). */
export interface ConnectionPolicy {
  readonly name: string;
  readonly options: ConnectionPolicyOptions;
}

/**
 * The CEL guard every validation of a connection policy starts with: the policy is evaluated once per connection
 * (the binding's `paramRef` selects them all), and only the connection the object names decides. An object whose
 * connection does not exist is admitted (`parameterNotFoundAction: Allow`, or no connection matches): the operator
 * reports a missing connection, admission does not.
 */
export const APPLIES_EXPRESSION = "has(object.spec.connectionRef) && params.metadata.name == object.spec.connectionRef.name";

/** The policy's match condition: a create, or an update that changes the spec of an object not being deleted. */
export const SPEC_WRITE_EXPRESSION = "request.operation == 'CREATE' || (!has(object.metadata.deletionTimestamp) && (!has(oldObject.spec) || object.spec != oldObject.spec))";

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/**
 * Defines a connection policy: its validations apply only when `params` is the object's own connection. Throws
 * when the name is not a DNS label or an expression holds `{{` (the chart template would read it as Helm). Pure.
 */
export function defineConnectionPolicy(options: ConnectionPolicyOptions): ConnectionPolicy {
  if (!NAME.test(options.name)) throw new Error(`policy name ${JSON.stringify(options.name)} must be lowercase letters, digits and -`);
  const texts = [...(options.variables ?? []).map((v) => v.expression), ...options.validations.flatMap((v) => [v.expression, v.messageExpression])];
  const templated = texts.find((text) => text.includes('{{') || text.includes('}}'));
  if (templated !== undefined) throw new Error(`policy ${options.name}: CEL may not contain {{ or }} (Helm would read it): ${templated}`);
  if (options.validations.length === 0) throw new Error(`policy ${options.name} has no validations`);
  return { name: options.name, options };
}

/** How {@link policyObjects} names and binds the policies. */
export interface PolicyObjectOptions {
  /** Prepended to each policy's name (`<prefix>-<name>`); `''` for none. */
  readonly namePrefix: string;
  readonly validationActions: ValidationActions;
}

/**
 * The ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding of `policy`: `failurePolicy: Fail`, matching
 * CREATE and UPDATE of its resources (spec writes only, {@link SPEC_WRITE_EXPRESSION}), parameterised by every object of the connection kind (`paramRef.selector: {}`,
 * `parameterNotFoundAction: Allow`), each validation guarded by {@link APPLIES_EXPRESSION}. Deterministic. Pure.
 */
export function policyObjects(policy: ConnectionPolicy, options: PolicyObjectOptions): [ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding] {
  const name = options.namePrefix === '' ? policy.name : `${options.namePrefix}-${policy.name}`;
  const o = policy.options;
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        paramKind: { apiVersion: o.connection.apiVersion, kind: o.connection.kind },
        matchConstraints: {
          resourceRules: [{ apiGroups: [o.group], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: [...o.resources] }],
        },
        // Only spec writes are judged: the operator's finalizer, label and annotation writes of an object admitted
        // before the rules tightened go through, so it can still be released.
        matchConditions: [{ name: 'spec-write', expression: SPEC_WRITE_EXPRESSION }],
        variables: [{ name: 'applies', expression: APPLIES_EXPRESSION }, ...(o.variables ?? []).map((v) => ({ name: v.name, expression: v.expression }))],
        validations: o.validations.map((v) => ({
          expression: `!variables.applies || (${v.expression})`,
          messageExpression: v.messageExpression,
          reason: v.reason ?? 'Invalid',
        })),
      },
    },
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicyBinding',
      metadata: { name },
      spec: {
        policyName: name,
        validationActions: [...options.validationActions],
        paramRef: { selector: {}, parameterNotFoundAction: 'Allow' },
      },
    },
  ];
}
