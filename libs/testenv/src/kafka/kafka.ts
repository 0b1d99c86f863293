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
  renderClientProperties,
  renderJavaArgFile,
  renderServerProperties,
  scramFormatArgs,
} from './config.ts';
import { probeKafka } from './probe.ts';
import { generateClusterId, generatePassword, type KafkaState, readKafkaState, writeKafkaState, writeSecretFile } from './state.ts';

/** The Kafka release testenv runs; keep in step with the default in `java/kafka/pom.xml`. */
export const KAFKA_VERSION = '4.3.1';

/** Options of {@link createKafkaComponent}; every field has a default. */
export interface KafkaComponentOptions {
  readonly version?: string;
  readonly ports?: KafkaPorts;
  /** Broker JVM max heap, e.g. `512m`. */
  readonly maxHeap?: string;
  /** How long `up` waits for the first authenticated admin request. */
  readonly startTimeoutMs?: number;
}

/** Files of the running broker under `.testenv/run/kafka` (wiped by `down`). */
interface KafkaFiles {
  readonly dir: string;
  readonly dataDir: string;
  /** `info.json`, mode 0600. */
  readonly stateFile: string;
  readonly serverProperties: string;
  /** Java client login of the super user, mode 0600; usable with the Kafka CLI tools' `--command-config`. */
  readonly adminProperties: string;
  readonly pidFile: string;
  readonly logFile: string;
}

const HOST = '127.0.0.1';
const SUPER_USER = 'admin';
const PROBE_TIMEOUT_MS = 5_000;

function kafkaFiles(paths: TestenvPaths): KafkaFiles {
  const dir = join(paths.runDir, 'kafka');
  return {
    dir,
    dataDir: join(dir, 'data'),
    stateFile: join(dir, 'info.json'),
    serverProperties: join(dir, 'server.properties'),
    adminProperties: join(dir, 'admin.properties'),
    pidFile: join(dir, 'kafka.pid'),
    logFile: join(paths.logsDir, 'kafka.log'),
  };
}

/**
 * A single-node KRaft Kafka broker (broker and controller in one JVM) run from Maven Central jars, with
 * SASL/SCRAM on the client listener and the StandardAuthorizer. `up` returns the running broker's info
 * when it answers an authenticated admin request; otherwise it starts a fresh broker (new data, new random
 * super-user password). `down` stops it and deletes its data and state.
 */
export function createKafkaComponent(options: KafkaComponentOptions = {}): Component<KafkaInfo> {
  const version = options.version ?? KAFKA_VERSION;
  const ports = options.ports ?? DEFAULT_KAFKA_PORTS;
  const maxHeap = options.maxHeap ?? '512m';
  const startTimeoutMs = options.startTimeoutMs ?? 120_000;

  async function healthyWith(build: KafkaBuild, files: KafkaFiles): Promise<boolean> {
    if ((await runningPid(files.pidFile)) === undefined) return false;
    return (await probeKafka(build, files.adminProperties, PROBE_TIMEOUT_MS)).ok;
  }

  async function stopAndWipe(files: KafkaFiles): Promise<void> {
    await stopDaemon(files.pidFile);
    await rm(files.dir, { recursive: true, force: true });
  }

  async function format(build: KafkaBuild, files: KafkaFiles, state: KafkaState): Promise<void> {
    // The SCRAM password goes through a 0600 @argfile so it shows neither in `ps` nor in error messages.
    const argFile = join(files.dir, 'format.args');
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
        files.serverProperties,
        ...scramFormatArgs(state.info.superUser),
      ]),
    );
    try {
      // Its own log inside the 0700 run folder: the format command prints the SCRAM stored and server keys.
      await runToCompletion('java', [`@${argFile}`], { logFile: join(files.dir, 'format.log') });
    } finally {
      await rm(argFile, { force: true });
    }
  }

  async function start(ctx: ComponentContext, build: KafkaBuild, files: KafkaFiles): Promise<KafkaInfo> {
    const bootstrap = clientBootstrap({ host: HOST, ports });
    const state: KafkaState = {
      clusterId: generateClusterId(),
      info: {
        bootstrapServers: [bootstrap],
        superUser: { username: SUPER_USER, password: generatePassword(), mechanism: 'SCRAM-SHA-512' },
        version,
      },
    };
    await mkdir(files.dataDir, { recursive: true });
    await chmod(files.dir, 0o700);
    await writeFile(files.serverProperties, renderServerProperties({ dataDir: files.dataDir, host: HOST, ports, superUser: SUPER_USER }));
    await writeSecretFile(files.adminProperties, renderClientProperties(bootstrap, state.info.superUser));
    await writeKafkaState(files.stateFile, state);

    ctx.progress('formatting KRaft storage with the admin SCRAM credentials');
    await format(build, files, state);

    ctx.progress(`starting Kafka ${version} on ${bootstrap}`);
    const pid = await startDaemon({
      name: 'kafka',
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
        files.serverProperties,
      ],
      logFile: files.logFile,
      pidFile: files.pidFile,
    });
    await waitUntil(async () => (await probeKafka(build, files.adminProperties, PROBE_TIMEOUT_MS)).ok, {
      what: `kafka: SCRAM-authenticated admin request on ${bootstrap}`,
      timeoutMs: startTimeoutMs,
      intervalMs: 500,
      logFile: files.logFile,
      pid,
    });
    return state.info;
  }

  return {
    name: 'kafka',

    async up(ctx) {
      const files = kafkaFiles(ctx.paths);
      try {
        const build = await ensureKafkaBuild(ctx, version);
        const state = await readKafkaState(files.stateFile);
        if (state?.info.version === version && (await healthyWith(build, files))) return state.info;
        if ((await runningPid(files.pidFile)) !== undefined) ctx.progress('the running broker does not answer: replacing it');
        await stopAndWipe(files);
        return await start(ctx, build, files);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(message.startsWith('kafka') ? message : `kafka: ${message}`, { cause: err });
      }
    },

    async down(ctx) {
      await stopAndWipe(kafkaFiles(ctx.paths));
    },

    async healthy(ctx) {
      const files = kafkaFiles(ctx.paths);
      if ((await runningPid(files.pidFile)) === undefined) return false;
      return healthyWith(await ensureKafkaBuild(ctx, version), files);
    },
  };
}

/** The Kafka component with default version, ports (19092–19094) and heap. */
export const kafkaComponent: Component<KafkaInfo> = createKafkaComponent();
