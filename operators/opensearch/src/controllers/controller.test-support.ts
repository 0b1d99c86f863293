// Fakes of this operator's own interfaces for the controllers' unit tests: a recording Kubernetes REST transport
// (behind the runtime's Client), an in-memory OpenSearchApi for the security and index calls the adapters make, and
// a Connections with a fixed tenancy. Not used outside tests.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ExternalContext, RestRequest, RestTransport } from '@domain-operators/reconcile';
import { Client, silentLogger } from '@domain-operators/reconcile';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { ObservedIndex } from '../opensearch/index-plan.ts';
import type { ObservedRole, ObservedRoleMapping, ObservedUser, RoleBody, RoleMappingBody, UserBody } from '../opensearch/security-plan.ts';
import type { Tenancy } from '../opensearch/tenancy.ts';
import { tenancyFor } from '../opensearch/tenancy.ts';
import type { Connections } from './connection-registry.ts';

/** One thing that happened, in order: a Kubernetes request or an OpenSearch call. */
export type Call = { readonly to: 'kube'; readonly method: string; readonly path: string; readonly body: unknown } | { readonly to: 'opensearch'; readonly op: string; readonly name: string; readonly body?: unknown };

/** A Client over a transport that records every request in `calls` and answers `{}`. */
export function recordingClient(calls: Call[]): Client {
  const rest: RestTransport = {
    json: (request: RestRequest) => {
      calls.push({ to: 'kube', method: request.method, path: request.path, body: request.body });
      return Promise.resolve({});
    },
    stream: () => Promise.reject(new Error('no watches in these tests')),
  };
  return new Client({ rest });
}

const NO_FLAGS = { reserved: false, static: false, hidden: false };

/** An in-memory OpenSearch for the calls the adapters make; every write is recorded in `calls`. */
export class FakeOpenSearch {
  readonly roles = new Map<string, ObservedRole>();
  readonly mappings = new Map<string, ObservedRoleMapping>();
  readonly users = new Map<string, ObservedUser & { password?: string }>();
  readonly indices = new Map<string, ObservedIndex>();
  readonly #calls: Call[];

  constructor(calls: Call[]) {
    this.#calls = calls;
  }

  /** The {@link OpenSearchApi} view (methods the adapters do not use reject). */
  api(): OpenSearchApi {
    const unused = (): Promise<never> => Promise.reject(new Error('not used by this test'));
    return {
      clusterInfo: unused,
      getIndex: (name) => Promise.resolve(this.indices.get(name)),
      indexHealth: (name) => Promise.resolve(this.indices.has(name) ? 'green' : undefined),
      createIndex: unused,
      putIndexSettings: (name, body) => this.#write('putIndexSettings', name, body),
      putMapping: (name, body) => this.#write('putMapping', name, body),
      updateAliases: (actions) => this.#write('updateAliases', '', actions),
      deleteIndex: unused,
      getIndexTemplate: unused,
      putIndexTemplate: unused,
      deleteIndexTemplate: unused,
      getComponentTemplate: unused,
      putComponentTemplate: unused,
      deleteComponentTemplate: unused,
      getRole: (name) => Promise.resolve(this.roles.get(name)),
      putRole: (name, body: RoleBody) => {
        this.roles.set(name, { ...body, ...NO_FLAGS });
        return this.#write('putRole', name, body);
      },
      deleteRole: (name) => {
        this.roles.delete(name);
        return this.#write('deleteRole', name);
      },
      getRoleMapping: (name) => Promise.resolve(this.mappings.get(name)),
      putRoleMapping: (name, body: RoleMappingBody) => {
        this.mappings.set(name, { ...body, ...NO_FLAGS });
        return this.#write('putRoleMapping', name, body);
      },
      deleteRoleMapping: (name) => {
        this.mappings.delete(name);
        return this.#write('deleteRoleMapping', name);
      },
      getUser: (name) => {
        const user = this.users.get(name);
        if (user === undefined) return Promise.resolve(undefined);
        const { password: _password, ...observed } = user;
        return Promise.resolve(observed);
      },
      putUser: (name, body: UserBody) => {
        const previous = this.users.get(name);
        const password = body.password ?? previous?.password;
        this.users.set(name, { ...NO_FLAGS, backend_roles: body.backend_roles, attributes: body.attributes, opendistro_security_roles: body.opendistro_security_roles, ...(password === undefined ? {} : { password }) });
        return this.#write('putUser', name, body);
      },
      deleteUser: (name) => {
        this.users.delete(name);
        return this.#write('deleteUser', name);
      },
      close: () => Promise.resolve(),
    };
  }

  #write(op: string, name: string, body?: unknown): Promise<void> {
    this.#calls.push({ to: 'opensearch', op, name, ...(body === undefined ? {} : { body }) });
    return Promise.resolve();
  }
}

/** Connections to one fake cluster named `main`, with the tenancy rule `{namespace}-` over `namespaces`. */
export function fakeConnections(api: OpenSearchApi, namespaces: readonly string[] = ['team-a', 'team-b']): Connections {
  return {
    connection: () => {
      throw new Error('not used by this test');
    },
    api: () => api,
    tenancy: (_connection, namespace): Tenancy => {
      const result = tenancyFor({ indexPrefix: '{namespace}-' }, namespace, namespaces);
      if (!result.ok) throw new Error(result.violation.message);
      return result.tenancy;
    },
  };
}

/** The context an adapter call gets. */
export function adapterContext<T extends KubernetesObject>(object: T, externalName: string): ExternalContext<T> {
  return {
    object,
    externalName,
    request: { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' },
    reconcileId: 'test',
    log: silentLogger,
    signal: new AbortController().signal,
  };
}
