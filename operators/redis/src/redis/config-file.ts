/**
 * The members' redis.conf: what the operator sets itself, the user's `spec.config`, and the bootstrap ACL users;
 * and the split of `spec.config` into parameters Redis can change live (CONFIG SET) and those that need a restart.
 * Pure.
 */
import { createHash } from 'node:crypto';
import { aclBootstrapLines, quoteConfigValue } from './bootstrap.ts';
import type { BootstrapUsers } from './bootstrap.ts';

/** Where the ConfigMap with redis.conf is mounted in the container. */
export const CONFIG_DIR = '/etc/redis';
/** Where the Secret with the replication credentials (`masterauth`) is mounted. */
export const SECRET_DIR = '/etc/redis-secret';
/** The data directory (a volume). */
export const DATA_DIR = '/data';
/** The file in the internal Secret that redis.conf includes. */
export const REPLICATION_AUTH_FILE = 'replication-auth.conf';
/** The file in the same mount with the replication user's password alone, which the members' probes authenticate with. */
export const REPLICATION_PASSWORD_FILE = 'replication-password';
/** The port every member listens on. */
export const REDIS_PORT = 6379;

/**
 * Parameters Redis 7 refuses to change with CONFIG SET (`IMMUTABLE_CONFIG` in its config.c, plus directives that
 * are not parameters): a change to one of them is written to the config file and rolled out by restarting members.
 */
export const STATIC_CONFIG_KEYS: ReadonlySet<string> = new Set([
  'always-show-logo',
  'appenddirname',
  'appendfilename',
  'cluster-config-file',
  'cluster-enabled',
  'cluster-port',
  'databases',
  'disable-thp',
  'enable-debug-command',
  'enable-module-command',
  'enable-protected-configs',
  'ignore-warnings',
  'io-threads',
  'io-threads-do-reads',
  'loadmodule',
  'set-proc-title',
  'syslog-enabled',
  'syslog-facility',
  'syslog-ident',
  'tcp-backlog',
  'unixsocketperm',
]);

/** `spec.config` split by how a change is applied. */
export interface SplitConfig {
  /** Applied live on every member with CONFIG SET (and written to the file for restarts). */
  readonly dynamic: Readonly<Record<string, string>>;
  /** Written to the file only; a change restarts the members. */
  readonly static: Readonly<Record<string, string>>;
}

/** Splits `config` (keys lower-cased, as Redis treats them) into dynamic and static parameters. Pure. */
export function splitConfig(config: Readonly<Record<string, string>> | undefined): SplitConfig {
  const dynamic: Record<string, string> = {};
  const fixed: Record<string, string> = {};
  for (const [rawKey, value] of Object.entries(config ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const key = rawKey.toLowerCase();
    if (STATIC_CONFIG_KEYS.has(key)) fixed[key] = value;
    else dynamic[key] = value;
  }
  return { dynamic, static: fixed };
}

/**
 * Defaults the operator adds unless `spec.config` sets them. Without storage a member must never reload an old
 * snapshot after a restart (it would come back as a primary with stale data and resynchronise its replicas from
 * it): no snapshots, no AOF, and replication's own RDB files deleted.
 */
export function configDefaults(persistent: boolean): Record<string, string> {
  return persistent ? {} : { save: '""', appendonly: 'no', 'rdb-del-sync-files': 'yes' };
}

/**
 * Write fencing, set on every member because any of them may become the primary: a primary refuses writes while
 * fewer than `minReplicasToWrite` replicas acknowledged within `maxLagSeconds` (0 turns it off).
 */
export interface WriteFencing {
  readonly minReplicasToWrite: number;
  readonly maxLagSeconds: number;
}

/**
 * The redis.conf parameters of `fencing` (`min-replicas-to-write`, `min-replicas-max-lag`); both are dynamic, so a
 * change is applied live with CONFIG SET and written to the file for restarts. Pure.
 */
export function fencingConfig(fencing: WriteFencing): Record<string, string> {
  return { 'min-replicas-max-lag': String(fencing.maxLagSeconds), 'min-replicas-to-write': String(fencing.minReplicasToWrite) };
}

/** Inputs of {@link redisConf}. */
export interface RedisConfInput {
  readonly config: Readonly<Record<string, string>> | undefined;
  readonly persistent: boolean;
  readonly users: BootstrapUsers;
  /** Written after `config` (whose schema refuses these keys); absent writes none (Redis' default: off). */
  readonly fencing?: WriteFencing;
}

function configLine(key: string, value: string): string {
  // Values are written as given, so multi-argument parameters (`save 3600 1 300 100`) work; a line break would
  // start a new directive, so such a value is quoted with its control characters escaped.
  return /[\r\n]/.test(value) ? `${key} ${quoteConfigValue(value)}` : `${key} ${value}`;
}

/**
 * The redis.conf of every member. Passwords appear only as SHA-256 hashes (the replication password comes from
 * an `include` of the Secret-mounted file), so the text may live in a ConfigMap. Pure and deterministic.
 */
export function redisConf(input: RedisConfInput): string {
  const user = Object.fromEntries(Object.entries(input.config ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const merged = { ...configDefaults(input.persistent), ...user, ...(input.fencing === undefined ? {} : fencingConfig(input.fencing)) };
  const lines = [
    '# Written by the redis operator: edit spec.config of the RedisReplication instead.',
    'bind 0.0.0.0 -::*',
    `port ${REDIS_PORT}`,
    `dir ${DATA_DIR}`,
    'protected-mode no',
    ...Object.keys(merged)
      .sort()
      .map((key) => configLine(key, merged[key] ?? '')),
    ...aclBootstrapLines(input.users),
    `include ${SECRET_DIR}/${REPLICATION_AUTH_FILE}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * A hash of everything in the member configuration whose change needs a restart: the static parameters and the
 * operator's and replication users (not the default user's password, not dynamic parameters: those are applied
 * live). Put on the Pod template, so only such a change rolls the members. Pure.
 */
export function restartHash(input: RedisConfInput): string {
  const { static: fixed } = splitConfig(input.config);
  const material = JSON.stringify({
    static: fixed,
    persistent: input.persistent,
    users: aclBootstrapLines({ operator: input.users.operator, replication: input.users.replication }),
  });
  return createHash('sha256').update(material).digest('hex').slice(0, 16);
}
