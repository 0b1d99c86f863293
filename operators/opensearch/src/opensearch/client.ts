/**
 * The adapter to one OpenSearch cluster: the {@link OpenSearchApi} interface the reconcilers depend on (split in
 * small interfaces by area), and {@link OpenSearchHttpApi}, its implementation over `@opensearch-project/opensearch`.
 *
 * Every call goes through the client's transport (connection pool, basic auth, TLS, retries of dead nodes) with
 * paths of the documented REST API: request bodies are user-supplied JSON, which the client's generated request
 * types would accept only through casts, and every answer is parsed from `unknown` here. Failures are classified
 * by `errors.ts` (reasons `OpenSearchUnavailable`, `AuthenticationFailed`, `NotAuthorized`, terminal 400s).
 */
import { Client } from '@opensearch-project/opensearch';
import type { ClientOptions } from '@opensearch-project/opensearch';
import { classifyError } from './errors.ts';
import { OpenSearchReasons } from './reasons.ts';
import type { CallDescription } from './errors.ts';
import type { AliasAction, CreateIndexBody, ObservedAlias, ObservedIndex } from './index-plan.ts';
import type { JsonObject, JsonValue } from './json.ts';
import { flagField, isRecord, stringArrayField, stringField } from './json.ts';
import type { ObservedDataStream } from './data-stream.ts';
import { parseDataStream } from './data-stream.ts';
import type { ActionGroupBody, ObservedActionGroup, ObservedTenant, TenantBody } from './action-group-plan.ts';
import type { ObservedRole, ObservedRoleMapping, ObservedUser, RoleBody, RoleMappingBody, UserBody } from './security-plan.ts';
import type { CreateSnapshotBody, IndexRecovery, ObservedRepository, ObservedSnapshot, RepositoryBody, RestoreBody } from './snapshot-types.ts';
import { parseRecovery, parseRepository, parseSnapshot } from './snapshot-types.ts';
import { nameBatches } from './name-batches.ts';
import type { ComponentTemplateWire, IndexTemplateWire } from './template-plan.ts';
import { checkSecurityObject, tenancyError } from './tenancy.ts';
import type { SecurityKind } from './tenancy.ts';

/** Per-call options: every method honours `signal` by aborting its request. */
export interface CallOptions {
  readonly signal?: AbortSignal;
}

/** What a connection's status reports about its cluster. */
export interface ClusterInfo {
  readonly clusterName: string;
  readonly version: string;
  /** `green`, `yellow` or `red`. */
  readonly health: string;
  /** Whether the security plugin answers its health endpoint. */
  readonly securityPlugin: boolean;
}

/** Cluster-level reads. */
export interface ClusterApi {
  /** Version, name, health and security plugin presence (three reads, no writes). Red health is returned, not thrown. */
  clusterInfo(options?: CallOptions): Promise<ClusterInfo>;
}

/** What a create-index request made. */
export interface CreatedIndex {
  readonly uuid: string;
  /** OpenSearch's `shards_acknowledged`: every primary shard started before it answered (its default wait). */
  readonly shardsAcknowledged: boolean;
}

/** Index calls. Writes are single requests; reads do not modify anything. */
export interface IndexApi {
  /** Settings (explicit over defaults, flat), mappings and aliases in one read; `undefined` when absent. */
  getIndex(name: string, options?: CallOptions): Promise<ObservedIndex | undefined>;
  /** `green`/`yellow`/`red` of one index; `undefined` when absent. */
  indexHealth(name: string, options?: CallOptions): Promise<string | undefined>;
  /**
   * `green`/`yellow`/`red` of each of `names` that exists, from the cluster state alone (no shard is asked, so it
   * answers while indices are red or recovering): one request per {@link nameBatches} group. Absent names are not
   * in the map.
   */
  indicesHealth(names: readonly string[], options?: CallOptions): Promise<ReadonlyMap<string, string>>;
  /** Creates an index with settings, mappings and aliases; returns its uuid and whether its primaries started. `AlreadyExists` when taken. */
  createIndex(name: string, body: CreateIndexBody, options?: CallOptions): Promise<CreatedIndex>;
  /** Puts dynamic settings; a static one is refused by OpenSearch (terminal `InvalidSpec`). */
  putIndexSettings(name: string, settings: Readonly<Record<string, JsonValue>>, options?: CallOptions): Promise<void>;
  /** Puts a mapping; OpenSearch's refusal of a conflicting one is a terminal `MappingConflict`. */
  putMapping(name: string, body: JsonObject, options?: CallOptions): Promise<void>;
  /** Applies alias actions atomically. No-op for an empty list. */
  updateAliases(actions: readonly AliasAction[], options?: CallOptions): Promise<void>;
  /** Deletes an index; succeeds when it is already gone. */
  deleteIndex(name: string, options?: CallOptions): Promise<void>;
}

