// Fakes of this operator's own interfaces for the reconcilers' unit tests: a Kubernetes REST transport that records
// every request and keeps the status each object was patched to, and an in-memory Redis behind RedisMemberClient
// whose members replicate as they are told. One shared call log tells the order of Kubernetes and Redis writes.
// Not used outside tests.
import type { KubernetesObject, V1Pod, V1Secret } from '@kubernetes/client-node';
import { Client, requestFor, silentLogger } from '@domain-operators/reconcile';
import type { EventInput, ReconcileContext, Recorder, RestRequest, RestTransport } from '@domain-operators/reconcile';
import type { AclUserInfo } from '../redis/acl.ts';
import type { RedisMemberClient } from '../redis/client.ts';
import type { MemberInfo } from '../redis/info.ts';
import type { MemberAddress } from '../redis/topology.ts';
import { CONTAINER_NAME, INTERNAL_KEYS, objectNames, REPLICATION_LABEL, ROLE_LABEL } from '../redis/manifests.ts';
import type { RoleLabel } from '../redis/manifests.ts';
import { REVISION_LABEL } from './rollout.ts';

/** One write, in order: a Kubernetes request or a Redis command on a member (by host). */
export type Call = { readonly to: 'kube'; readonly method: string; readonly path: string; readonly body: unknown } | { readonly to: 'redis'; readonly host: string; readonly op: string; readonly args: readonly string[] };

/** A status as the fake apiserver holds it after the merge patches so far. */
export type Status = Record<string, unknown>;

/**
 * A {@link RestTransport} that records every request in `calls` and answers it as an apiserver would for these
 * tests: a merge patch of a `/status` subresource is merged into the status kept for that path (returned with the
 * object's path), anything else is echoed.
 */
export class FakeKube implements RestTransport {
  readonly #calls: Call[];
  readonly #statuses = new Map<string, Status>();

  constructor(calls: Call[]) {
    this.#calls = calls;
  }

  /** A Client over this transport. */
  client(): Client {
    return new Client({ rest: this });
  }

