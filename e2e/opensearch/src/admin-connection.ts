// An OpenSearchConnection logged in as the test environment's admin, as a platform admin would create it: its login
// Secret in the operator's namespace, then the connection, then its Ready.
import { eventually } from '@domain-operators/e2e-harness';
import { coreTypes } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import type { OpenSearchInfo } from '@domain-operators/testenv';
import { API_VERSION, openSearchConnections } from './kinds.ts';

/** What {@link createAdminConnection} creates. */
export interface AdminConnection {
  /** The connection's name (cluster-scoped). */
  readonly name: string;
  /** The namespace of its login Secret: the operator's. */
  readonly secretNamespace: string;
  /** The login Secret's name. */
  readonly secretName: string;
  /** More of the connection's spec: `tenancy`, `ignoredNames`, `tls`. */
  readonly spec?: Readonly<Record<string, unknown>>;
}

/**
 * Creates the admin's login Secret and the connection `name` to `openSearch`, and resolves once the connection is
 * Ready (rejects after 90 s). The password goes only into the Secret, never into a message.
 */
export async function createAdminConnection(client: Client, openSearch: OpenSearchInfo, connection: AdminConnection): Promise<void> {
  await client.create(coreTypes.secret, {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { namespace: connection.secretNamespace, name: connection.secretName },
    stringData: { username: openSearch.adminUser.username, password: openSearch.adminUser.password },
  });
  await client.create(openSearchConnections, {
    apiVersion: API_VERSION,
    kind: 'OpenSearchConnection',
    metadata: { name: connection.name },
    spec: { urls: [openSearch.url], credentialsSecretRef: { namespace: connection.secretNamespace, name: connection.secretName }, ...connection.spec },
  });
  await eventually(async () => ((await client.get(openSearchConnections, { namespace: undefined, name: connection.name })).status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true ? true : undefined), {
    timeoutMs: 90_000,
    what: `connection ${connection.name} Ready`,
  });
}