/** Composable index templates and component templates. Deletes succeed when already gone. */
export interface TemplateApi {
  /** The `index_template` object as OpenSearch returns it; `undefined` when absent. */
  getIndexTemplate(name: string, options?: CallOptions): Promise<JsonObject | undefined>;
  putIndexTemplate(name: string, body: IndexTemplateWire, options?: CallOptions): Promise<void>;
  deleteIndexTemplate(name: string, options?: CallOptions): Promise<void>;
  /** The `component_template` object as OpenSearch returns it; `undefined` when absent. */
  getComponentTemplate(name: string, options?: CallOptions): Promise<JsonObject | undefined>;
  putComponentTemplate(name: string, body: ComponentTemplateWire, options?: CallOptions): Promise<void>;
  deleteComponentTemplate(name: string, options?: CallOptions): Promise<void>;
}

/** Data streams. The create needs a matching index template with `data_stream`; deletes succeed when already gone. */
export interface DataStreamApi {
  /** `undefined` when no data stream of that name exists. */
  getDataStream(name: string, options?: CallOptions): Promise<ObservedDataStream | undefined>;
  /** Creates it; no matching data-stream template is `DependencyNotReady` (retried), a taken name `AlreadyExists`. */
  createDataStream(name: string, options?: CallOptions): Promise<void>;
  /** Deletes the data stream and its backing indices. */
  deleteDataStream(name: string, options?: CallOptions): Promise<void>;
}

/**
 * The security plugin's REST API. Reads return the `reserved`/`static`/`hidden` flags. Every write first refuses,
 * without a request, a protected name (`all_access`, `admin`, …) with a terminal `TenancyViolation`; flags are
 * checked by the caller against the object it read. Deletes succeed when already gone.
 */
export interface SecurityApi {
  getRole(name: string, options?: CallOptions): Promise<ObservedRole | undefined>;
  putRole(name: string, body: RoleBody, options?: CallOptions): Promise<void>;
  deleteRole(name: string, options?: CallOptions): Promise<void>;
  getRoleMapping(role: string, options?: CallOptions): Promise<ObservedRoleMapping | undefined>;
  putRoleMapping(role: string, body: RoleMappingBody, options?: CallOptions): Promise<void>;
  deleteRoleMapping(role: string, options?: CallOptions): Promise<void>;
  getUser(name: string, options?: CallOptions): Promise<ObservedUser | undefined>;
  /** Creates or replaces a user; without `password` in the body the current hash is kept. A weak password is terminal. */
  putUser(name: string, body: UserBody, options?: CallOptions): Promise<void>;
  deleteUser(name: string, options?: CallOptions): Promise<void>;
  getActionGroup(name: string, options?: CallOptions): Promise<ObservedActionGroup | undefined>;
  putActionGroup(name: string, body: ActionGroupBody, options?: CallOptions): Promise<void>;
  deleteActionGroup(name: string, options?: CallOptions): Promise<void>;
  getTenant(name: string, options?: CallOptions): Promise<ObservedTenant | undefined>;
  putTenant(name: string, body: TenantBody, options?: CallOptions): Promise<void>;
  deleteTenant(name: string, options?: CallOptions): Promise<void>;
}

/**
 * The snapshot API: repositories, snapshots and restores. Snapshots and restores are started without waiting for
 * completion; their progress is read back. Deletes succeed when already gone.
 */
