import type { V1Container } from '@kubernetes/client-node';
import { expandVars } from './expand.ts';
import { mapPath, mapPathsInText } from './path-map.ts';
import type { PathMapping } from './path-map.ts';

/** Redis's default port, used when neither `--port` nor a TCP containerPort says otherwise. */
export const DEFAULT_REDIS_PORT = 6379;
/** The official image's working directory, used when the container sets none. */
export const IMAGE_WORKING_DIR = '/data';

/** Inputs of {@link buildRedisArgs}. */
export interface RedisArgsInput {
  readonly container: V1Container;
  /** The argv after `redis-server`, from `redisArgv`. */
  readonly argv: readonly string[];
  readonly env: ReadonlyMap<string, string>;
  readonly mappings: readonly PathMapping[];
  readonly podIP: string;
  /** Host directory standing for the container's writable layer, used as `--dir` when no mount covers it. */
  readonly scratchDir: string;
  /** Reads a (host) config file; `undefined` when unreadable. */
  readonly readText: (hostPath: string) => string | undefined;
}

/** The command line of one redis-server process. */
export interface RedisCommandLine {
  readonly args: string[];
  /** The TCP port it listens on (and is probed on). */
  readonly port: number;
  /** Host working directory to start the process in. */
  readonly cwd: string;
}

function optionValue(args: readonly string[], option: string): string | undefined {
  const index = args.lastIndexOf(option);
  return index >= 0 ? args[index + 1] : undefined;
}

/** The container's first TCP containerPort, if any. Pure. */
export function firstTcpPort(container: V1Container): number | undefined {
  return container.ports?.find((p) => (p.protocol ?? 'TCP') === 'TCP')?.containerPort;
}

/**
 * Builds the redis-server arguments: `$(VAR)` expansion of each argument, container paths under a volume mount
 * rewritten to host paths, then `--port` (kept when given, else the first TCP containerPort, else 6379), `--dir`
 * (only when neither the arguments nor the config file, the first non-option argument, set `dir`: the mapped
 * `workingDir`, default `/data`, or the scratch directory when no mount covers it), `--bind <podIP>`,
 * `--daemonize no` and `--logfile ""` (logs go to stdout, captured in the container log) appended last so they
 * win. Pure apart from `readText`.
 */
export function buildRedisArgs(input: RedisArgsInput): RedisCommandLine {
  const args = input.argv.map((arg) => mapPathsInText(expandVars(arg, input.env), input.mappings));
  const explicitPort = optionValue(args, '--port');
  const port = explicitPort !== undefined && /^\d+$/.test(explicitPort) ? Number(explicitPort) : (firstTcpPort(input.container) ?? DEFAULT_REDIS_PORT);
  const configFile = args[0] !== undefined && !args[0].startsWith('-') ? args[0] : undefined;
  const configText = configFile === undefined ? undefined : input.readText(configFile);
  const configDir = configText === undefined ? undefined : /^\s*dir\s+"?([^"\s]+)"?\s*$/m.exec(configText)?.[1];
  const workingDir = mapPath(input.container.workingDir ?? IMAGE_WORKING_DIR, input.mappings) ?? input.scratchDir;
  const out = [...args];
  if (explicitPort === undefined) out.push('--port', String(port));
  const dirSet = args.includes('--dir') || configDir !== undefined;
  if (!dirSet) out.push('--dir', workingDir);
  out.push('--bind', input.podIP, '--daemonize', 'no', '--logfile', '');
  const cwd = optionValue(args, '--dir') ?? configDir ?? workingDir;
  return { args: out, port, cwd: cwd.startsWith('/') ? cwd : workingDir };
}
