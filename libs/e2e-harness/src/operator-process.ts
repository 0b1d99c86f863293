import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, openSync, closeSync, statSync, writeSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { resolvePaths } from '@domain-operators/testenv';
import { buildOperator } from './bundle.ts';
import { adminConnection, randomSuffix } from './cluster.ts';
import type { AdminConnection } from './cluster.ts';
import { installChartForProcess, uninstallChartForProcess } from './install.ts';
import type { ChartInstallation } from './install.ts';
import { clusterEndpoint, renderTokenKubeconfig, requestServiceAccountToken } from './kubeconfig.ts';
import { readLogTail } from './log-tail.ts';
import { localOperatorArgs } from './manifests.ts';
import { freePort } from './ports.ts';
import type { OperatorSystem } from './system.ts';
import { operatorLayout } from './system.ts';
import { OperatorStartError, probeReadyz, scrapeMetrics } from './operator-handle.ts';
import type { OperatorProcess, ProbeAnswer, ProcessExit, StartOperatorOptions } from './operator-handle.ts';

const STOP_GRACE_MS = 35_000;

/**
 * Runs an operator as a local process: builds its bundle (once per run, see `buildOperator`), installs the CRDs and
 * RBAC of its chart as admin, mints a token for the chart's ServiceAccount with the TokenRequest API, and spawns
 * `node dist/operators/<system>/main.js` with a kubeconfig holding only that token (so the chart's RBAC is exactly
 * what it gets), the chart's flags with metrics and probes on free local ports, and `POD_NAMESPACE` set to the
 * release namespace. Output goes to `.testenv/logs/e2e-<system>-operator.log`. Resolves once `/readyz` answers 200.
 * Rejects with {@link OperatorStartError} (exit code and log tail) when the process exits first or is not ready in
 * time; it then kills the process and removes what it installed.
 */
export async function startOperatorProcess(options: StartOperatorOptions): Promise<OperatorProcess> {
  const bundle = await buildOperator(options.system);
  const admin = options.admin ?? (await adminConnection());
  const suffix = randomSuffix();
  const installation = await installChartForProcess(admin.client, {
    system: options.system,
    releaseName: `e2e-${suffix}`,
    namespace: options.releaseNamespace ?? `e2e-${options.system}-op-${suffix}`,
    ...(options.values !== undefined && { values: options.values }),
  });
  const [metricsPort, probesPort] = [await freePort(), await freePort()];
  const operator = new LocalOperator({ admin, installation, bundle }, { ...options, metricsPort, probesPort });
  try {
    await operator.start();
  } catch (err) {
    await operator.stop();
    throw err;
  }
  return operator;
}

interface LocalOperatorDeps {
  readonly admin: AdminConnection;
  readonly installation: ChartInstallation;
  readonly bundle: string;
}

interface LocalOperatorOptions extends StartOperatorOptions {
  readonly metricsPort: number;
  readonly probesPort: number;
}

class LocalOperator implements OperatorProcess {
  readonly system: OperatorSystem;
  readonly releaseName: string;
  readonly namespace: string;
  readonly serviceAccount: string;
  readonly kubeconfigPath: string;
  readonly installation: ChartInstallation;
  readonly metricsUrl: string;
  readonly probesUrl: string;
  readonly #deps: LocalOperatorDeps;
  readonly #options: LocalOperatorOptions;
  readonly #logFile: string;
  #logOffset: number | undefined;
  #child: ChildProcess | undefined;
  #exited: Promise<ProcessExit> | undefined;
  #uninstalled = false;

  constructor(deps: LocalOperatorDeps, options: LocalOperatorOptions) {
    this.#deps = deps;
    this.#options = options;
    this.installation = deps.installation;
    this.system = options.system;
    this.releaseName = deps.installation.releaseName;
    this.namespace = deps.installation.namespace;
    this.serviceAccount = deps.installation.serviceAccount;
    this.kubeconfigPath = join(resolvePaths().runDir, 'e2e', `${this.releaseName}.kubeconfig`);
    this.metricsUrl = `http://127.0.0.1:${options.metricsPort}`;
    this.probesUrl = `http://127.0.0.1:${options.probesPort}`;
    this.#logFile = operatorLayout(options.system).logFile;
  }

  pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Mints a token, writes the kubeconfig, spawns the process and waits for `/readyz`. */
  async start(): Promise<void> {
    await this.#writeKubeconfig();
    this.#spawn();
    await this.#waitReady(this.#options.readyTimeoutMs ?? 60_000);
  }

  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ProcessExit | undefined> {
    const child = this.#child;
    const exited = this.#exited;
    if (child === undefined || exited === undefined) return undefined;
    child.kill(signal);
    return exited;
  }

  async restart(): Promise<void> {
    await this.#terminate();
    await this.start();
  }

  async stop(): Promise<void> {
    await this.#terminate();
    if (this.#uninstalled) return;
    this.#uninstalled = true;
    await rm(this.kubeconfigPath, { force: true });
    await uninstallChartForProcess(this.#deps.admin.client, this.installation);
  }

  async readyz(): Promise<ProbeAnswer> {
    return probeReadyz(this.probesUrl);
  }

  async metricsText(): Promise<string> {
    return scrapeMetrics(this.metricsUrl);
  }

  logTail(lines = 50): Promise<string> {
    return readLogTail(this.#logFile, this.#logOffset ?? 0, lines);
  }

  async #writeKubeconfig(): Promise<void> {
    const token = await requestServiceAccountToken(this.#deps.admin.rest, { namespace: this.namespace, serviceAccount: this.serviceAccount });
    const name = `system:serviceaccount:${this.namespace}:${this.serviceAccount}`;
    await mkdir(dirname(this.kubeconfigPath), { recursive: true });
    await writeFile(this.kubeconfigPath, renderTokenKubeconfig({ ...clusterEndpoint(this.#deps.admin.kubeConfig), token, namespace: this.namespace, name }), {
      mode: 0o600,
    });
  }

  #spawn(): void {
    const args = localOperatorArgs(
      this.installation.deployment,
      { metricsBindAddress: `127.0.0.1:${this.#options.metricsPort}`, healthProbeBindAddress: `127.0.0.1:${this.#options.probesPort}` },
      this.#options.args,
    );
    mkdirSync(dirname(this.#logFile), { recursive: true });
    const log = openSync(this.#logFile, 'a');
    this.#logOffset ??= statSync(this.#logFile).size;
    // Flags and the namespace only: the environment may carry secrets.
    writeSync(log, `--- ${new Date().toISOString()} e2e-harness: starting ${this.system}-operator as ${this.namespace}/${this.serviceAccount}: ${args.join(' ')}\n`);
    const child = spawn(process.execPath, ['--enable-source-maps', this.#deps.bundle, ...args], {
      cwd: resolvePaths().root,
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? '',
        KUBECONFIG: this.kubeconfigPath,
        POD_NAMESPACE: this.namespace,
        POD_NAME: `${this.releaseName}-local`,
        ...this.#options.env,
      },
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    // A test worker that dies must not leave operators running.
    const killOnExit = (): void => {
      child.kill('SIGKILL');
    };
    process.once('exit', killOnExit);
    this.#child = child;
    this.#exited = new Promise<ProcessExit>((resolve) => {
      child.once('exit', (code, signal) => {
        process.removeListener('exit', killOnExit);
        if (this.#child === child) this.#child = undefined;
        resolve({ code, signal });
      });
    });
  }

  async #waitReady(timeoutMs: number): Promise<void> {
    const exited = this.#exited;
    if (exited === undefined) throw new Error('no operator process to wait for');
    let exit: ProcessExit | undefined;
    void exited.then((e) => {
      exit = e;
    });
    const deadline = Date.now() + timeoutMs;
    let last: string;
    for (;;) {
      if (exit !== undefined) {
        throw new OperatorStartError(
          `${this.system}-operator exited with ${exit.code === null ? `signal ${exit.signal ?? '?'}` : `code ${exit.code}`} before /readyz answered 200`,
          exit,
          await this.logTail(),
        );
      }
      try {
        const answer = await this.readyz();
        if (answer.status === 200) return;
        last = `${answer.status}: ${answer.body.trim().slice(0, 500)}`;
      } catch (err) {
        last = (err as Error).message;
      }
      if (Date.now() >= deadline) {
        await this.kill('SIGKILL');
        throw new OperatorStartError(`${this.system}-operator not ready within ${timeoutMs} ms (last /readyz: ${last})`, undefined, await this.logTail());
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async #terminate(): Promise<void> {
    const exited = this.#exited;
    if (this.#child === undefined || exited === undefined) return;
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child?.kill('SIGKILL'), STOP_GRACE_MS);
    await exited;
    clearTimeout(timer);
  }
}