  json(request: RestRequest): Promise<unknown> {
    this.#calls.push({ to: 'kube', method: request.method, path: request.path, body: request.body });
    if (request.method === 'PATCH' && request.path.endsWith('/status')) {
      const patch = (request.body as { status: Status }).status;
      const merged = Object.entries({ ...this.#statuses.get(request.path), ...patch }).filter(([, value]) => value !== null);
      const next: Status = Object.fromEntries(merged);
      this.#statuses.set(request.path, next);
      return Promise.resolve({ status: next });
    }
    return Promise.resolve(request.body ?? {});
  }

  stream(): never {
    throw new Error('no watches in these tests');
  }

  /** `object` with the status the apiserver holds for it (as the next reconcile would read it from the cache). */
  withStatus<T extends KubernetesObject>(object: T, plural: string): T {
    const status = this.#statuses.get(statusPath(object, plural));
    return status === undefined ? object : { ...object, status };
  }

  /** The status writes so far to `object`, oldest first. */
  statusWrites(object: KubernetesObject, plural: string): Status[] {
    const path = statusPath(object, plural);
    return this.#calls.flatMap((c) => (c.to === 'kube' && c.method === 'PATCH' && c.path === path ? [(c.body as { status: Status }).status] : []));
  }
}

function statusPath(object: KubernetesObject, plural: string): string {
  return `/apis/redis.domain-operators.io/v1alpha1/namespaces/${object.metadata?.namespace ?? ''}/${plural}/${object.metadata?.name ?? ''}/status`;
}

/** A member as the fake Redis holds it. */
interface FakeMember {
  role: 'primary' | 'replica';
  primaryHost: string;
  config: Record<string, string>;
  users: Map<string, readonly string[]>;
}

/** An error as a member that does not answer throws it. */
export class MemberDown extends Error {
  override readonly name = 'MemberDown';
}

/**
 * Members in memory by host: each answers INFO with its role and link (a replica is linked to whatever it was told to
 * replicate from, when that member answers), takes REPLICAOF, CONFIG SET and ACL SETUSER/DELUSER, and records every
 * write in the shared call log. A host listed in `down` rejects every command; `failNext` arms one failure.
 */
export class FakeRedis {
  readonly members = new Map<string, FakeMember>();
  readonly down = new Set<string>();
  readonly #calls: Call[];
  readonly #failures = new Map<string, Error>();

  constructor(calls: Call[]) {
    this.#calls = calls;
  }

  /** Adds a member at `host`: a primary, or a replica of `primaryHost`. */
  add(host: string, primaryHost?: string): void {
    this.members.set(host, { role: primaryHost === undefined ? 'primary' : 'replica', primaryHost: primaryHost ?? '', config: {}, users: new Map() });
  }

  /** The next command `op` on `host` rejects with `error`. */
  failNext(host: string, op: string, error: Error): void {
    this.#failures.set(`${host}|${op}`, error);
  }

  /** The member at `host`; throws when there is none. */
  member(host: string): FakeMember {
    const m = this.members.get(host);
    if (m === undefined) throw new Error(`no member at ${host}`);
    return m;
  }

  /** The {@link RedisMemberClient} the reconcilers get (the credentials are not checked). */
  client(): RedisMemberClient {
    const reply = <T>(address: MemberAddress, op: string, args: readonly string[], write: boolean, run: (m: FakeMember) => T): Promise<T> => {
      const failure = this.#failures.get(`${address.host}|${op}`);
      this.#failures.delete(`${address.host}|${op}`);
      if (failure !== undefined) return Promise.reject(failure);
      if (this.down.has(address.host)) return Promise.reject(new MemberDown(`${op} on ${address.host}: connect ECONNREFUSED`));
      if (write) this.#calls.push({ to: 'redis', host: address.host, op, args });
      return Promise.resolve(run(this.member(address.host)));
    };
    return {
      info: (a) => reply(a, 'info', [], false, (m) => this.#info(m)),
      ping: (a) => reply(a, 'ping', [], false, () => undefined),
      replicaOf: (a, primary) =>
        reply(a, 'replicaOf', [primary.host], true, (m) => {
          m.role = 'replica';
          m.primaryHost = primary.host;
        }),
      replicaOfNoOne: (a) =>
        reply(a, 'replicaOfNoOne', [], true, (m) => {
          m.role = 'primary';
          m.primaryHost = '';
        }),
      wait: (a) => reply(a, 'wait', [], false, () => [...this.members.values()].filter((r) => r.role === 'replica' && r.primaryHost === a.host).length),
      pauseWrites: (a) => reply(a, 'pauseWrites', [], true, () => undefined),
      unpauseWrites: (a) => reply(a, 'unpauseWrites', [], true, () => undefined),
      configGet: (a, pattern) => reply(a, 'configGet', [pattern], false, (m) => ({ ...m.config })),
      configSet: (a, params) =>
        reply(a, 'configSet', Object.entries(params).flat(), true, (m) => {
          Object.assign(m.config, params);
        }),
      aclSetUser: (a, args) =>
        reply(a, 'aclSetUser', args, true, (m) => {
          m.users.set(args[0] ?? '', args);
        }),
      aclGetUser: (a, username) => reply(a, 'aclGetUser', [username], false, (m): AclUserInfo | undefined => (m.users.has(username) ? { flags: ['on'], passwords: [], commands: '', keys: '', channels: '' } : undefined)),
      aclDelUser: (a, username) => reply(a, 'aclDelUser', [username], true, (m) => m.users.delete(username)),
    };
  }

  #info(m: FakeMember): MemberInfo {
    const replid = 'a'.repeat(40);
    if (m.role === 'primary') {
      const replicas = [...this.members.entries()].filter(([, r]) => r.role === 'replica' && r.primaryHost === this.#hostOf(m)).map(([ip]) => ({ ip, port: 6379, state: 'online', offset: 100, lag: 0 }));
      return { replication: { role: 'primary', offset: 100, replid, replicas }, keys: 1, runId: 'r'.repeat(40) };
    }
    const linkUp = this.members.get(m.primaryHost)?.role === 'primary' && !this.down.has(m.primaryHost);
    return { replication: { role: 'replica', primaryHost: m.primaryHost, primaryPort: 6379, linkUp, syncInProgress: false, offset: 100, replid }, keys: 1 };
  }

  #hostOf(m: FakeMember): string {
    for (const [host, member] of this.members) if (member === m) return host;
    return '';
  }
}

/** The IP of member `ordinal` in these tests. */
export function memberIp(ordinal: number): string {
  return `10.0.0.${ordinal + 10}`;
}

/** A ready member Pod `<replication>-<ordinal>` of the StatefulSet revision `revision`, as the Pod cache holds it. */
export function memberPod(replication: string, ordinal: number, options: { readonly revision: string; readonly role?: RoleLabel; readonly restarts?: number; readonly ready?: boolean }): V1Pod {
  const name = `${objectNames(replication).statefulSet}-${ordinal}`;
  return {
    metadata: {
      namespace: 'ns',
      name,
      uid: `uid-${name}`,
      labels: {
        'app.kubernetes.io/managed-by': 'redis-operator',
        [REPLICATION_LABEL]: replication,
        [REVISION_LABEL]: options.revision,
        ...(options.role !== undefined && { [ROLE_LABEL]: options.role }),
      },
    },
    status: {
      podIP: memberIp(ordinal),
      conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }],
      containerStatuses: [{ name: CONTAINER_NAME, restartCount: options.restarts ?? 0, image: 'redis', imageID: '', ready: options.ready !== false }],
    },
  };
}

/** The internal Secret of RedisReplication `replication` (the operator's and the replication user's passwords). */
export function internalSecret(replication: string): V1Secret {
  return {
    metadata: { namespace: 'ns', name: objectNames(replication).internalSecret, resourceVersion: '1' },
    stringData: { [INTERNAL_KEYS.operatorPassword]: 'operator-pw', [INTERNAL_KEYS.replicationPassword]: 'replication-pw' },
  };
}

/** A Secret `name` holding `password` under `password`. */
export function passwordSecret(name: string, password: string): V1Secret {
  return { metadata: { namespace: 'ns', name, resourceVersion: '1' }, stringData: { password } };
}

/** A recorder that keeps what it was given. */
export class RecordingEvents implements Recorder {
  readonly events: EventInput[] = [];
  record(_regarding: KubernetesObject, event: EventInput): void {
    this.events.push(event);
  }
}

/** A reconcile context outside a controller. */
export function reconcileContext(object: KubernetesObject): ReconcileContext {
  return { request: requestFor(object), reconcileId: 'test', log: silentLogger, signal: new AbortController().signal };
}

/** The Redis writes of `calls` (op and host), in order. */
export function redisWrites(calls: readonly Call[], op?: string): string[] {
  return calls.flatMap((c) => (c.to === 'redis' && (op === undefined || c.op === op) ? [`${c.op} ${c.host}`] : []));
}
