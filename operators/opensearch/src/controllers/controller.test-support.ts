// Fakes of this operator's own interfaces for the controllers' unit tests: a recording Kubernetes REST transport
// (behind the runtime's Client), an in-memory OpenSearchApi for the security, index and template calls the adapters
// make, a Connections with a fixed tenancy, and the runtime's real ExternalResourceReconciler over an adapter with
// its objects in memory. Not used outside tests.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ExternalAdapter, ExternalContext, ReconcileContext, RestRequest, RestTransport, Result } from '@domain-operators/reconcile';
import { Client, ExternalResourceReconciler, silentLogger, statusChange } from '@domain-operators/reconcile';
import { FakeObjects, RecordingRecorder } from '@domain-operators/reconcile/testing';
import { openSearchConnections } from '../api/v1alpha1/index.ts';
import type { JsonObject } from '../opensearch/json.ts';
import { isRecord } from '../opensearch/json.ts';
import type { ComponentTemplateWire, IndexTemplateWire } from '../opensearch/template-plan.ts';
import type { OpenSearchApi } from '../opensearch/client.ts';
import type { ObservedDataStream } from '../opensearch/data-stream.ts';
import { OpenSearchError } from '../opensearch/errors.ts';
import { OpenSearchReasons } from '../opensearch/reasons.ts';
import type { ObservedIndex } from '../opensearch/index-plan.ts';
import type { ActionGroupBody, ObservedActionGroup, ObservedTenant, TenantBody } from '../opensearch/action-group-plan.ts';
import type { ObservedRole, ObservedRoleMapping, ObservedUser, RoleBody, RoleMappingBody, UserBody } from '../opensearch/security-plan.ts';
import type { Tenancy } from '../opensearch/tenancy.ts';
import { tenancyFor } from '../opensearch/tenancy.ts';
import type { Connections } from './connection-registry.ts';

/**
 * One thing that happened, in order: a Kubernetes request, an OpenSearch call, or a status patch of the reconciler
 * ({@link reconcilerOver}; `change` is what the patch changed).
 */
export type Call =
  | { readonly to: 'kube'; readonly method: string; readonly path: string; readonly body: unknown }
  | { readonly to: 'opensearch'; readonly op: string; readonly name: string; readonly body?: unknown }
  | { readonly to: 'status'; readonly change: Readonly<Record<string, unknown>> };

/** A short name of each call: `status`, `kube` or the OpenSearch operation, for order assertions. */
export function callNames(calls: readonly Call[]): string[] {
  return calls.map((call) => (call.to === 'opensearch' ? call.op : call.to));
}

