import { ConnectionReasons, NAMESPACE_PLACEHOLDER, renderNamePrefix as renderPrefix, TerminalError } from '@domain-operators/reconcile';
import type { KafkaAclRule, KafkaTenancy } from '../api/v1alpha1/index.ts';
import type { AclOperationName } from './admin.ts';

/**
 * Tenancy rules of a KafkaConnection, as pure functions: which names in Kafka a namespace may create or grant access
 * to (which namespaces may use it at all is the runtime's `NamespaceAdmission`). Everything here is decided before anything is sent to Kafka, so a
 * refused resource creates nothing.
 */

/** Why a name or ACL was refused: always reason `TenancyViolation`, with a message a person can act on. */
export interface TenancyViolation {
  readonly reason: typeof ConnectionReasons.tenancyViolation;
  /** Names the field, the offending value and the rule; never contains secrets. */
  readonly message: string;
}

/** The outcome of a tenancy check: the accepted value, or the violation. */
export type TenancyResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly violation: TenancyViolation };

/** Cluster operations a tenant may be granted while a prefix is set: they reach no other tenant's data. */
const TENANT_SAFE_CLUSTER_OPERATIONS: ReadonlySet<AclOperationName> = new Set(['IdempotentWrite']);

// Characters of a DNS-1123 label (a namespace name). A prefix must end in something else, see checkPrefixTemplate.
const NAMESPACE_CHAR = /^[a-z0-9-]$/;

/**
 * Checks a `namePrefix` template for the connection's admission. A template must contain `{namespace}` exactly
 * once, followed by a character that cannot occur in a namespace name (for example `.` or `_`): with `{namespace}-`
 * the prefix of `team-a` (`team-a-`) would also cover every name of namespace `team-a-b`. Pure.
 */
export function checkPrefixTemplate(template: string): TenancyResult<string> {
  const at = template.indexOf(NAMESPACE_PLACEHOLDER);
  if (at < 0 || template.includes(NAMESPACE_PLACEHOLDER, at + 1)) {
    return violation(`tenancy.namePrefix "${template}" must contain ${NAMESPACE_PLACEHOLDER} exactly once`);
  }
  const next = template.charAt(at + NAMESPACE_PLACEHOLDER.length);
  if (next === '' || NAMESPACE_CHAR.test(next)) {
    return violation(
      `tenancy.namePrefix "${template}" must follow ${NAMESPACE_PLACEHOLDER} with a separator that cannot occur in a namespace name ` +
        `(such as "." or "_"), otherwise the prefix of one namespace also covers another (team-a- covers team-a-b-…)`,
    );
  }
  return { ok: true, value: template };
}

/**
 * The prefix that names created for `namespace` must carry: the runtime's `renderNamePrefix` of `namePrefix`, `''`
 * when the connection sets no prefix (no naming rule). Pure.
 */
export function renderNamePrefix(tenancy: KafkaTenancy | undefined, namespace: string): string {
  return renderPrefix(tenancy?.namePrefix, namespace);
}

/**
 * The name in Kafka of a topic or user: the explicit name when given, which must start with `prefix`; otherwise
 * `prefix + metadataName`. `field` names the spec field in messages (`topicName`, `username`). Pure.
 */
export function resolveKafkaName(field: string, explicit: string | undefined, metadataName: string, prefix: string): TenancyResult<string> {
  if (explicit === undefined) return { ok: true, value: prefix + metadataName };
  if (!explicit.startsWith(prefix)) {
    return violation(`${field} "${explicit}" is outside this namespace's prefix: it must start with "${prefix}"`);
  }
  if (explicit === prefix) return violation(`${field} "${explicit}" is only the prefix "${prefix}"; add a name after it`);
  return { ok: true, value: explicit };
}

/**
 * Checks that every ACL rule stays inside `prefix`. With no prefix (`''`) every rule passes. With a prefix:
 * - topic, group and transactionalId rules: a `literal` name must start with the prefix (so `*`, which Kafka reads
 *   as "every resource", is refused); a `prefixed` pattern must itself start with the prefix (`team-a.` and
 *   `team-a.orders` pass; `team-a` without the separator would also match `team-abc…` and is refused).
 * - cluster rules: refused unless every operation is `IdempotentWrite` (which reaches no data beyond the topics the
 *   user may already write) or the permission is `deny` (a DENY only restricts this user). Cluster-wide ALLOWs such
 *   as Create, Alter or DescribeConfigs act on every tenant and belong to the platform admin, outside tenancy.
 * Returns the rules unchanged or the first violation. Pure.
 */
export function checkAclRules(rules: readonly KafkaAclRule[], prefix: string): TenancyResult<readonly KafkaAclRule[]> {
  if (prefix === '') return { ok: true, value: rules };
  for (const [index, rule] of rules.entries()) {
    const where = `acls[${index}]`;
    const { type, name = '', patternType } = rule.resource;
    if (type === 'cluster') {
      const unsafe = rule.operations.filter((op) => !TENANT_SAFE_CLUSTER_OPERATIONS.has(op));
      if (rule.permission === 'allow' && unsafe.length > 0) {
        return violation(
          `${where}: allowing ${unsafe.join(', ')} on the cluster reaches every tenant's resources; ` +
            `only IdempotentWrite (or a deny) is allowed on the cluster resource under the prefix "${prefix}"`,
        );
      }
      continue;
    }
    if (!name.startsWith(prefix)) {
      const hint = name === '*' ? ' ("*" means every resource of that type)' : '';
      return violation(`${where}: ${patternType} ${type} "${name}"${hint} is outside this namespace's prefix: it must start with "${prefix}"`);
    }
  }
  return { ok: true, value: rules };
}

/** The {@link TerminalError} a reconciler throws for a violation: reason `TenancyViolation`, the same message. */
export function tenancyError(v: TenancyViolation): TerminalError {
  return new TerminalError(v.message, v.reason);
}

function violation(message: string): { readonly ok: false; readonly violation: TenancyViolation } {
  return { ok: false, violation: { reason: ConnectionReasons.tenancyViolation, message } };
}
