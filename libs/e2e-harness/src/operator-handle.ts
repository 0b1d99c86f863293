import type { AdminConnection } from './cluster.ts';
import type { ChartInstallation } from './install.ts';
import type { OperatorSystem } from './system.ts';

/** Options for {@link startOperator}. */
export interface StartOperatorOptions {
  readonly system: OperatorSystem;
  /** Flags after the chart's (they win over a chart flag of the same name). */
  readonly args?: readonly string[];
  /** Environment variables for the operator (a Pod: the chart's `extraEnv`; a process: on top of KUBECONFIG, POD_NAMESPACE, POD_NAME, PATH and HOME). */
  readonly env?: Readonly<Record<string, string>>;
  /** Release namespace (ServiceAccount, Role, Lease). A Pod: default `<system>-operator-system` (kept); a process: default a fresh `e2e-<system>-op-<random>`, deleted by `stop()`. */
  readonly releaseNamespace?: string;
  /** Chart values (`--set-json`), e.g. `{ replicaCount: 2 }` for the leader-election flags. */
  readonly values?: Readonly<Record<string, unknown>>;
  /** How long to wait for `/readyz` to answer 200; default 60 s. */
  readonly readyTimeoutMs?: number;
  /** The admin connection to install with; default {@link adminConnection}'s (which checks testenv on every call). */
  readonly admin?: AdminConnection;
}

/** An answer of `/readyz` or `/healthz`. */
export interface ProbeAnswer {
  readonly status: number;
  readonly body: string;
}

/** How an operator process ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A running operator process, authenticated as its chart's ServiceAccount. */
export interface OperatorProcess {
  readonly system: OperatorSystem;
  readonly releaseName: string;
  /** The release namespace. */
  readonly namespace: string;
  /** The ServiceAccount the process is authenticated as. */
  readonly serviceAccount: string;
  /** The kubeconfig the process uses (a TokenRequest token, nothing else). Holds a secret: never log its contents. */
  readonly kubeconfigPath: string;
  /** What was installed from the chart. */
  readonly installation: ChartInstallation;
  /** `http://127.0.0.1:<port>` of `/metrics`. */
  readonly metricsUrl: string;
  /** `http://127.0.0.1:<port>` of `/healthz` and `/readyz`. */
  readonly probesUrl: string;
  /** The current process id, or `undefined` when no process runs. */
  pid(): number | undefined;
  /** Sends `signal` (default SIGKILL) and resolves when the process has exited; at once when none runs. */
  kill(signal?: NodeJS.Signals): Promise<ProcessExit | undefined>;
  /** Stops the process if it runs (SIGTERM, SIGKILL after 35 s), starts a new one with a fresh token, waits until ready. */
  restart(): Promise<void>;
  /** Stops the process (as `restart`), deletes its kubeconfig and removes the RBAC and namespace it installed (the CRDs stay). Idempotent. */
  stop(): Promise<void>;
  /** One request to `/readyz`. Rejects when nothing listens. */
  readyz(): Promise<ProbeAnswer>;
  /** The `/metrics` text. Rejects on a non-200 answer. */
  metricsText(): Promise<string>;
  /** The last `lines` (default 50) lines this handle's processes wrote to the shared log file. */
  logTail(lines?: number): Promise<string>;
}

/** The operator process exited, or never became ready, while {@link startOperator} waited for it. */
export class OperatorStartError extends Error {
  override readonly name = 'OperatorStartError';
  /** How the process ended; `undefined` when it was still running at the timeout (it is then killed). */
  readonly exit: ProcessExit | undefined;
  /** The end of its log. */
  readonly logTail: string;

  constructor(message: string, exit: ProcessExit | undefined, logTail: string) {
    super(`${message}\n--- last lines of the operator log ---\n${logTail}`);
    this.exit = exit;
    this.logTail = logTail;
  }
}

/** One GET of `<probesUrl>/readyz?verbose` (5 s timeout). Rejects when nothing answers. */
export async function probeReadyz(probesUrl: string): Promise<ProbeAnswer> {
  const response = await fetch(`${probesUrl}/readyz?verbose`, { signal: AbortSignal.timeout(5_000) });
  return { status: response.status, body: await response.text() };
}

/** The text of `<metricsUrl>/metrics` (10 s timeout). Rejects on a non-200 answer. */
export async function scrapeMetrics(metricsUrl: string): Promise<string> {
  const response = await fetch(`${metricsUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${metricsUrl}/metrics answered ${response.status}: ${body.slice(0, 500)}`);
  return body;
}
