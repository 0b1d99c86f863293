/**
 * The operator's calls to single Redis members, behind {@link RedisMemberClient}, and its implementation over
 * ioredis 6 ({@link IoredisMemberClient}).
 */
import { Reasons, TerminalError } from '@domain-operators/reconcile';
import { Redis } from 'ioredis';
import { parseAclGetUser } from './acl.ts';
import type { AclUserInfo } from './acl.ts';
import type { Credentials } from './bootstrap.ts';
import { MEMBER_REASONS, RedisMemberError } from './errors.ts';
import type { RedisFailureReason } from './errors.ts';
import { parseMemberInfo } from './info.ts';
import type { MemberInfo } from './info.ts';
import type { MemberAddress } from './topology.ts';

/** Replication calls on one member. Each call is independent; none is retried. */
export interface ReplicationClient {
  /** `INFO replication keyspace server`, parsed (with the member's `run_id`). Read-only. */
  info(member: MemberAddress): Promise<MemberInfo>;
  /** `PING`; resolves when the member answers. Read-only. */
  ping(member: MemberAddress): Promise<void>;
  /** `REPLICAOF host port`. Idempotent: Redis answers OK without resyncing when already following it. */
  replicaOf(member: MemberAddress, primary: MemberAddress): Promise<void>;
  /** `REPLICAOF NO ONE`: promotes the member, keeping its data and offset. Idempotent. */
  replicaOfNoOne(member: MemberAddress): Promise<void>;
  /**
   * On a primary: waits until at least `numReplicas` replicas have acknowledged its replication offset as of the
   * call (whoever wrote it), or `timeoutMs` passes; returns how many had. Throws `RedisCommandFailed` on a replica.
   */
  wait(member: MemberAddress, numReplicas: number, timeoutMs: number): Promise<number>;
  /**
   * `CLIENT PAUSE timeoutMs WRITE`: the member holds every client's write for up to `timeoutMs`, so no client write
   * changes its data set, while reads, replication, INFO and WAIT go on (WAIT's acknowledgement requests still move
   * the offset, on the replicas alike). A held
   * write runs when the pause ends, and fails with READONLY if the member has become a replica meanwhile. A new
   * pause replaces the timeout of one in force.
   */
  pauseWrites(member: MemberAddress, timeoutMs: number): Promise<void>;
  /** `CLIENT UNPAUSE`: ends a pause now. Idempotent. */
  unpauseWrites(member: MemberAddress): Promise<void>;
}

/** Live configuration calls on one member. */
export interface ConfigClient {
  /** `CONFIG GET pattern` as a record. Read-only. */
  configGet(member: MemberAddress, pattern: string): Promise<Record<string, string>>;
  /** `CONFIG SET` of all `params` at once (atomic in Redis 7). A refused value throws `TerminalError` `InvalidConfig`. */
  configSet(member: MemberAddress, params: Readonly<Record<string, string>>): Promise<void>;
}

/** ACL user calls on one member. */
export interface AclClient {
  /** `ACL SETUSER` with `args` (from `aclSetUserArgs`). A refused rule throws `TerminalError` `InvalidAclRule`. */
  aclSetUser(member: MemberAddress, args: readonly string[]): Promise<void>;
  /** `ACL GETUSER`; `undefined` when there is no such user. Read-only. */
  aclGetUser(member: MemberAddress, username: string): Promise<AclUserInfo | undefined>;
  /** `ACL DELUSER`; true when the user existed. Idempotent. */
  aclDelUser(member: MemberAddress, username: string): Promise<boolean>;
}

/**
 * Everything the operator asks of a Redis member. Failures throw {@link RedisMemberError} with a reason
 * (`MemberUnreachable`, `PrimaryUnavailable`, `AuthenticationFailed`, `NotAuthorized`, `RedisCommandFailed`),
 * or `TerminalError` for input Redis refuses. Messages never contain passwords.
 */
export interface RedisMemberClient extends ReplicationClient, ConfigClient, AclClient {}

/** Options of {@link IoredisMemberClient}. */
export interface IoredisMemberClientOptions {
  /** The operator's own admin ACL user (never `default`). The password is a secret. */
  readonly credentials: Credentials;
  /** Default 2000. */
  readonly connectTimeoutMs?: number;
  /** Per command, default 2000; `wait` extends it by its own timeout. */
  readonly commandTimeoutMs?: number;
}