export interface SnapshotApi {
  /** `undefined` when no repository of that name is registered. */
  getRepository(name: string, options?: CallOptions): Promise<ObservedRepository | undefined>;
  /** Registers (or replaces) a repository without OpenSearch's own verification (see `verifyRepository`). */
  putRepository(name: string, body: RepositoryBody, options?: CallOptions): Promise<void>;
  /** Runs the repository verification; resolves with the names of the nodes that verified it. A refusal is classified like any call (a 500 is retryable). */
  verifyRepository(name: string, options?: CallOptions): Promise<string[]>;
  /** Unregisters a repository; its snapshots stay in the storage. */
  deleteRepository(name: string, options?: CallOptions): Promise<void>;
  /** Snapshots of `repository` whose names match `pattern` (`*` wildcards), oldest first; `[]` when the repository has none. */
  listSnapshots(repository: string, pattern: string, options?: CallOptions): Promise<ObservedSnapshot[]>;
  /** One snapshot, `undefined` when absent (or the repository is missing). */
  getSnapshot(repository: string, name: string, options?: CallOptions): Promise<ObservedSnapshot | undefined>;
  /** Starts a snapshot (`wait_for_completion=false`). A name already taken is `AlreadyExists`. */
  createSnapshot(repository: string, name: string, body: CreateSnapshotBody, options?: CallOptions): Promise<void>;
  /** Deletes one snapshot (aborting it when in progress). */
  deleteSnapshot(repository: string, name: string, options?: CallOptions): Promise<void>;
  /** Starts a restore (`wait_for_completion=false`); OpenSearch refuses one onto an open existing index (terminal 500/400, classified). */
  restoreSnapshot(repository: string, snapshot: string, body: RestoreBody, options?: CallOptions): Promise<void>;
  /** Shard recovery of `indices` (restored ones recover from the snapshot); absent indices are left out. */
  recovery(indices: readonly string[], options?: CallOptions): Promise<IndexRecovery[]>;
}

/** Everything the operator does with one OpenSearch cluster. */
export interface OpenSearchApi extends ClusterApi, IndexApi, TemplateApi, DataStreamApi, SecurityApi, SnapshotApi {
  /** Closes the connections; the instance is unusable afterwards. */
  close(): Promise<void>;
}

/**
 * Counts the requests an {@link OpenSearchHttpApi} sends, by API name in the client's naming (`indices.create`,
 * `cluster.health`, `security.put_role`, …): one call per request, before it is sent, whatever its answer.
 * Must be cheap and must not throw.
 */
export interface RequestCounter {
  count(api: string): void;
}

/** How to reach a cluster. `password` and `caPem` are secrets and never appear in errors. */
export interface OpenSearchConnectOptions {
  readonly urls: readonly string[];
  readonly username: string;
  readonly password: string;
  /** PEM of the CA that signed the node certificates (https URLs). */
  readonly caPem?: string;
  /** Accept any server certificate (tests, self-signed clusters). */
  readonly insecureSkipVerify?: boolean;
  /** Per-request timeout; default 30 s. */
  readonly requestTimeoutMs?: number;
  /** Retries on another node after a connection failure; default 1. */
  readonly maxRetries?: number;
}

/** What {@link OpenSearchHttpApi} is built from. */
export interface OpenSearchHttpApiDeps {
  /** A client made by {@link createOpenSearchClient} (or any configured 3.x client). */
  readonly client: Client;
  /** Counts every request sent; default none. */
  readonly requests?: RequestCounter;
}

/** The client options for a connection: basic auth, TLS from the CA or `insecureSkipVerify`. Pure. */
export function openSearchClientOptions(options: OpenSearchConnectOptions): ClientOptions {
  const tls = options.caPem !== undefined || options.insecureSkipVerify === true;
  return {
    nodes: [...options.urls],
    auth: { username: options.username, password: options.password },
    requestTimeout: options.requestTimeoutMs ?? 30_000,
    maxRetries: options.maxRetries ?? 1,
    ...(tls ? { ssl: { ...(options.caPem === undefined ? {} : { ca: options.caPem }), rejectUnauthorized: options.insecureSkipVerify !== true } } : {}),
  };
}

