import { NODE_IP } from '../node/addresses.ts';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Component, ComponentContext } from '../component.ts';
import type { KafkaInfo } from '../env-file.ts';
import type { TestenvPaths } from '../paths.ts';
import { runningPid, runToCompletion, startDaemon, stopDaemon, waitUntil } from '../process.ts';
import { ensureKafkaBuild, type KafkaBuild } from './build.ts';
import {
  clientBootstrap,
  DEFAULT_KAFKA_PORTS,
  type KafkaPorts,
  nodePorts,
  renderClientProperties,
  renderJavaArgFile,
  renderServerProperties,
  scramFormatArgs,
} from './config.ts';
import { probeKafka } from './probe.ts';
import { generateClusterId, generatePassword, type KafkaState, readKafkaState, rebuiltState, writeKafkaState, writeSecretFile } from './state.ts';

/** The Kafka release testenv runs; keep in step with the default in `java/kafka/pom.xml`. */
export const KAFKA_VERSION = '4.3.1';

/** Options of {@link createKafkaComponent}; every field has a default. */
export interface KafkaComponentOptions {
  readonly version?: string;
  /** Node 1's listeners; further brokers take the next ports ({@link nodePorts}). */
  readonly ports?: KafkaPorts;
  /**
   * Folder under `.testenv/run` and log-file stem of this cluster (default `kafka`), so that a second cluster can run
   * beside the default one.
   */
  readonly instance?: string;
  /** Nodes in the cluster (default 1): node 1 is broker and controller, the others brokers only. */
  readonly brokers?: number;
  /** Broker JVM max heap, e.g. `512m`. */
  readonly maxHeap?: string;
  /** How long `up` waits for the first authenticated admin request. */
  readonly startTimeoutMs?: number;
}

/** What {@link KafkaComponent.rebuild} did: the cluster's info (unchanged) and its cluster id before and after. */
export interface KafkaRebuild {
  readonly info: KafkaInfo;
  readonly previousClusterId: string;
  readonly clusterId: string;
}

/** One Kafka cluster of testenv: a {@link Component} that a test can also rebuild in place. */
export interface KafkaComponent extends Component<KafkaInfo> {
  /**
   * A disaster for tests: stops every node (brokers first), deletes their data (every topic and record, and the
   * metadata log with every SCRAM credential, ACL and quota), formats the storage with a new cluster id, and starts
   * the nodes again on the same ports with the same super user and password, so the info `up` returned stays
   * valid. Resolves once every node answers an authenticated admin request on its own listener. Rejects, touching
   * nothing, when the cluster has no state of the running version (run `up` first). Each call gives a new id.
   */
  rebuild(ctx: ComponentContext): Promise<KafkaRebuild>;
}

/** Files of one node under `.testenv/run/<instance>` (wiped by `down`). */
interface NodeFiles {
  readonly nodeId: number;
  readonly ports: KafkaPorts;
  readonly dataDir: string;
  readonly serverProperties: string;
  /** Java client login of the super user on this node's listener, mode 0600; usable with `--command-config`. */
  readonly adminProperties: string;
  readonly pidFile: string;
  readonly logFile: string;
}

/** Files of the running cluster under `.testenv/run/<instance>` (wiped by `down`). */
interface KafkaFiles {
  readonly dir: string;
  /** `info.json`, mode 0600. */
  readonly stateFile: string;
  /** Node 1 (broker and controller) first. */
  readonly nodes: readonly [NodeFiles, ...NodeFiles[]];
}

const HOST = '127.0.0.1';
/** The CLIENT listener's address: Pods reach the broker on the node's bridge address. */
const CLIENT_HOST = NODE_IP;
const SUPER_USER = 'admin';
const PROBE_TIMEOUT_MS = 5_000;

/** Node 1 keeps the single-node names (`kafka.pid`, `<instance>.log`, …); node n ≥ 2 has `-<n>` before the extension. */
const nodeTag = (nodeId: number): string => (nodeId === 1 ? '' : `-${String(nodeId)}`);

/** The pid file of node `nodeId` of the cluster `instance` (`.testenv/run/<instance>/kafka[-<n>].pid`). Pure. */
export function kafkaNodePidFile(paths: TestenvPaths, instance: string, nodeId: number): string {
  return join(paths.runDir, instance, `kafka${nodeTag(nodeId)}.pid`);
}

function kafkaFiles(paths: TestenvPaths, instance: string, ports: KafkaPorts, brokers: number): KafkaFiles {
  const dir = join(paths.runDir, instance);
  const node = (nodeId: number): NodeFiles => {
    const tag = nodeTag(nodeId);
    return {
      nodeId,
      ports: nodePorts(ports, nodeId),
      dataDir: join(dir, `data${tag}`),
      serverProperties: join(dir, `server${tag}.properties`),
      adminProperties: join(dir, `admin${tag}.properties`),
      pidFile: kafkaNodePidFile(paths, instance, nodeId),
      logFile: join(paths.logsDir, `${instance}${tag}.log`),
    };
  };
  const rest = Array.from({ length: brokers - 1 }, (_, i) => node(i + 2));
  return { dir, stateFile: join(dir, 'info.json'), nodes: [node(1), ...rest] };
}

