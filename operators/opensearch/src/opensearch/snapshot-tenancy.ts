/**
 * The tenancy rules of the snapshot kinds: which namespaces a repository admits, and the names a policy's snapshots
 * get, so that a policy's retention can only ever select its own snapshots in a shared repository. Pure.
 */
import { matchesSelector } from '@domain-operators/reconcile';
import type { OpenSearchSnapshotRepository } from '../api/v1alpha1/index.ts';

/**
 * Whether `repository` lets a namespace with `labels` snapshot into it and restore from it: its
 * `tenancy.namespaceSelector` must match. Absent tenancy or selector admits no namespace (a platform admin opts
 * namespaces in); an empty selector `{}` admits every namespace, as in Kubernetes.
 */
export function repositoryAdmits(repository: OpenSearchSnapshotRepository, labels: Readonly<Record<string, string>> | undefined): boolean {
  const selector = repository.spec.tenancy?.namespaceSelector;
  return selector !== undefined && matchesSelector(selector, labels);
}

/** The repository's name in OpenSearch: `spec.repositoryName`, else `metadata.name`. */
export function repositoryNameOf(repository: OpenSearchSnapshotRepository): string {
  return repository.spec.repositoryName ?? repository.metadata.name ?? '';
}

/** `yyyymmddhhmmss` of an instant in UTC. */
function stamp(at: Date): string {
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  return `${pad(at.getUTCFullYear(), 4)}${pad(at.getUTCMonth() + 1)}${pad(at.getUTCDate())}${pad(at.getUTCHours())}${pad(at.getUTCMinutes())}${pad(at.getUTCSeconds())}`;
}

/** The name of the snapshot `policy` of `namespace` takes at `at`: `<namespace>-<policy>-<UTC yyyymmddhhmmss>`. */
export function policySnapshotName(namespace: string, policy: string, at: Date): string {
  return `${namespace}-${policy}-${stamp(at)}`;
}

/**
 * The wildcard that lists a policy's snapshots from OpenSearch, `<namespace>-<policy>-*`. It also matches other
 * policies' names that extend this one (`<ns>-<policy>-x-…`): filter the listing with {@link isPolicySnapshot}.
 */
export function policySnapshotPattern(namespace: string, policy: string): string {
  return `${namespace}-${policy}-*`;
}

/** Whether `name` is exactly a snapshot of `policy` in `namespace`: the prefix followed by 14 digits, nothing else. */
export function isPolicySnapshot(name: string, namespace: string, policy: string): boolean {
  const prefix = `${namespace}-${policy}-`;
  return name.startsWith(prefix) && /^[0-9]{14}$/.test(name.slice(prefix.length));
}
