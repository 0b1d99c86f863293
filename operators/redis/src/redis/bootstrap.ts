/**
 * The redis.conf lines every member starts with, so the operator has its own admin user from the first start:
 * users can then restrict or disable `default` without locking the operator (or replication) out. Pure.
 *
 * Two outputs, because of where they may be stored:
 * - {@link aclBootstrapLines} holds users with `#<sha256>` passwords only: safe for a ConfigMap.
 * - {@link replicationAuthLines} holds `masterauth`, which redis.conf only takes in clear text: it belongs in a
 *   Secret-mounted file pulled in with `include`.
 */
import { passwordHash } from './acl.ts';

/** A user name and its password (a secret). */
export interface Credentials {
  readonly username: string;
  readonly password: string;
}

/** The users a member starts with. */
export interface BootstrapUsers {
  /** The operator's admin user: every command, key and channel. */
  readonly operator: Credentials;
  /** The user replicas authenticate as to their primary: only what replication needs. */
  readonly replication: Credentials;
  /** The `default` user's password (the RedisReplication's auth); without it `default` keeps Redis's defaults. */
  readonly defaultPassword?: string;
}

/** Rules of the operator's admin user. */
export const OPERATOR_RULES = ['~*', '&*', '+@all'] as const;
/** Rules of the replication user: the commands a replica sends to its primary. */
export const REPLICATION_RULES = ['+psync', '+replconf', '+ping'] as const;

/**
 * `user` lines for redis.conf: the operator's user, the replication user and, with `defaultPassword`, the
 * `default` user with that password and full access. Passwords appear only as `#<sha256>`. Usernames must have
 * passed `usernameProblem`. Pure.
 */
export function aclBootstrapLines(users: BootstrapUsers): string[] {
  const line = (username: string, password: string, rules: readonly string[]): string =>
    ['user', username, 'on', `#${passwordHash(password)}`, ...rules].join(' ');
  const lines = [line(users.operator.username, users.operator.password, OPERATOR_RULES), line(users.replication.username, users.replication.password, REPLICATION_RULES)];
  if (users.defaultPassword !== undefined) lines.push(line('default', users.defaultPassword, OPERATOR_RULES));
  return lines;
}

/** A redis.conf argument in double quotes with `\\`, `"` and non-printable characters escaped. Pure. */
export function quoteConfigValue(value: string): string {
  let out = '"';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (byte >= 0x20 && byte < 0x7f) out += ch;
    else out += `\\x${byte.toString(16).padStart(2, '0')}`;
  }
  return `${out}"`;
}

/**
 * `masteruser` and `masterauth` for redis.conf, so a member that restarts as a replica can authenticate to its
 * primary. Contains the replication password in clear text: store it only in a Secret. Pure.
 */
export function replicationAuthLines(replication: Credentials): string[] {
  return [`masteruser ${replication.username}`, `masterauth ${quoteConfigValue(replication.password)}`];
}
