/**
 * Parsing of `INFO replication` (and the `keyspace` section) into typed data. Pure.
 */

/** A replica as its primary lists it (`slaveN:ip=…,port=…,state=…,offset=…,lag=…`). */
export interface ConnectedReplica {
  readonly ip: string;
  readonly port: number;
  /** `online` once synchronised; `wait_bgsave`, `send_bulk` … while a full sync runs. */
  readonly state: string;
  /** The replication offset the replica last acknowledged. */
  readonly offset: number;
  /** Seconds since its last acknowledgement. */
  readonly lag: number;
}

/** What a member that is a primary (`role:master`) reports. */
export interface PrimaryReplicationInfo {
  readonly role: 'primary';
  /** `master_repl_offset`: bytes of replication stream produced (or inherited from its former primary). */
  readonly offset: number;
  readonly replid: string;
  readonly replicas: readonly ConnectedReplica[];
  /**
   * `min_slaves_good_slaves`: the count of good replicas Redis itself checks a write against when
   * `min-replicas-to-write` and `min-replicas-max-lag` are both set (refreshed by its replication cron once a second,
   * so it can trail the `lag` of {@link replicas}); absent otherwise.
   */
  readonly goodReplicas?: number;
}

/** What a member that is a replica (`role:slave`) reports. */
export interface ReplicaReplicationInfo {
  readonly role: 'replica';
  /** `master_host` and `master_port`: where it was told to replicate from. */
  readonly primaryHost: string;
  readonly primaryPort: number;
  /** `master_link_status:up`. */
  readonly linkUp: boolean;
  /** `master_sync_in_progress:1`: a full synchronisation is running. */
  readonly syncInProgress: boolean;
  /** `slave_repl_offset`: how much of the primary's stream it has processed. */
  readonly offset: number;
  readonly replid: string;
}

/** The replication section of one member. */
export type ReplicationInfo = PrimaryReplicationInfo | ReplicaReplicationInfo;

/** What the operator reads from a member on every reconcile (`INFO replication keyspace server`). */
export interface MemberInfo {
  readonly replication: ReplicationInfo;
  /** Keys over all databases (`# Keyspace`); 0 when the section is absent. */
  readonly keys: number;
  /** `run_id` (`# Server`): new at every start of redis-server; absent when the reply has no server section. */
  readonly runId?: string;
}

/** Thrown by the parsers for text that is not an INFO reply they understand. */
export class InfoParseError extends Error {
  override readonly name = 'InfoParseError';
}

/** `field:value` lines of an INFO reply (all sections), later lines winning. Pure. */
export function infoFields(text: string): ReadonlyMap<string, string> {
  const fields = new Map<string, string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return fields;
}

function integer(fields: ReadonlyMap<string, string>, name: string): number {
  const value = fields.get(name);
  if (value === undefined || !/^-?\d+$/.test(value)) throw new InfoParseError(`INFO replication: field ${name} missing or not an integer`);
  return Number(value);
}

function text(fields: ReadonlyMap<string, string>, name: string): string {
  const value = fields.get(name);
  if (value === undefined) throw new InfoParseError(`INFO replication: field ${name} missing`);
  return value;
}

/** `ip=127.0.0.1,port=6379,state=online,offset=42,lag=0` → record. */
function keyValues(value: string): ReadonlyMap<string, string> {
  return new Map(
    value.split(',').map((pair) => {
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
    }),
  );
}

function connectedReplica(value: string): ConnectedReplica {
  const kv = keyValues(value);
  return {
    ip: kv.get('ip') ?? '',
    port: Number(kv.get('port') ?? 0),
    state: kv.get('state') ?? '',
    offset: Number(kv.get('offset') ?? 0),
    lag: Number(kv.get('lag') ?? 0),
  };
}

/**
 * Parses the replication section of an INFO reply (the text may hold other sections too). Throws
 * {@link InfoParseError} when `role` or a field the role needs is missing. Pure.
 */
export function parseReplicationInfo(reply: string): ReplicationInfo {
  const fields = infoFields(reply);
  const role = fields.get('role');
  if (role === 'master') {
    const count = integer(fields, 'connected_slaves');
    const replicas: ConnectedReplica[] = [];
    for (let i = 0; i < count; i++) {
      const entry = fields.get(`slave${i}`);
      if (entry !== undefined) replicas.push(connectedReplica(entry));
    }
    const good = fields.get('min_slaves_good_slaves');
    return {
      role: 'primary',
      offset: integer(fields, 'master_repl_offset'),
      replid: text(fields, 'master_replid'),
      replicas,
      ...(good !== undefined && /^\d+$/.test(good) && { goodReplicas: Number(good) }),
    };
  }
  if (role === 'slave') {
    return {
      role: 'replica',
      primaryHost: text(fields, 'master_host'),
      primaryPort: integer(fields, 'master_port'),
      linkUp: fields.get('master_link_status') === 'up',
      syncInProgress: fields.get('master_sync_in_progress') === '1',
      offset: integer(fields, 'slave_repl_offset'),
      replid: text(fields, 'master_replid'),
    };
  }
  throw new InfoParseError(`INFO replication: unknown role ${role === undefined ? '(missing)' : JSON.stringify(role)}`);
}

/** Total keys over all `dbN:keys=…` lines of the keyspace section; 0 without any. Pure. */
export function parseKeyCount(reply: string): number {
  let keys = 0;
  for (const [name, value] of infoFields(reply)) {
    if (/^db\d+$/.test(name)) keys += Number(keyValues(value).get('keys') ?? 0);
  }
  return keys;
}

/** Parses a reply of `INFO replication keyspace [server]` into {@link MemberInfo}. Throws like {@link parseReplicationInfo}. Pure. */
export function parseMemberInfo(reply: string): MemberInfo {
  const runId = infoFields(reply).get('run_id');
  return { replication: parseReplicationInfo(reply), keys: parseKeyCount(reply), ...(runId !== undefined && { runId }) };
}