/** The changes of the status patches among `calls`, in order. */
export function statusChanges(calls: readonly Call[]): Readonly<Record<string, unknown>>[] {
  return calls.flatMap((call) => (call.to === 'status' ? [call.change] : []));
}

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
  readonly indexTemplates = new Map<string, IndexTemplateWire>();
  readonly componentTemplates = new Map<string, ComponentTemplateWire>();
  readonly actionGroups = new Map<string, ObservedActionGroup>();
  readonly tenants = new Map<string, ObservedTenant>();
  readonly dataStreams = new Map<string, ObservedDataStream>();
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
      indicesHealth: (names) => Promise.resolve(new Map(names.filter((name) => this.indices.has(name)).map((name) => [name, 'green'] as const))),
      createIndex: (name, body) => {
        const uuid = `uuid-${name}`;
        const aliases = Object.fromEntries(Object.keys(body.aliases ?? {}).map((alias) => [alias, {}]));
        this.indices.set(name, { name, uuid, settings: body.settings, mappings: body.mappings ?? {}, aliases });
        return this.#write('createIndex', name, body).then(() => ({ uuid, shardsAcknowledged: true }));
      },
      putIndexSettings: (name, body) => {
        this.#changeIndex(name, (index) => ({ ...index, settings: { ...index.settings, ...body } }));
        return this.#write('putIndexSettings', name, body);
      },
      putMapping: (name, body) => {
        // Top-level properties are added (enough for these tests; a real merge goes deeper).
        this.#changeIndex(name, (index) => ({ ...index, mappings: { ...index.mappings, ...body, properties: { ...propertiesOf(index.mappings), ...propertiesOf(body) } } }));
        return this.#write('putMapping', name, body);
      },
      updateAliases: (actions) => {
        for (const action of actions) {
          if ('add' in action) this.#changeIndex(action.add.index, (index) => ({ ...index, aliases: { ...index.aliases, [action.add.alias]: {} } }));
          else this.#changeIndex(action.remove.index, (index) => ({ ...index, aliases: Object.fromEntries(Object.entries(index.aliases).filter(([alias]) => alias !== action.remove.alias)) }));
        }
        return this.#write('updateAliases', '', actions);
      },
      deleteIndex: unused,
      getIndexTemplate: (name) => Promise.resolve(stored(this.indexTemplates.get(name))),
      putIndexTemplate: (name, body) => {
        this.indexTemplates.set(name, body);
        return this.#write('putIndexTemplate', name, body);
      },
      deleteIndexTemplate: unused,
      getComponentTemplate: (name) => Promise.resolve(stored(this.componentTemplates.get(name))),
      putComponentTemplate: (name, body) => {
        this.componentTemplates.set(name, body);
        return this.#write('putComponentTemplate', name, body);
      },
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
      getDataStream: (name) => Promise.resolve(this.dataStreams.get(name)),
      createDataStream: (name) => {
        // As OpenSearch: only when an index template with data_stream matches the name.
        const template = [...this.indexTemplates].find(([, body]) => body.data_stream !== undefined && body.index_patterns.some((pattern) => matchesWhole(pattern, name)));
        if (template === undefined) return Promise.reject(new OpenSearchError(OpenSearchReasons.dependencyNotReady, `create data stream ${name}: no matching index template found for data stream [${name}]`, 400));
        this.dataStreams.set(name, { name, generation: 1, backingIndices: [`.ds-${name}-000001`], health: 'green', template: template[0] });
        return this.#write('createDataStream', name);
      },
      deleteDataStream: (name) => {
        this.dataStreams.delete(name);
        return this.#write('deleteDataStream', name);
      },
      getActionGroup: (name) => Promise.resolve(this.actionGroups.get(name)),
      putActionGroup: (name, body: ActionGroupBody) => {
        this.actionGroups.set(name, { ...body, ...NO_FLAGS });
        return this.#write('putActionGroup', name, body);
      },
      deleteActionGroup: (name) => {
        this.actionGroups.delete(name);
        return this.#write('deleteActionGroup', name);
      },
      getTenant: (name) => Promise.resolve(this.tenants.get(name)),
      putTenant: (name, body: TenantBody) => {
        this.tenants.set(name, { ...body, ...NO_FLAGS });
        return this.#write('putTenant', name, body);
      },
      deleteTenant: (name) => {
        this.tenants.delete(name);
        return this.#write('deleteTenant', name);
      },
      // The snapshot kinds' tests use their own fake (snapshot calls are not recorded here).
      getRepository: unused,
      putRepository: unused,
      verifyRepository: unused,
      deleteRepository: unused,
      listSnapshots: unused,
      getSnapshot: unused,
      createSnapshot: unused,
      deleteSnapshot: unused,
      restoreSnapshot: unused,
      recovery: unused,
      close: () => Promise.resolve(),
    };
  }

  #changeIndex(name: string, change: (index: ObservedIndex) => ObservedIndex): void {
    const index = this.indices.get(name);
    if (index !== undefined) this.indices.set(name, change(index));
  }

  #write(op: string, name: string, body?: unknown): Promise<void> {
    this.#calls.push({ to: 'opensearch', op, name, ...(body === undefined ? {} : { body }) });
    return Promise.resolve();
  }
}

/** Whether the glob `pattern` (`*` any run) matches all of `name`. */
function matchesWhole(pattern: string, name: string): boolean {
  return new RegExp(`^${pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`).test(name);
}

function propertiesOf(mappings: JsonObject): JsonObject {
  const properties = mappings['properties'];
  return isRecord(properties) ? properties : {};
}

