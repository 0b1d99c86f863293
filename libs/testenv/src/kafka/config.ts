import type { SaslUser } from '../env-file.ts';

/** The three loopback listeners of the single-node broker. */
export interface KafkaPorts {
  /** SASL_PLAINTEXT (SCRAM-SHA-512 and SCRAM-SHA-256): the only listener clients are told about. */
  readonly client: number;
  /** PLAINTEXT, inter-broker traffic only. */
  readonly internal: number;
  /** PLAINTEXT, the KRaft controller quorum. */
  readonly controller: number;
}

/** The ports testenv uses unless told otherwise. */
export const DEFAULT_KAFKA_PORTS: KafkaPorts = { client: 19092, internal: 19093, controller: 19094 };

/**
 * The ports of node `nodeId` (1-based) of a cluster whose node 1 has `ports`: node 1 keeps them; node n ≥ 2 (a
 * broker only) listens on `client + 3(n − 1)` and `internal + 3(n − 1)`, and `controller` stays node 1's, the
 * quorum it joins. Pure. Throws for a `nodeId` below 1 or not an integer.
 */
export function nodePorts(ports: KafkaPorts, nodeId: number): KafkaPorts {
  if (!Number.isInteger(nodeId) || nodeId < 1) throw new Error(`kafka: node ids start at 1, got ${nodeId}`);
  const shift = 3 * (nodeId - 1);
  return { client: ports.client + shift, internal: ports.internal + shift, controller: ports.controller };
}

/** Everything {@link renderServerProperties} needs. */
export interface BrokerConfigInput {
  /** Absolute path of the log and metadata directory. */
  readonly dataDir: string;
  /** Loopback address the INTERNAL and CONTROLLER listeners bind to, e.g. `127.0.0.1`. */
  readonly host: string;
  /**
   * Address the CLIENT listener binds to and advertises: the node's bridge address, so the operators in Pods and
   * tests on the host reach the same listener. Defaults to `host`.
   */
  readonly clientHost?: string;
  /** This node's listeners ({@link nodePorts}); `controller` is always node 1's. */
  readonly ports: KafkaPorts;
  /**
   * 1 (default): broker and controller, the quorum's only voter. 2 and up: a broker only, which joins node 1's
   * quorum and serves clients on its own listeners.
   */
  readonly nodeId?: number;
  /** Name of the SCRAM super user, e.g. `admin`. */
  readonly superUser: string;
}

/** SCRAM mechanisms the client listener accepts, strongest first. */
export const SCRAM_MECHANISMS = ['SCRAM-SHA-512', 'SCRAM-SHA-256'] as const;

const SCRAM_LOGIN_MODULE = 'org.apache.kafka.common.security.scram.ScramLoginModule';

/** The `host:port` clients bootstrap from (the SASL listener). Pure. */
export function clientBootstrap(input: Pick<BrokerConfigInput, 'host' | 'clientHost' | 'ports'>): string {
  return `${input.clientHost ?? input.host}:${input.ports.client}`;
}

/**
 * Renders `server.properties` for node 1, a KRaft broker+controller, or for a broker-only node ≥ 2 of its
 * cluster. Pure.
 *
 * Security model: clients reach only the SASL/SCRAM listener, where the StandardAuthorizer applies ACLs
 * and unknown resources are denied. The INTERNAL and CONTROLLER listeners are PLAINTEXT, so their
 * connections are `User:ANONYMOUS`; broker-to-controller RPCs need CLUSTER_ACTION, hence ANONYMOUS is a
 * super user. That is safe here because both listeners bind to loopback (only CLIENT is on the node's bridge
 * address) and are never returned to a
 * client: a Metadata response lists only endpoints of the listener the request arrived on (CLIENT), and
 * the controller listener is never advertised at all. SCRAM cannot secure the controller listener since
 * the credentials themselves live in the metadata log the controller serves. The price: any local process
 * that dials the INTERNAL port directly is a super user (checked: an unauthenticated client there can
 * create topics). Acceptable for a loopback test environment only; tests must use the client listener.
 */