interface CallExtras {
  /** Added to the command timeout (for commands that block on purpose). */
  readonly extraCommandMs?: number;
  /** Strings to mask in error messages. */
  readonly secrets?: readonly string[];
}

/** How often `wait` asks the replicas for acknowledgements. */
const WAIT_STEP_MS = 50;

const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

function isReplyError(err: unknown): err is Error {
  return err instanceof Error && err.name === 'ReplyError';
}

function codeOf(err: Error): string | undefined {
  const code: unknown = Object.getOwnPropertyDescriptor(err, 'code')?.value;
  return typeof code === 'string' ? code : undefined;
}

/** The error reply's first word, e.g. `WRONGPASS`, `NOPERM`, `ERR`. */
function replyCode(message: string): string {
  return message.split(' ', 1)[0] ?? '';
}

/**
 * Classifies a failure of `what` on `member`: `err` is what the command threw, `connectionError` the last
 * error the connection reported (ioredis reports refused connections and failed AUTH only there). Every
 * string in `secrets` is masked in the message. The ioredis error is not kept as `cause`: it carries the
 * command's arguments, passwords included. Pure.
 */
export function classifyRedisError(err: unknown, connectionError: Error | undefined, member: string, what: string, secrets: readonly string[] = []): Error {
  const original = connectionError ?? (err instanceof Error ? err : new Error(String(err)));
  const message = secrets.reduce((text, secret) => (secret === '' ? text : text.split(secret).join('***')), original.message);
  const fail = (reason: RedisFailureReason, detail: string): RedisMemberError => new RedisMemberError(reason, member, `${what} on ${member}: ${detail}`);
  if (isReplyError(original) || /^[A-Z]+ /.test(message)) {
    const code = replyCode(message);
    if (code === 'WRONGPASS' || code === 'NOAUTH') return fail(Reasons.authenticationFailed, 'the operator user was refused (WRONGPASS)');
    if (code === 'NOPERM') return fail(Reasons.notAuthorized, message);
    if (code === 'LOADING') return fail(MEMBER_REASONS.unreachable, 'loading its data set');
    if (code === 'MASTERDOWN') return fail(MEMBER_REASONS.primaryUnavailable, message);
    if (message.startsWith('ERR Error in ACL SETUSER modifier')) return new TerminalError(`${what} on ${member}: ${message}`, MEMBER_REASONS.invalidAclRule);
    if (/^ERR (CONFIG SET failed|Unknown option|Invalid argument)/.test(message)) return new TerminalError(`${what} on ${member}: ${message}`, MEMBER_REASONS.invalidConfig);
    return fail(MEMBER_REASONS.commandFailed, message);
  }
  const code = codeOf(original);
  if ((code !== undefined && CONNECTION_CODES.has(code)) || /Connection is closed|timed out|ETIMEDOUT|Stream isn't writeable/i.test(message)) {
    return fail(MEMBER_REASONS.unreachable, message);
  }
  return fail(MEMBER_REASONS.commandFailed, message);
}

function asString(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  throw new TypeError(`${what}: expected a string reply`);
}

/**
 * {@link RedisMemberClient} over ioredis: one short-lived connection per call, authenticated as the operator's
 * user, with connect and command timeouts and no retries or offline queue (the reconciler retries with backoff).
 * Holds no connection between calls, so it needs no closing; the constructor does no I/O.
 */
export class IoredisMemberClient implements RedisMemberClient {
  readonly #options: IoredisMemberClientOptions;

  constructor(options: IoredisMemberClientOptions) {
    this.#options = options;
  }

  async info(member: MemberAddress): Promise<MemberInfo> {
    const reply = await this.#call(member, 'INFO', async (c) => asString(await c.call('INFO', 'replication', 'keyspace', 'server'), 'INFO'));
    return parseMemberInfo(reply);
  }

  async ping(member: MemberAddress): Promise<void> {
    await this.#call(member, 'PING', (c) => c.call('PING'));
  }

  async replicaOf(member: MemberAddress, primary: MemberAddress): Promise<void> {
    await this.#call(member, 'REPLICAOF', (c) => c.call('REPLICAOF', primary.host, String(primary.port)));
  }

  async replicaOfNoOne(member: MemberAddress): Promise<void> {
    await this.#call(member, 'REPLICAOF NO ONE', (c) => c.call('REPLICAOF', 'NO', 'ONE'));
  }

