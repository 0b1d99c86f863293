import { hostname } from 'node:os';
import type { KubeConfig } from '@kubernetes/client-node';
import { Client } from '../client/client.ts';
import { HttpsRestTransport } from '../client/rest.ts';
import type { Logger } from '../core/logger.ts';
import { errorFields } from '../core/logger.ts';
import { buildInfo, registerBuildInfo } from '../observability/build-info.ts';
import { clientEventSink, EventRecorder } from '../observability/events.ts';
import { createLogger } from '../observability/log.ts';
import { WritePriority } from '../observability/write-priority.ts';
import { loadKubeConfig } from './kubeconfig.ts';
import { Manager } from './manager.ts';
import type { Runnable } from './manager.ts';
import type { ManagerOptions } from './manager-options.ts';
import { shutdownSignal } from './shutdown-signal.ts';

/** What {@link runOperator} hands an operator's wiring: everything a controller needs, built once. */
export interface OperatorRuntime<C extends ManagerOptions> {
  readonly config: C;
  readonly logger: Logger;
  readonly kubeConfig: KubeConfig;
  readonly client: Client;
  readonly manager: Manager;
  /** Reports as `<apiGroup>/<name>`, instance `$POD_NAME` (else the host name); its creates wait for `priority`. */
  readonly events: EventRecorder;
  /** The process's urgent writes: give it to the status writers (`statusWriterFor`), so Events trail them. */
  readonly priority: WritePriority;
}

/** What an operator's wiring returns: its controllers, and what to close when the process stops (clients, pools). */
export interface WiredOperator {
  readonly controllers: readonly Runnable[];
  close?(): Promise<void>;
}

/** One operator, as its `main.ts` declares it. */
export interface OperatorDefinition<C extends ManagerOptions> {
  /** `kafka-operator`: the logger's name, the Event reporter's name and the prefix of start-up errors. */
  readonly name: string;
  /** The API group of its kinds; Events report as `<apiGroup>/<name>`. */
  readonly apiGroup: string;
  /** Reads flags and environment (the operator's `config.ts`); throws for an unusable configuration. */
  loadConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): C;
  /** Builds the controllers. Must not start them: the manager does, once it leads and its caches synced. */
  wire(runtime: OperatorRuntime<C>): WiredOperator | Promise<WiredOperator>;
}

/** The process around an operator (injected so the start-up is unit-tested without one). */
export interface OperatorProcess {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string | undefined>>;
  writeError(line: string): void;
  /** Where `--version` prints; default: stdout. */
  readonly writeOutput?: (line: string) => void;
  /** Default: the real {@link shutdownSignal} (SIGTERM, SIGINT). */
  readonly signal?: (logger: Logger) => AbortSignal;
  /** Default: {@link createLogger} at the configured level. */
  readonly logger?: (name: string, config: ManagerOptions) => Logger;
  /** Default: {@link loadKubeConfig}, a real client and a real {@link Manager}. */
  readonly connect?: (kubeConfig: KubeConfig, logger: Logger, config: ManagerOptions) => Promise<{ readonly client: Client; readonly manager: Manager }>;
  readonly kubeConfig?: () => KubeConfig;
}

/**
 * The one start-up of every operator. With `--version` anywhere in `argv` it prints `<name> <version>` (the
 * repository's version, ADR 0027) and resolves to 0, reading nothing else. Otherwise: configuration (an unusable one
 * → a line on stderr, exit code 1), the logger, the kubeconfig (see {@link loadKubeConfig}), the client, the manager
 * with `<name>_build_info{version,node_version} 1` in its registry, the Event recorder, the operator's own wiring,
 * then `manager.start` until SIGTERM or SIGINT. Resolves to the exit code, as the manager documents it: 0
 * after a graceful shutdown, 1 when the configuration is unusable, the wiring fails, or the manager fails (a
 * controller failed, leadership was lost, a server could not bind). On EVERY exit path after the recorder exists, the
 * recorder is drained and the wiring's `close` runs (each failure there is logged, never hides the first error).
 * Never rejects.
 */
export async function runOperator<C extends ManagerOptions>(definition: OperatorDefinition<C>, proc: OperatorProcess): Promise<number> {
  const build = buildInfo();
  if (proc.argv.includes('--version')) {
    (proc.writeOutput ?? writeStdout)(`${definition.name} ${build.version}`);
    return 0;
  }
  let config: C;
  try {
    config = definition.loadConfig(proc.argv, proc.env);
  } catch (err) {
    proc.writeError(`${definition.name}: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  const logger = (proc.logger ?? defaultLogger)(definition.name, config);
  let events: EventRecorder | undefined;
  let wired: WiredOperator | undefined;
  try {
    const kubeConfig = (proc.kubeConfig ?? (() => loadKubeConfig(proc.env)))();
    const { client, manager } = await (proc.connect ?? defaultConnect)(kubeConfig, logger, config);
    registerBuildInfo(manager.metrics.registry, definition.name, build);
    const priority = new WritePriority();
    events = new EventRecorder(
      { sink: clientEventSink(client), log: logger, priority },
      { reportingController: `${definition.apiGroup}/${definition.name}`, reportingInstance: (proc.env['POD_NAME'] ?? hostname()).slice(0, 128) },
    );
    wired = await definition.wire({ config, logger, kubeConfig, client, manager, events, priority });
    for (const controller of wired.controllers) manager.add(controller);
    await manager.start((proc.signal ?? defaultSignal)(logger));
    return 0;
  } catch (err) {
    logger.error(errorFields(err), `${definition.name} stopped with an error`);
    return 1;
  } finally {
    await settle(logger, 'draining the event recorder', events?.shutdown());
    await settle(logger, 'closing the operator', wired?.close?.());
  }
}

/**
 * For `main.ts`: runs {@link runOperator} on this process and exits with its code. The whole of an operator's
 * entry point is `startOperator({ name, apiGroup, loadConfig, wire })`.
 */
export function startOperator<C extends ManagerOptions>(definition: OperatorDefinition<C>): void {
  void runOperator(definition, {
    argv: process.argv.slice(2),
    env: process.env,
    writeError: (line) => process.stderr.write(`${line}\n`),
  }).then((code) => process.exit(code));
}

async function settle(logger: Logger, what: string, work: Promise<void> | undefined): Promise<void> {
  if (work === undefined) return;
  try {
    await work;
  } catch (err) {
    logger.warn(errorFields(err), `${what} failed`);
  }
}

function writeStdout(line: string): void {
  process.stdout.write(`${line}\n`);
}

function defaultLogger(name: string, config: ManagerOptions): Logger {
  return createLogger({ level: config.logLevel, name });
}

function defaultSignal(logger: Logger): AbortSignal {
  return shutdownSignal({ logger });
}

async function defaultConnect(kubeConfig: KubeConfig, logger: Logger, config: ManagerOptions): Promise<{ readonly client: Client; readonly manager: Manager }> {
  const client = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
  return { client, manager: new Manager({ kubeConfig, logger }, config) };
}