export function renderServerProperties(input: BrokerConfigInput): string {
  const { host, ports } = input;
  const nodeId = input.nodeId ?? 1;
  const controller = nodeId === 1;
  const jaas = `${SCRAM_LOGIN_MODULE} required;`;
  const brokerListeners = `CLIENT://${clientBootstrap(input)},INTERNAL://${host}:${ports.internal}`;
  const lines: readonly (readonly [string, string | number])[] = [
    ['process.roles', controller ? 'broker,controller' : 'broker'],
    ['node.id', nodeId],
    ['controller.quorum.voters', `1@${host}:${ports.controller}`],
    ['listeners', controller ? `${brokerListeners},CONTROLLER://${host}:${ports.controller}` : brokerListeners],
    ['advertised.listeners', brokerListeners],
    ['listener.security.protocol.map', 'CLIENT:SASL_PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT'],
    ['inter.broker.listener.name', 'INTERNAL'],
    ['controller.listener.names', 'CONTROLLER'],
    ['listener.name.client.sasl.enabled.mechanisms', SCRAM_MECHANISMS.join(',')],
    ['listener.name.client.scram-sha-512.sasl.jaas.config', jaas],
    ['listener.name.client.scram-sha-256.sasl.jaas.config', jaas],
    ['authorizer.class.name', 'org.apache.kafka.metadata.authorizer.StandardAuthorizer'],
    ['super.users', `User:${input.superUser};User:ANONYMOUS`],
    ['allow.everyone.if.no.acl.found', 'false'],
    ['log.dirs', input.dataDir],
    // Internal topics get one replica (a cluster may have one node); few partitions keep the first group join fast.
    ['num.partitions', 1],
    ['default.replication.factor', 1],
    ['min.insync.replicas', 1],
    ['offsets.topic.replication.factor', 1],
    ['offsets.topic.num.partitions', 1],
    ['transaction.state.log.replication.factor', 1],
    ['transaction.state.log.min.isr', 1],
    ['transaction.state.log.num.partitions', 1],
    ['share.coordinator.state.topic.replication.factor', 1],
    ['share.coordinator.state.topic.min.isr', 1],
    ['group.initial.rebalance.delay.ms', 0],
    // Operators must create their topics explicitly; auto-creation would hide missing reconciles.
    ['auto.create.topics.enable', 'false'],
    // A deleted topic's files go at once instead of 60 s later, so that the disk and CPU work of a test's clean-up
    // does not land in the middle of the next test or benchmark phase.
    ['log.segment.delete.delay.ms', 0],
  ];
  return `${lines.map(([key, value]) => `${key}=${escapeValue(String(value))}`).join('\n')}\n`;
}

/**
 * Renders Java client properties that log in as `user` over SASL/SCRAM (for the health probe and the
 * Kafka CLI tools). Pure. Throws when the password cannot be quoted in a JAAS line.
 */
export function renderClientProperties(bootstrap: string, user: SaslUser): string {
  assertJaasSafe(user);
  const jaas = `${SCRAM_LOGIN_MODULE} required username="${user.username}" password="${user.password}";`;
  return [
    `bootstrap.servers=${bootstrap}`,
    'security.protocol=SASL_PLAINTEXT',
    `sasl.mechanism=${user.mechanism}`,
    `sasl.jaas.config=${escapeValue(jaas)}`,
    '',
  ].join('\n');
}

/**
 * The `kafka-storage format` arguments that bootstrap `user`'s SCRAM credentials for every mechanism
 * in {@link SCRAM_MECHANISMS}. Pure. Throws when the password holds a comma, bracket, quote or space,
 * which the `[name=…,password=…]` syntax cannot carry.
 */
export function scramFormatArgs(user: Pick<SaslUser, 'username' | 'password'>): string[] {
  assertJaasSafe(user);
  return SCRAM_MECHANISMS.flatMap((mechanism) => ['--add-scram', `${mechanism}=[name=${user.username},password=${user.password}]`]);
}

/**
 * Renders a Java launcher `@argfile` holding `args`, one quoted argument a line, so secrets and long
 * class paths stay off the process command line. Pure.
 */
export function renderJavaArgFile(args: readonly string[]): string {
  return `${args.map((arg) => `"${arg.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join('\n')}\n`;
}

function assertJaasSafe(user: Pick<SaslUser, 'username' | 'password'>): void {
  const safe = /^[A-Za-z0-9._~-]+$/;
  if (!safe.test(user.username) || !safe.test(user.password)) {
    throw new Error('kafka: SCRAM user names and passwords must match [A-Za-z0-9._~-]+');
  }
}

/** Escapes a java.util.Properties value (backslashes, and a leading space). */
function escapeValue(value: string): string {
  return value.replaceAll('\\', '\\\\').replace(/^ /, '\\ ');
}