/** A template as a GET answers it: the body put, as plain JSON (settings stay flat, which the diff also reads). */
function stored(body: IndexTemplateWire | ComponentTemplateWire | undefined): JsonObject | undefined {
  return body === undefined ? undefined : (JSON.parse(JSON.stringify(body)) as JsonObject);
}

/** Connections to one fake cluster named `main`, with the tenancy rule `{namespace}-` over `namespaces`. */
export function fakeConnections(api: OpenSearchApi, namespaces: readonly string[] = ['team-a', 'team-b']): Connections {
  return {
    connection: () => {
      throw new Error('not used by this test');
    },
    usable: (name) => ({
      apiVersion: openSearchConnections.apiVersion,
      kind: openSearchConnections.kind,
      metadata: { name },
      spec: { urls: ['https://opensearch.test:9200'], credentialsSecretRef: { namespace: 'ops', name: 'login', usernameKey: 'username', passwordKey: 'password' } },
    }),
    api: () => Promise.resolve(api),
    clientOf: () => Promise.resolve(api),
    ignoredNames: () => [],
    tenancy: (_connection, namespace): Tenancy => {
      const result = tenancyFor({ indexPrefix: '{namespace}-' }, namespace, namespaces);
      if (!result.ok) throw new Error(result.violation.message);
      return result.tenancy;
    },
  };
}

/** The context an adapter call gets, with no client bound (a test binds the fake's with the runtime's `boundAdapter`). */
export function adapterContext<T extends KubernetesObject>(object: T, externalName: string): ExternalContext<T, OpenSearchApi> {
  return {
    object,
    externalName,
    request: { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' },
    reconcileId: 'test',
    log: silentLogger,
    signal: new AbortController().signal,
    client: () => Promise.reject(new Error('no client bound')),
  };
}

/** What {@link reconcilerOver} needs of a kind besides its adapter (as `ManagedKind` gives it). */
export interface KindUnderTest<T extends KubernetesObject, D> {
  externalName(object: T): string;
  desired(object: T): D | Promise<D>;
  readonly adoptExactMatch?: boolean;
}

/**
 * The runtime's real `ExternalResourceReconciler` over `adapter` (as `managedController` builds it, deletion policy
 * Delete), its objects held in memory by the runtime's `FakeObjects`. Every status patch is recorded in `calls` as
 * `{ to: 'status', change }`, so a test sees it in order with the OpenSearch writes.
 */
export function reconcilerOver<T extends KubernetesObject, D, O>(calls: Call[], adapter: ExternalAdapter<T, D, O>, kind: KindUnderTest<T, D>) {
  const objects = new FakeObjects<T>('opensearch.domain-operators.io/test');
  const reconciler = new ExternalResourceReconciler<T, D, O>(
    {
      adapter,
      claims: objects.claims((object) => kind.externalName(object)),
      finalizer: objects.finalizer,
      status: {
        patchStatus: (object, desired, now) => {
          const change = statusChange(object, desired, now);
          if (change !== undefined) calls.push({ to: 'status', change });
          return objects.statusWriter.patchStatus(object, desired, now);
        },
      },
      events: new RecordingRecorder(),
      now: () => new Date('2026-12-01T12:00:00Z'),
      random: () => 0.5,
    },
    {
      annotationPrefix: 'opensearch.domain-operators.io',
      connect: async (object) => ({ externalName: kind.externalName(object), desired: await kind.desired(object) }),
      defaultDeletionPolicy: 'Delete',
      ...(kind.adoptExactMatch === undefined ? {} : { adoptExactMatch: kind.adoptExactMatch }),
    },
  );
  const contextOf = (object: T): ReconcileContext => ({
    request: { namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' },
    reconcileId: 'test',
    log: silentLogger,
    signal: new AbortController().signal,
  });
  return {
    objects,
    /** Reconciles the stored object of `uid` (what the cache would hand over). */
    reconcile: (uid: string): Promise<Result> => reconciler.reconcile(objects.current(uid), contextOf(objects.current(uid))),
    /** The stored object's status. */
    status: (uid: string): Readonly<Record<string, unknown>> => (objects.current(uid) as { status?: Readonly<Record<string, unknown>> }).status ?? {},
  };
}