/**
 * A KRaft Kafka cluster run from Maven Central jars, with SASL/SCRAM on the client listener and the
 * StandardAuthorizer: by default one node (broker and controller in one JVM); with `brokers: n`, node 1 plus n − 1
 * broker-only nodes that join its quorum, each with its own client listener (all of them in `bootstrapServers`).
 * `up` returns the running cluster's info when every node runs and answers an authenticated admin request on its own
 * listener; when node 1 does but another node does not, it restarts that node with its data; otherwise it starts a
 * fresh cluster (new data, new random super-user password). `down` stops every node and deletes data and state.
 */
export function createKafkaComponent(options: KafkaComponentOptions = {}): KafkaComponent {
  const version = options.version ?? KAFKA_VERSION;
  const ports = options.ports ?? DEFAULT_KAFKA_PORTS;
  const instance = options.instance ?? 'kafka';
  const brokers = options.brokers ?? 1;
  const maxHeap = options.maxHeap ?? '512m';
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;
  if (!Number.isInteger(brokers) || brokers < 1) throw new Error(`kafka: brokers must be a whole number of at least 1, got ${brokers}`);
  const filesOf = (paths: TestenvPaths): KafkaFiles => kafkaFiles(paths, instance, ports, brokers);

  async function nodeHealthy(build: KafkaBuild, node: NodeFiles): Promise<boolean> {
    if ((await runningPid(node.pidFile)) === undefined) return false;
    return (await probeKafka(build, node.adminProperties, PROBE_TIMEOUT_MS)).ok;
  }

  async function healthyWith(build: KafkaBuild, files: KafkaFiles): Promise<boolean> {
    for (const node of files.nodes) if (!(await nodeHealthy(build, node))) return false;
    return true;
  }

  async function stopAndWipe(files: KafkaFiles): Promise<void> {
    // Brokers before the controller they report to, so none of them waits on a quorum that is gone.
    for (const node of [...files.nodes].reverse()) await stopDaemon(node.pidFile);
    await rm(files.dir, { recursive: true, force: true });
  }

  async function format(build: KafkaBuild, files: KafkaFiles, node: NodeFiles, state: KafkaState): Promise<void> {
    // The SCRAM password goes through a 0600 @argfile so it shows neither in `ps` nor in error messages. Only node 1
    // (the controller) bootstraps the credentials; the brokers read them from the metadata log.
    const argFile = join(files.dir, `format-${node.nodeId}.args`);
    await writeSecretFile(
      argFile,
      renderJavaArgFile([
        '-Xmx256m',
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        `-Dlog4j2.configurationFile=file:${build.log4jConfig}`,
        '-cp',
        build.classpath,
        'kafka.tools.StorageTool',
        'format',
        '--ignore-formatted',
        '-t',
        state.clusterId,
        '-c',
        node.serverProperties,
        ...(node.nodeId === 1 ? scramFormatArgs(state.info.superUser) : []),
      ]),
    );
    try {
      // Its own log inside the 0700 run folder: the format command prints the SCRAM stored and server keys.
      await runToCompletion('java', [`@${argFile}`], { logFile: join(files.dir, `format-${node.nodeId}.log`) });
    } finally {
      await rm(argFile, { force: true });
    }
  }

  async function startNode(build: KafkaBuild, files: KafkaFiles, node: NodeFiles, state: KafkaState): Promise<void> {
    const bootstrap = clientBootstrap({ host: HOST, clientHost: CLIENT_HOST, ports: node.ports });
    await mkdir(node.dataDir, { recursive: true });
    await writeFile(
      node.serverProperties,
      renderServerProperties({ dataDir: node.dataDir, host: HOST, clientHost: CLIENT_HOST, ports: node.ports, superUser: SUPER_USER, nodeId: node.nodeId }),
    );
    await writeSecretFile(node.adminProperties, renderClientProperties(bootstrap, state.info.superUser));
    await format(build, files, node, state);
    const pid = await startDaemon({
      name: node.nodeId === 1 ? instance : `${instance}-${node.nodeId}`,
      command: 'java',
      args: [
        '-Xms128m',
        `-Xmx${maxHeap}`,
        '-XX:+UseSerialGC',
        '-XX:TieredStopAtLevel=1',
        '-Djava.awt.headless=true',
        `-Dlog4j2.configurationFile=file:${build.log4jConfig}`,
        '-cp',
        build.classpath,
        'kafka.Kafka',
        node.serverProperties,
      ],
      logFile: node.logFile,
      pidFile: node.pidFile,
    });
    // Asked on this node's own listener: the login proves it has read the credentials from the metadata log.
    await waitUntil(async () => (await probeKafka(build, node.adminProperties, PROBE_TIMEOUT_MS)).ok, {
      what: `kafka: SCRAM-authenticated admin request on ${bootstrap} (node ${node.nodeId})`,
      timeoutMs: startTimeoutMs,
      intervalMs: 500,
      logFile: node.logFile,
      pid,
    });
  }

  async function start(ctx: ComponentContext, build: KafkaBuild, files: KafkaFiles): Promise<KafkaInfo> {
    const state: KafkaState = {
      clusterId: generateClusterId(),
      info: {
        bootstrapServers: files.nodes.map((node) => clientBootstrap({ host: HOST, clientHost: CLIENT_HOST, ports: node.ports })),
        superUser: { username: SUPER_USER, password: generatePassword(), mechanism: 'SCRAM-SHA-512' },
        version,
      },
    };
    await mkdir(files.dir, { recursive: true });
    await chmod(files.dir, 0o700);
    await writeKafkaState(files.stateFile, state);
    for (const node of files.nodes) {
      ctx.progress(`starting Kafka ${version} node ${node.nodeId} on ${clientBootstrap({ host: HOST, clientHost: CLIENT_HOST, ports: node.ports })}`);
      await startNode(build, files, node, state);
    }
    return state.info;
  }

  return {
    name: 'kafka',

    async up(ctx) {
      const files = filesOf(ctx.paths);
      try {
        const build = await ensureKafkaBuild(ctx, version);
        const state = await readKafkaState(files.stateFile);
        if (state?.info.version === version && (await nodeHealthy(build, files.nodes[0]))) {
          // Node 1 holds the cluster; a broker that stopped (or that a test stopped) rejoins with its data.
          for (const node of files.nodes.slice(1)) {
            if (await nodeHealthy(build, node)) continue;
            ctx.progress(`node ${String(node.nodeId)} does not answer: restarting it`);
            await stopDaemon(node.pidFile);
            await startNode(build, files, node, state);
          }
          return state.info;
        }
        if ((await runningPid(files.nodes[0].pidFile)) !== undefined) ctx.progress('the running cluster does not answer: replacing it');
        await stopAndWipe(files);
        return await start(ctx, build, files);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(message.startsWith('kafka') ? message : `kafka: ${message}`, { cause: err });
      }
    },

    async down(ctx) {
      await stopAndWipe(filesOf(ctx.paths));
    },

    async healthy(ctx) {
      const files = filesOf(ctx.paths);
      if ((await runningPid(files.nodes[0].pidFile)) === undefined) return false;
      return healthyWith(await ensureKafkaBuild(ctx, version), files);
    },

    async rebuild(ctx) {
      const files = filesOf(ctx.paths);
      try {
        const build = await ensureKafkaBuild(ctx, version);
        const previous = await readKafkaState(files.stateFile);
        if (previous?.info.version !== version) throw new Error(`kafka: ${instance} has no state of version ${version} in ${files.stateFile}: run up first`);
        const state = rebuiltState(previous);
        // Brokers before the controller they report to, as in down.
        for (const node of [...files.nodes].reverse()) await stopDaemon(node.pidFile);
        for (const node of files.nodes) await rm(node.dataDir, { recursive: true, force: true });
        await writeKafkaState(files.stateFile, state);
        for (const node of files.nodes) {
          ctx.progress(`starting Kafka ${version} node ${node.nodeId} afresh as cluster ${state.clusterId} (was ${previous.clusterId})`);
          await startNode(build, files, node, state);
        }
        return { info: state.info, previousClusterId: previous.clusterId, clusterId: state.clusterId };
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(message.startsWith('kafka') ? message : `kafka: ${message}`, { cause: err });
      }
    },
  };
}

/** The Kafka component with default version, ports (19092–19094) and heap. */
export const kafkaComponent: KafkaComponent = createKafkaComponent();

/** Run-folder name of {@link kafkaPairComponent}. */
export const KAFKA_PAIR_INSTANCE = 'kafka-pair';

/**
 * A second Kafka cluster of two nodes (node 1 on 19192–19194, broker 2 on 19195–19196), for the few tests that need
 * more than one broker (a replication-factor change). Not started by `testenv up`: a test starts it with
 * {@link upKafkaPair} and stops it with {@link downKafkaPair}; `testenv down` stops it too.
 */
export const kafkaPairComponent: KafkaComponent = createKafkaComponent({
  instance: KAFKA_PAIR_INSTANCE,
  ports: { client: 19192, internal: 19193, controller: 19194 },
  brokers: 2,
  maxHeap: '384m',
});
