import type { V1ObjectMeta } from '@kubernetes/client-node';
import { connectionExternalName, Reasons, TerminalError } from '@domain-operators/reconcile';
import type { NamedKind, Tenancy } from '../opensearch/tenancy.ts';
import { resolveName, tenancyError } from '../opensearch/tenancy.ts';
import type { Connections } from './connection-registry.ts';

/** A namespaced resource of this operator: it names its connection. */
export interface ConnectedResource {
  readonly metadata: V1ObjectMeta;
  readonly spec: { readonly connectionRef: { readonly name: string } };
}

/** Where a resource's object lives: its connection, its namespace's tenancy there, and its name in OpenSearch. */
export interface Scope {
  readonly connection: string;
  readonly tenancy: Tenancy;
  readonly name: string;
}

/**
 * Resolves a resource's scope from the caches: the tenancy of its namespace on its connection and its name in
 * OpenSearch (`explicit`, else prefix + metadata.name). Throws `TerminalError` `TenancyViolation` when the name is
 * outside the tenancy, and the runtime's `DependencyError` when the connection or namespace is not cached. Reads
 * caches only.
 */
export function scopeOf(connections: Connections, object: ConnectedResource, kind: NamedKind, explicit: string | undefined): Scope {
  const namespace = object.metadata.namespace;
  if (namespace === undefined || namespace === '') throw new TerminalError(`${kind} resources must be namespaced`, Reasons.invalidSpec);
  const connection = object.spec.connectionRef.name;
  const tenancy = connections.tenancy(connection, namespace);
  const resolved = resolveName(tenancy, kind, object.metadata.name ?? '', explicit);
  if (!resolved.ok) throw tenancyError(resolved.violation);
  return { connection, tenancy, name: resolved.name };
}

/** The external name of a scope: `<connection>/<name>` (the runtime's `connectionExternalName`), unique across connections. */
export function externalNameOf(scope: Pick<Scope, 'connection' | 'name'>): string {
  return connectionExternalName(scope.connection, scope.name);
}