/** A client for a connection; opens no connection until the first request. */
export function createOpenSearchClient(options: OpenSearchConnectOptions): Client {
  return new Client(openSearchClientOptions(options));
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

const SECURITY = '/_plugins/_security/api';

/** The security plugin's collections this adapter uses. */
type SecurityCollection = 'roles' | 'rolesmapping' | 'internalusers' | 'actiongroups' | 'tenants';

/** The object of each collection, as the client's API names say it (`security.get_role_mapping`). */
const SECURITY_OBJECTS: Readonly<Record<SecurityCollection, string>> = {
  roles: 'role',
  rolesmapping: 'role_mapping',
  internalusers: 'user',
  actiongroups: 'action_group',
  tenants: 'tenant',
};

/** What one request is, for the request counter and for error messages. */
interface Call extends CallDescription {
  /** The API name in the client's naming, e.g. `indices.create`: the label of the request counter. */
  readonly api: string;
}

/** {@link OpenSearchApi} over the `@opensearch-project/opensearch` transport. Holds no state beyond the client. */
export class OpenSearchHttpApi implements OpenSearchApi {
  readonly #client: Client;
  readonly #requests: RequestCounter | undefined;

  constructor(deps: OpenSearchHttpApiDeps) {
    this.#client = deps.client;
    this.#requests = deps.requests;
  }

  /** Builds the client for `options` and the API over it, counting its requests on `deps.requests` when given. */
  static connect(options: OpenSearchConnectOptions, deps: { readonly requests?: RequestCounter } = {}): OpenSearchHttpApi {
    return new OpenSearchHttpApi({ client: createOpenSearchClient(options), ...(deps.requests === undefined ? {} : { requests: deps.requests }) });
  }

  async clusterInfo(options?: CallOptions): Promise<ClusterInfo> {
    const root = await this.#call('GET', '/', { api: 'info', operation: 'read cluster info' }, options);
    const health = await this.#call('GET', '/_cluster/health', { api: 'cluster.health', operation: 'read cluster health' }, options);
    const security = await this.#call('GET', '/_plugins/_security/health', { api: 'security.health', operation: 'probe the security plugin' }, options, [400, 404]);
    return {
      clusterName: stringField(root.body, 'cluster_name') ?? '',
      version: isRecord(root.body) ? (stringField(root.body['version'], 'number') ?? '') : '',
      health: stringField(health.body, 'status') ?? 'unknown',
      securityPlugin: security.status === 200 && stringField(security.body, 'status') === 'UP',
    };
  }

  async getIndex(name: string, options?: CallOptions): Promise<ObservedIndex | undefined> {
    const answer = await this.#call(
      'GET',
      `/${encode(name)}`,
      { api: 'indices.get', operation: `read index ${name}` },
      options,
      [404],
      { flat_settings: 'true', include_defaults: 'true' },
    );
    if (answer.status === 404 || !isRecord(answer.body)) return undefined;
    const entry = answer.body[name];
    if (!isRecord(entry)) return undefined;
    const settings: Record<string, JsonValue> = { ...jsonObject(entry['defaults']), ...jsonObject(entry['settings']) };
    const aliases: Record<string, ObservedAlias> = {};
    for (const [alias, value] of Object.entries(jsonObject(entry['aliases']))) aliases[alias] = observedAlias(value);
    return { name, uuid: typeof settings['index.uuid'] === 'string' ? settings['index.uuid'] : '', settings, mappings: jsonObject(entry['mappings']), aliases };
  }

  async indexHealth(name: string, options?: CallOptions): Promise<string | undefined> {
    const answer = await this.#call('GET', `/_cluster/health/${encode(name)}`, { api: 'cluster.health', operation: `read health of index ${name}` }, options, [404, 408]);
    return answer.status === 200 ? stringField(answer.body, 'status') : undefined;
  }

  async indicesHealth(names: readonly string[], options?: CallOptions): Promise<ReadonlyMap<string, string>> {
    const health = new Map<string, string>();
    for (const batch of nameBatches(names)) {
      // timeout=0s: answer at once. A listed index that does not exist makes it a 408 whose body still has the others.
      const answer = await this.#call('GET', `/_cluster/health/${batch.map(encode).join(',')}`, { api: 'cluster.health', operation: `read health of ${batch.length} indices` }, options, [404, 408], {
        level: 'indices',
        timeout: '0s',
      });
      const indices = isRecord(answer.body) ? answer.body['indices'] : undefined;
      if (!isRecord(indices)) continue;
      for (const name of batch) {
        const status = stringField(indices[name], 'status');
        if (status !== undefined) health.set(name, status);
      }
    }
    return health;
  }

  async createIndex(name: string, body: CreateIndexBody, options?: CallOptions): Promise<CreatedIndex> {
    const answer = await this.#call('PUT', `/${encode(name)}`, { api: 'indices.create', operation: `create index ${name}` }, options, [], undefined, body);
    const created = await this.getIndex(name, options);
    return { uuid: created?.uuid ?? '', shardsAcknowledged: isRecord(answer.body) && answer.body['shards_acknowledged'] === true };
  }

  async putIndexSettings(name: string, settings: Readonly<Record<string, JsonValue>>, options?: CallOptions): Promise<void> {
    await this.#call('PUT', `/${encode(name)}/_settings`, { api: 'indices.put_settings', operation: `update settings of index ${name}` }, options, [], undefined, settings);
  }

  async putMapping(name: string, body: JsonObject, options?: CallOptions): Promise<void> {
    await this.#call('PUT', `/${encode(name)}/_mapping`, { api: 'indices.put_mapping', operation: `update mapping of index ${name}`, badRequestReason: OpenSearchReasons.mappingConflict }, options, [], undefined, body);
  }

  async updateAliases(actions: readonly AliasAction[], options?: CallOptions): Promise<void> {
    if (actions.length === 0) return;
    await this.#call('POST', '/_aliases', { api: 'indices.update_aliases', operation: 'update aliases' }, options, [], undefined, { actions });
  }

  async deleteIndex(name: string, options?: CallOptions): Promise<void> {
    await this.#call('DELETE', `/${encode(name)}`, { api: 'indices.delete', operation: `delete index ${name}` }, options, [404]);
  }

  async getIndexTemplate(name: string, options?: CallOptions): Promise<JsonObject | undefined> {
    const answer = await this.#call('GET', `/_index_template/${encode(name)}`, { api: 'indices.get_index_template', operation: `read index template ${name}` }, options, [404]);
    return namedEntry(answer, 'index_templates', 'index_template', name);
  }

  async putIndexTemplate(name: string, body: IndexTemplateWire, options?: CallOptions): Promise<void> {
    await this.#call('PUT', `/_index_template/${encode(name)}`, { api: 'indices.put_index_template', operation: `put index template ${name}` }, options, [], undefined, body);
  }

  async deleteIndexTemplate(name: string, options?: CallOptions): Promise<void> {
    await this.#call('DELETE', `/_index_template/${encode(name)}`, { api: 'indices.delete_index_template', operation: `delete index template ${name}` }, options, [404]);
  }

  async getComponentTemplate(name: string, options?: CallOptions): Promise<JsonObject | undefined> {
    const answer = await this.#call('GET', `/_component_template/${encode(name)}`, { api: 'cluster.get_component_template', operation: `read component template ${name}` }, options, [404]);
    return namedEntry(answer, 'component_templates', 'component_template', name);
  }

  async putComponentTemplate(name: string, body: ComponentTemplateWire, options?: CallOptions): Promise<void> {
    await this.#call('PUT', `/_component_template/${encode(name)}`, { api: 'cluster.put_component_template', operation: `put component template ${name}` }, options, [], undefined, body);
  }

  async deleteComponentTemplate(name: string, options?: CallOptions): Promise<void> {
    await this.#call('DELETE', `/_component_template/${encode(name)}`, { api: 'cluster.delete_component_template', operation: `delete component template ${name}` }, options, [404]);
  }

  async getDataStream(name: string, options?: CallOptions): Promise<ObservedDataStream | undefined> {
    const answer = await this.#call('GET', `/_data_stream/${encode(name)}`, { api: 'indices.get_data_stream', operation: `read data stream ${name}` }, options, [404]);
    return answer.status === 404 ? undefined : parseDataStream(answer.body, name);
  }

  async createDataStream(name: string, options?: CallOptions): Promise<void> {
    await this.#call('PUT', `/_data_stream/${encode(name)}`, { api: 'indices.create_data_stream', operation: `create data stream ${name}` }, options);
  }

  async deleteDataStream(name: string, options?: CallOptions): Promise<void> {
    await this.#call('DELETE', `/_data_stream/${encode(name)}`, { api: 'indices.delete_data_stream', operation: `delete data stream ${name}` }, options, [404]);
  }

  async getRole(name: string, options?: CallOptions): Promise<ObservedRole | undefined> {
    const entry = await this.#getSecurity('roles', name, options);
    if (entry === undefined) return undefined;
    const indexPermissions = Array.isArray(entry['index_permissions']) ? entry['index_permissions'] : [];
    const tenantPermissions = Array.isArray(entry['tenant_permissions']) ? entry['tenant_permissions'] : [];
    return {
      ...flags(entry),
      cluster_permissions: stringArrayField(entry, 'cluster_permissions'),
      index_permissions: indexPermissions.map((permission) => {
        const dls = stringField(permission, 'dls');
        return {
          index_patterns: stringArrayField(permission, 'index_patterns'),
          allowed_actions: stringArrayField(permission, 'allowed_actions'),
          ...(dls === undefined || dls === '' ? {} : { dls }),
          fls: stringArrayField(permission, 'fls'),
          masked_fields: stringArrayField(permission, 'masked_fields'),
        };
      }),
      tenant_permissions: tenantPermissions.map((permission) => ({
        tenant_patterns: stringArrayField(permission, 'tenant_patterns'),
        allowed_actions: stringArrayField(permission, 'allowed_actions'),
      })),
    };
  }

  async putRole(name: string, body: RoleBody, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('PUT', 'roles', 'role', name, body, options);
  }

  async deleteRole(name: string, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('DELETE', 'roles', 'role', name, undefined, options);
  }

  async getRoleMapping(role: string, options?: CallOptions): Promise<ObservedRoleMapping | undefined> {
    const entry = await this.#getSecurity('rolesmapping', role, options);
    if (entry === undefined) return undefined;
    const description = stringField(entry, 'description');
    return {
      ...flags(entry),
      users: stringArrayField(entry, 'users'),
      backend_roles: stringArrayField(entry, 'backend_roles'),
      hosts: stringArrayField(entry, 'hosts'),
      and_backend_roles: stringArrayField(entry, 'and_backend_roles'),
      ...(description === undefined ? {} : { description }),
    };
  }

  async putRoleMapping(role: string, body: RoleMappingBody, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('PUT', 'rolesmapping', 'role mapping', role, body, options);
  }

  async deleteRoleMapping(role: string, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('DELETE', 'rolesmapping', 'role mapping', role, undefined, options);
  }

  async getUser(name: string, options?: CallOptions): Promise<ObservedUser | undefined> {
    const entry = await this.#getSecurity('internalusers', name, options);
    if (entry === undefined) return undefined;
    const attributes: Record<string, string> = {};
    for (const [key, value] of Object.entries(jsonObject(entry['attributes']))) if (typeof value === 'string') attributes[key] = value;
    return {
      ...flags(entry),
      backend_roles: stringArrayField(entry, 'backend_roles'),
      attributes,
      opendistro_security_roles: stringArrayField(entry, 'opendistro_security_roles'),
    };
  }

  async putUser(name: string, body: UserBody, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('PUT', 'internalusers', 'user', name, body, options);
  }

  async deleteUser(name: string, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('DELETE', 'internalusers', 'user', name, undefined, options);
  }

  async getActionGroup(name: string, options?: CallOptions): Promise<ObservedActionGroup | undefined> {
    const entry = await this.#getSecurity('actiongroups', name, options);
    if (entry === undefined) return undefined;
    return {
      ...flags(entry),
      allowed_actions: stringArrayField(entry, 'allowed_actions'),
      type: stringField(entry, 'type') ?? '',
      description: stringField(entry, 'description') ?? '',
    };
  }

  async putActionGroup(name: string, body: ActionGroupBody, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('PUT', 'actiongroups', 'action group', name, body, options);
  }

  async deleteActionGroup(name: string, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('DELETE', 'actiongroups', 'action group', name, undefined, options);
  }

  async getTenant(name: string, options?: CallOptions): Promise<ObservedTenant | undefined> {
    const entry = await this.#getSecurity('tenants', name, options);
    if (entry === undefined) return undefined;
    return { ...flags(entry), description: stringField(entry, 'description') ?? '' };
  }

  async putTenant(name: string, body: TenantBody, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('PUT', 'tenants', 'tenant', name, body, options);
  }

  async deleteTenant(name: string, options?: CallOptions): Promise<void> {
    await this.#writeSecurity('DELETE', 'tenants', 'tenant', name, undefined, options);
  }

  async getRepository(name: string, options?: CallOptions): Promise<ObservedRepository | undefined> {
    const answer = await this.#call('GET', `/_snapshot/${encode(name)}`, { api: 'snapshot.get_repository', operation: `read snapshot repository ${name}` }, options, [404]);
    if (answer.status === 404 || !isRecord(answer.body)) return undefined;
    return parseRepository(answer.body[name]);
  }

  async putRepository(name: string, body: RepositoryBody, options?: CallOptions): Promise<void> {
    await this.#call('PUT', `/_snapshot/${encode(name)}`, { api: 'snapshot.create_repository', operation: `register snapshot repository ${name}` }, options, [], { verify: 'false' }, body);
  }

  async verifyRepository(name: string, options?: CallOptions): Promise<string[]> {
    const answer = await this.#call('POST', `/_snapshot/${encode(name)}/_verify`, { api: 'snapshot.verify_repository', operation: `verify snapshot repository ${name}` }, options);
    const nodes = isRecord(answer.body) && isRecord(answer.body['nodes']) ? answer.body['nodes'] : {};
    return Object.values(nodes)
      .map((node) => stringField(node, 'name') ?? '')
      .filter((node) => node !== '')
      .sort();
  }

  async deleteRepository(name: string, options?: CallOptions): Promise<void> {
    await this.#call('DELETE', `/_snapshot/${encode(name)}`, { api: 'snapshot.delete_repository', operation: `unregister snapshot repository ${name}` }, options, [404]);
  }

  async listSnapshots(repository: string, pattern: string, options?: CallOptions): Promise<ObservedSnapshot[]> {
    const answer = await this.#call(
      'GET',
      `/_snapshot/${encode(repository)}/${encode(pattern)}`,
      { api: 'snapshot.get', operation: `list snapshots ${pattern} in repository ${repository}` },
      options,
      [404],
      { ignore_unavailable: 'true' },
    );
    return snapshotsOf(answer).sort((a, b) => (a.startTime ?? '').localeCompare(b.startTime ?? '') || a.name.localeCompare(b.name));
  }

  async getSnapshot(repository: string, name: string, options?: CallOptions): Promise<ObservedSnapshot | undefined> {
    const answer = await this.#call('GET', `/_snapshot/${encode(repository)}/${encode(name)}`, { api: 'snapshot.get', operation: `read snapshot ${name} in repository ${repository}` }, options, [404], {
      ignore_unavailable: 'true',
    });
    return snapshotsOf(answer).find((snapshot) => snapshot.name === name);
  }

  async createSnapshot(repository: string, name: string, body: CreateSnapshotBody, options?: CallOptions): Promise<void> {
    await this.#call('PUT', `/_snapshot/${encode(repository)}/${encode(name)}`, { api: 'snapshot.create', operation: `start snapshot ${name} in repository ${repository}` }, options, [], { wait_for_completion: 'false' }, {
      ...body,
      indices: body.indices.join(','),
    });
  }

  async deleteSnapshot(repository: string, name: string, options?: CallOptions): Promise<void> {
    await this.#call('DELETE', `/_snapshot/${encode(repository)}/${encode(name)}`, { api: 'snapshot.delete', operation: `delete snapshot ${name} in repository ${repository}` }, options, [404]);
  }

  async restoreSnapshot(repository: string, snapshot: string, body: RestoreBody, options?: CallOptions): Promise<void> {
    await this.#call(
      'POST',
      `/_snapshot/${encode(repository)}/${encode(snapshot)}/_restore`,
      { api: 'snapshot.restore', operation: `restore snapshot ${snapshot} from repository ${repository}` },
      options,
      [],
      { wait_for_completion: 'false' },
      { ...body, indices: body.indices.join(',') },
    );
  }

  async recovery(indices: readonly string[], options?: CallOptions): Promise<IndexRecovery[]> {
    const recoveries: IndexRecovery[] = [];
    for (const batch of nameBatches(indices)) {
      const answer = await this.#call('GET', `/${batch.map(encode).join(',')}/_recovery`, { api: 'indices.recovery', operation: `read recovery of ${batch.join(',')}` }, options, [404], {
        ignore_unavailable: 'true',
      });
      if (answer.status !== 404) recoveries.push(...parseRecovery(answer.body));
    }
    return recoveries;
  }

  async close(): Promise<void> {
    await this.#client.close();
  }

  async #getSecurity(collection: SecurityCollection, name: string, options: CallOptions | undefined): Promise<Readonly<Record<string, unknown>> | undefined> {
    const answer = await this.#call('GET', `${SECURITY}/${collection}/${encode(name)}`, { api: `security.get_${SECURITY_OBJECTS[collection]}`, operation: `read ${collection} ${name}` }, options, [404]);
    if (answer.status === 404 || !isRecord(answer.body)) return undefined;
    const entry = answer.body[name];
    return isRecord(entry) ? entry : undefined;
  }

  async #writeSecurity(
    method: 'PUT' | 'DELETE',
    collection: SecurityCollection,
    kind: SecurityKind,
    name: string,
    body: RoleBody | RoleMappingBody | UserBody | ActionGroupBody | TenantBody | undefined,
    options: CallOptions | undefined,
  ): Promise<void> {
    // Protected objects are refused here, before any request, whatever the caller checked.
    const refusal = checkSecurityObject(kind, name);
    if (refusal !== undefined) throw tenancyError(refusal);
    const operation = `${method === 'PUT' ? 'put' : 'delete'} ${kind} ${name}`;
    await this.#call(method, `${SECURITY}/${collection}/${encode(name)}`, { api: `security.${method === 'PUT' ? 'put' : 'delete'}_${SECURITY_OBJECTS[collection]}`, operation }, options, method === 'DELETE' ? [404] : [], undefined, body);
  }

  /**
   * One request. Statuses in `accept` resolve like a 2xx (a GET of something absent, a delete of something gone);
   * every other failure is classified. Aborting `options.signal` aborts the request.
   */
  async #call(
    method: string,
    path: string,
    call: Call,
    options: CallOptions | undefined,
    accept: readonly number[] = [],
    querystring?: Readonly<Record<string, string>>,
    body?: object,
  ): Promise<Answer> {
    const signal = options?.signal;
    signal?.throwIfAborted();
    this.#requests?.count(call.api);
    const request = this.#client.transport.request(
      { method, path, ...(body === undefined ? {} : { body: body as Record<string, unknown> }), ...(querystring === undefined ? {} : { querystring: { ...querystring } }) },
      { ignore: [...accept] },
    );
    const abort = (): void => {
      request.abort();
    };
    signal?.addEventListener('abort', abort, { once: true });
    try {
      const response = await request;
      const responseBody: unknown = response.body;
      return { status: response.statusCode ?? 0, body: responseBody };
    } catch (err) {
      if (signal?.aborted === true) throw signal.reason;
      throw classifyError(err, call);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }
}

