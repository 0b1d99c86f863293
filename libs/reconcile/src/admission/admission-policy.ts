// Rules at admission (issue #20, ADR 0029): a ValidatingAdmissionPolicy per rule set and its binding. A connection
// policy's parameter is the connection the object names in `spec.connectionRef`; an object policy has none and judges
// the object alone. Pure: builds objects, talks to nothing.

/** One rule of a policy: `expression` is true when the object is allowed; `messageExpression` says why not. */
export interface AdmissionValidation {
  /** CEL, true = admitted. May use `object`, `oldObject`, `request`, `namespaceObject`, `variables` and, in a connection policy, `params` (the connection). */
  readonly expression: string;
  /** CEL string shown to the person applying, evaluated only when `expression` is false. */
  readonly messageExpression: string;
  /** Machine reason of the refusal (HTTP 422, as the CRDs' own CEL). */
  readonly reason?: 'Invalid';
}

/** A named CEL value the validations share (`variables.<name>`); it may use the variables listed before it. */
export interface AdmissionVariable {
  readonly name: string;
  readonly expression: string;
}

/** The connection kind a connection policy is parameterised by (cluster-scoped), its `paramKind`. */
export interface ConnectionKind {
  readonly apiVersion: string;
  readonly kind: string;
}

/** What a policy judges and how: see {@link defineConnectionPolicy} and {@link defineObjectPolicy}. */
export interface AdmissionPolicyOptions {
  /** The policy's name without the release prefix, e.g. `opensearch-index`. Lowercase, digits and `-`. */
  readonly name: string;
  /** API group of the objects checked. */
  readonly group: string;
  /** Plural resource names in `group` the policy checks on CREATE and UPDATE. */
  readonly resources: readonly string[];
  /** The connection kind; absent for a policy without a parameter. */
  readonly connection?: ConnectionKind;
  /** Variables evaluated before the validations (a connection policy's come after the built-in `applies`). */
  readonly variables?: readonly AdmissionVariable[];
  /**
   * CEL: the validations apply only where this holds, on top of a connection policy's `applies` (for instance "the
   * connection selects the namespace", when an earlier validation of the same policy already refuses the rest). May
   * use the variables. Absent: always.
   */
  readonly when?: string;
  readonly validations: readonly AdmissionValidation[];
}

/** The options of {@link defineConnectionPolicy}: a policy whose parameter is the object's connection. */
export type ConnectionPolicyOptions = AdmissionPolicyOptions & { readonly connection: ConnectionKind };

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

/** What a binding does with a failed validation. */
export type ValidationAction = 'Deny' | 'Warn' | 'Audit';

/** The actions a binding takes on a failed validation: refuse, or admit with a warning and an audit annotation. */
export type ValidationActions = readonly ['Deny'] | readonly ['Warn', 'Audit'] | readonly ValidationAction[];

/** A defined policy, before a name prefix and validation actions are chosen (see {@link policyObjects}). */
export interface AdmissionPolicy {
  readonly name: string;
  readonly options: AdmissionPolicyOptions;
}

/**
 * The CEL guard every validation of a connection policy starts with: the policy is evaluated once per connection
 * (the binding's `paramRef` selects them all), and only the connection the object names decides. An object whose
 * connection does not exist is admitted (`parameterNotFoundAction: Allow`, or no connection matches): the operator
 * reports a missing connection, admission does not.
 */
export const APPLIES_EXPRESSION = "has(object.spec.connectionRef) && params.metadata.name == object.spec.connectionRef.name";

/**
 * Every policy's match condition: a create, or an update that changes the spec of an object not being deleted. The
 * operator's own writes (finalizers, annotations) of an object admitted before the rules tightened must go through,
 * or such an object could never be released; its spec is refused at the next change, and the operator reports it.
 */
export const SPEC_WRITE_EXPRESSION = "request.operation == 'CREATE' || (!has(object.metadata.deletionTimestamp) && (!has(oldObject.spec) || object.spec != oldObject.spec))";

const NAME = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/**
 * Defines a connection policy: its validations apply only when `params` is the object's own connection. Throws
 * when the name is not a DNS label, there is no validation, or an expression holds `{{` (the chart template would
 * read it as Helm). Pure.
 */
export function defineConnectionPolicy(options: ConnectionPolicyOptions): AdmissionPolicy {
  return define(options);
}

/**
 * Defines an object policy: no parameter, its validations judge the object (and its namespace) alone; for what the
 * operator refuses whatever the connection says. Throws as {@link defineConnectionPolicy}. Pure.
 */
export function defineObjectPolicy(options: Omit<AdmissionPolicyOptions, 'connection'>): AdmissionPolicy {
  return define(options);
}

function define(options: AdmissionPolicyOptions): AdmissionPolicy {
  if (!NAME.test(options.name)) throw new Error(`policy name ${JSON.stringify(options.name)} must be lowercase letters, digits and -`);
  const texts = [...(options.variables ?? []).map((v) => v.expression), options.when ?? '', ...options.validations.flatMap((v) => [v.expression, v.messageExpression])];
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
  /** The binding judges only namespaces with these labels (`matchResources.namespaceSelector`); absent: every namespace. */
  readonly namespaceLabels?: Readonly<Record<string, string>>;
}

/**
 * The ValidatingAdmissionPolicy and ValidatingAdmissionPolicyBinding of `policy`: `failurePolicy: Fail`, matching
 * CREATE and UPDATE of its resources (spec writes only, {@link SPEC_WRITE_EXPRESSION}). A connection policy is
 * parameterised by every object of the connection kind (`paramRef.selector: {}`, `parameterNotFoundAction: Allow`),
 * each validation guarded by {@link APPLIES_EXPRESSION} (and the policy's `when`). Deterministic. Pure.
 */
export function policyObjects(policy: AdmissionPolicy, options: PolicyObjectOptions): [ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding] {
  const name = options.namePrefix === '' ? policy.name : `${options.namePrefix}-${policy.name}`;
  const o = policy.options;
  const guards = [...(o.connection === undefined ? [] : ['variables.applies']), ...(o.when === undefined ? [] : [`(${o.when})`])];
  const guard = guards.length === 1 ? guards.join('') : `(${guards.join(' && ')})`;
  const guarded = (expression: string): string => (guards.length === 0 ? expression : `!${guard} || (${expression})`);
  const variables = [...(o.connection === undefined ? [] : [{ name: 'applies', expression: APPLIES_EXPRESSION }]), ...(o.variables ?? []).map((v) => ({ name: v.name, expression: v.expression }))];
  return [
    {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingAdmissionPolicy',
      metadata: { name },
      spec: {
        failurePolicy: 'Fail',
        ...(o.connection === undefined ? {} : { paramKind: { apiVersion: o.connection.apiVersion, kind: o.connection.kind } }),
        matchConstraints: {
          resourceRules: [{ apiGroups: [o.group], apiVersions: ['*'], operations: ['CREATE', 'UPDATE'], resources: [...o.resources] }],
        },
        matchConditions: [{ name: 'spec-write', expression: SPEC_WRITE_EXPRESSION }],
        ...(variables.length === 0 ? {} : { variables }),
        validations: o.validations.map((v) => ({
          expression: guarded(v.expression),
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
        ...(o.connection === undefined ? {} : { paramRef: { selector: {}, parameterNotFoundAction: 'Allow' } }),
        ...(options.namespaceLabels === undefined ? {} : { matchResources: { namespaceSelector: { matchLabels: { ...options.namespaceLabels } } } }),
      },
    },
  ];
}
