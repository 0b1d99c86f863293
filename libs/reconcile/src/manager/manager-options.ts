import { parseArgs } from 'node:util';
import type { LogLevel } from '../core/logger.ts';
import { LOG_LEVELS } from '../core/logger.ts';

/** Leader election settings (controller-runtime defaults: 15 s lease, 10 s renew deadline, 2 s retry). */
export interface LeaderElectionOptions {
  readonly enabled: boolean;
  /** Name of the `coordination.k8s.io/v1` Lease. */
  readonly leaseName: string;
  /** Namespace of the Lease; `undefined` means the namespace the operator runs in. */
  readonly namespace: string | undefined;
  readonly leaseDurationMs: number;
  readonly renewDeadlineMs: number;
  readonly retryPeriodMs: number;
}

/** Everything an operator process is configured with, resolved once at start. */
export interface ManagerOptions {
  /** `host:port` for `/metrics`; `0` disables it. */
  readonly metricsBindAddress: string;
  /** `host:port` for `/healthz` and `/readyz`; `0` disables it. */
  readonly healthProbeBindAddress: string;
  readonly leaderElection: LeaderElectionOptions;
  /** Namespaces to watch; empty means every namespace. */
  readonly namespaces: readonly string[];
  readonly logLevel: LogLevel;
  /** Workers per controller (controller-runtime's MaxConcurrentReconciles, default 1). */
  readonly maxConcurrentReconciles: number;
}

/** Per-operator defaults that cannot be shared. */
export interface ManagerOptionsDefaults {
  /** Lease name, unique per operator, e.g. `kafka-operator.kafka.domain-operators.io`. */
  readonly leaseName: string;
}

/** A configuration value that cannot be used; the message names the flag and the environment variable. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const FLAGS = {
  'metrics-bind-address': { type: 'string', env: 'METRICS_BIND_ADDRESS' },
  'health-probe-bind-address': { type: 'string', env: 'HEALTH_PROBE_BIND_ADDRESS' },
  'leader-elect': { type: 'boolean', env: 'LEADER_ELECT' },
  'leader-election-id': { type: 'string', env: 'LEADER_ELECTION_ID' },
  'leader-election-namespace': { type: 'string', env: 'LEADER_ELECTION_NAMESPACE' },
  'lease-duration': { type: 'string', env: 'LEASE_DURATION' },
  'renew-deadline': { type: 'string', env: 'RENEW_DEADLINE' },
  'retry-period': { type: 'string', env: 'RETRY_PERIOD' },
  namespaces: { type: 'string', env: 'WATCH_NAMESPACES' },
  'log-level': { type: 'string', env: 'LOG_LEVEL' },
  'max-concurrent-reconciles': { type: 'string', env: 'MAX_CONCURRENT_RECONCILES' },
} as const;

type FlagName = keyof typeof FLAGS;

/**
 * Resolves the operator's options from command-line flags and environment variables, flags winning.
 * Pure: reads only its arguments. Throws {@link ConfigError} with a message naming the flag and its
 * environment variable for any value it cannot use; never returns a half-valid configuration.
 */
export function parseManagerOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  defaults: ManagerOptionsDefaults,
): ManagerOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    const options = Object.fromEntries(Object.entries(FLAGS).map(([name, spec]) => [name, { type: spec.type }]));
    values = parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const raw = (flag: FlagName): string | undefined => {
    const fromFlag = values[flag];
    if (typeof fromFlag === 'boolean') return String(fromFlag);
    return fromFlag ?? env[FLAGS[flag].env];
  };
  const where = (flag: FlagName): string => `--${flag} (or ${FLAGS[flag].env})`;

  const leaseDurationMs = duration(raw('lease-duration'), 15_000, where('lease-duration'));
  const renewDeadlineMs = duration(raw('renew-deadline'), 10_000, where('renew-deadline'));
  const retryPeriodMs = duration(raw('retry-period'), 2_000, where('retry-period'));
  if (!(leaseDurationMs > renewDeadlineMs && renewDeadlineMs > retryPeriodMs)) {
    throw new ConfigError(
      `leader election needs lease duration > renew deadline > retry period, got ${leaseDurationMs} ms, ${renewDeadlineMs} ms, ${retryPeriodMs} ms`,
    );
  }
  const logLevel = raw('log-level') ?? 'info';
  if (!isLogLevel(logLevel)) {
    throw new ConfigError(`${where('log-level')} must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const workers = raw('max-concurrent-reconciles') ?? '1';
  const maxConcurrentReconciles = Number(workers);
  if (!Number.isInteger(maxConcurrentReconciles) || maxConcurrentReconciles < 1) {
    throw new ConfigError(`${where('max-concurrent-reconciles')} must be a whole number ≥ 1, got "${workers}"`);
  }
  return {
    metricsBindAddress: address(raw('metrics-bind-address'), ':8080', where('metrics-bind-address')),
    healthProbeBindAddress: address(raw('health-probe-bind-address'), ':8081', where('health-probe-bind-address')),
    leaderElection: {
      enabled: boolean(raw('leader-elect'), false, where('leader-elect')),
      leaseName: raw('leader-election-id') ?? defaults.leaseName,
      namespace: raw('leader-election-namespace'),
      leaseDurationMs,
      renewDeadlineMs,
      retryPeriodMs,
    },
    namespaces: (raw('namespaces') ?? '')
      .split(',')
      .map((ns) => ns.trim())
      .filter((ns) => ns !== ''),
    logLevel,
    maxConcurrentReconciles,
  };
}

function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

function boolean(value: string | undefined, fallback: boolean, where: string): boolean {
  if (value === undefined) return fallback;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new ConfigError(`${where} must be true or false, got "${value}"`);
}

function address(value: string | undefined, fallback: string, where: string): string {
  const result = value ?? fallback;
  if (result === '0' || /^[\w.-]*:\d{1,5}$/.test(result) || /^\[[\da-f:]+\]:\d{1,5}$/i.test(result)) return result;
  throw new ConfigError(`${where} must be host:port, :port or 0 (disabled), got "${result}"`);
}

/** Parses `15s`, `500ms`, `2m` or a bare number of milliseconds. */
function duration(value: string | undefined, fallback: number, where: string): number {
  if (value === undefined) return fallback;
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(value.trim());
  if (match?.[1] === undefined) throw new ConfigError(`${where} must be a duration such as 500ms, 15s or 2m, got "${value}"`);
  const factor = match[2] === 's' ? 1_000 : match[2] === 'm' ? 60_000 : 1;
  return Math.round(Number(match[1]) * factor);
}