function encode(name: string): string {
  return encodeURIComponent(name);
}

function flags(entry: Readonly<Record<string, unknown>>): { reserved: boolean; static: boolean; hidden: boolean } {
  return { reserved: flagField(entry, 'reserved'), static: flagField(entry, 'static'), hidden: flagField(entry, 'hidden') };
}

function jsonObject(value: unknown): JsonObject {
  // Parsed from a JSON response, so every value is a JsonValue.
  return isRecord(value) ? (value as JsonObject) : {};
}

function observedAlias(value: JsonValue): ObservedAlias {
  const filter = isRecord(value) ? value['filter'] : undefined;
  const indexRouting = stringField(value, 'index_routing');
  const searchRouting = stringField(value, 'search_routing');
  const isWriteIndex = isRecord(value) ? value['is_write_index'] : undefined;
  return {
    ...(isRecord(filter) ? { filter: filter } : {}),
    ...(indexRouting === undefined ? {} : { indexRouting }),
    ...(searchRouting === undefined ? {} : { searchRouting }),
    ...(typeof isWriteIndex === 'boolean' ? { isWriteIndex } : {}),
  };
}

function snapshotsOf(answer: Answer): ObservedSnapshot[] {
  if (answer.status === 404 || !isRecord(answer.body) || !Array.isArray(answer.body['snapshots'])) return [];
  return answer.body['snapshots'].map(parseSnapshot).filter((snapshot): snapshot is ObservedSnapshot => snapshot !== undefined);
}

function namedEntry(answer: Answer, list: string, field: string, name: string): JsonObject | undefined {
  if (answer.status === 404 || !isRecord(answer.body)) return undefined;
  const entries = answer.body[list];
  if (!Array.isArray(entries)) return undefined;
  const entry: unknown = entries.find((item) => stringField(item, 'name') === name);
  return isRecord(entry) && isRecord(entry[field]) ? (entry[field] as JsonObject) : undefined;
}