  async wait(member: MemberAddress, numReplicas: number, timeoutMs: number): Promise<number> {
    return this.#call(
      member,
      'WAIT',
      async (c) => {
        const acked = async (): Promise<{ target: number; count: number } | undefined> => {
          const info = parseMemberInfo(asString(await c.call('INFO', 'replication'), 'INFO')).replication;
          if (info.role !== 'primary') return undefined;
          return { target: info.offset, count: info.replicas.filter((r) => r.offset >= info.offset).length };
        };
        const first = await acked();
        if (first === undefined) throw new Error('ERR WAIT asked of a replica');
        let count = first.count;
        for (let waited = 0; count < numReplicas && waited < timeoutMs; waited += WAIT_STEP_MS) {
          // WAIT for more replicas than exist: blocks one step server-side and makes the replicas send their acks.
          await c.call('WAIT', String(numReplicas + 1000), String(WAIT_STEP_MS));
          const info = parseMemberInfo(asString(await c.call('INFO', 'replication'), 'INFO')).replication;
          count = info.role === 'primary' ? info.replicas.filter((r) => r.offset >= first.target).length : 0;
        }
        return count;
      },
      { extraCommandMs: timeoutMs + WAIT_STEP_MS },
    );
  }

  async pauseWrites(member: MemberAddress, timeoutMs: number): Promise<void> {
    await this.#call(member, 'CLIENT PAUSE', (c) => c.call('CLIENT', 'PAUSE', String(timeoutMs), 'WRITE'));
  }

  async unpauseWrites(member: MemberAddress): Promise<void> {
    await this.#call(member, 'CLIENT UNPAUSE', (c) => c.call('CLIENT', 'UNPAUSE'));
  }

  async configGet(member: MemberAddress, pattern: string): Promise<Record<string, string>> {
    const reply = await this.#call(member, 'CONFIG GET', (c) => c.call('CONFIG', 'GET', pattern));
    const out: Record<string, string> = {};
    if (Array.isArray(reply)) {
      for (let i = 0; i + 1 < reply.length; i += 2) out[asString(reply[i], 'CONFIG GET')] = asString(reply[i + 1], 'CONFIG GET');
    }
    return out;
  }

  async configSet(member: MemberAddress, params: Readonly<Record<string, string>>): Promise<void> {
    const args = Object.entries(params).flat();
    if (args.length === 0) return;
    await this.#call(member, `CONFIG SET ${Object.keys(params).join(' ')}`, (c) => c.call('CONFIG', 'SET', ...args));
  }

  async aclSetUser(member: MemberAddress, args: readonly string[]): Promise<void> {
    // Redis quotes a refused modifier; a password modifier is always valid, but never let one through.
    const secrets = args.filter((a) => a.startsWith('>') || a.startsWith('<')).map((a) => a.slice(1));
    await this.#call(member, `ACL SETUSER ${args[0] ?? ''}`, (c) => c.call('ACL', 'SETUSER', ...args), { secrets });
  }

  async aclGetUser(member: MemberAddress, username: string): Promise<AclUserInfo | undefined> {
    return parseAclGetUser(await this.#call(member, 'ACL GETUSER', (c) => c.call('ACL', 'GETUSER', username)));
  }

  async aclDelUser(member: MemberAddress, username: string): Promise<boolean> {
    return (await this.#call(member, 'ACL DELUSER', (c) => c.call('ACL', 'DELUSER', username))) === 1;
  }

  async #call<T>(member: MemberAddress, what: string, command: (connection: Redis) => Promise<T>, extra: CallExtras = {}): Promise<T> {
    const name = `${member.host}:${member.port}`;
    const connection = new Redis({
      host: member.host,
      port: member.port,
      username: this.#options.credentials.username,
      password: this.#options.credentials.password,
      connectionName: 'domain-operators-redis-operator',
      lazyConnect: true,
      connectTimeout: this.#options.connectTimeoutMs ?? 2_000,
      commandTimeout: (this.#options.commandTimeoutMs ?? 2_000) + (extra.extraCommandMs ?? 0),
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
      enableReadyCheck: false,
      autoResubscribe: false,
    });
    let connectionError: Error | undefined;
    // ioredis reports refused connections and failed AUTH as 'error' events; keep the last for classification.
    connection.on('error', (err: Error) => {
      connectionError = err;
    });
    try {
      await connection.connect();
      return await command(connection);
    } catch (err) {
      throw classifyRedisError(err, isReplyError(err) ? undefined : connectionError, name, what, [this.#options.credentials.password, ...(extra.secrets ?? [])]);
    } finally {
      connection.disconnect();
    }
  }
}
