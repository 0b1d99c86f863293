import { pino } from 'pino';
import type { Logger } from '../core/logger.ts';
import type { LogLevel } from '../core/logger.ts';

/** `json`: one JSON object per line (for log collectors). `text`: one compact human line (for terminals). */
export type LogFormat = 'json' | 'text';

/** Somewhere log lines go; each call gets one complete line ending in `\n`. Must not throw. */
export interface LogDestination {
  write(line: string): void;
}

/** Options for {@link createLogger}. */
export interface CreateLoggerOptions {
  readonly level: LogLevel;
  /**
   * The `logger` field of every line, usually the operator's name. (Not `name`: that field is the reconciled
   * object's name, bound by the controller loop; pino would otherwise write the key twice.)
   */
  readonly name: string;
  /** Default: {@link defaultLogFormat} of the environment and stdout at call time. */
  readonly format?: LogFormat;
  /** Default: stdout, written synchronously so nothing is lost when the process exits right after logging. */
  readonly destination?: LogDestination;
}

/**
 * Field paths whose values are replaced by `[REDACTED]` before a line is written: credentials at the top level of
 * the fields or one level down (e.g. `{ user: { password } }`), and the `data`/`stringData` of a Secret logged as
 * an object. Defence in depth only: never put secrets in log fields in the first place.
 */
export const REDACTED_PATHS: readonly string[] = ['password', 'token', 'secret', 'apiKey', 'authorization', 'credentials', 'data', 'stringData'].flatMap(
  (key) => [key, `*.${key}`],
);

/** `text` when stdout is a terminal and `LOG_FORMAT` is not `json`; `json` otherwise (and whenever `LOG_FORMAT=json`). */
export function defaultLogFormat(env: Readonly<Record<string, string | undefined>>, stdoutIsTTY: boolean): LogFormat {
  if (env['LOG_FORMAT'] === 'json') return 'json';
  if (env['LOG_FORMAT'] === 'text') return 'text';
  return stdoutIsTTY ? 'text' : 'json';
}

/**
 * The process logger: pino, JSON lines with `level` (a label), `time` (ISO 8601), `name`, `msg`, and the fields
 * the runtime binds (`controller`, `namespace`, `name` of the object, `reconcileId`), and `logger`, with {@link REDACTED_PATHS}
 * censored. In `text` format the same lines are rendered by {@link formatLine}. The returned logger satisfies
 * {@link Logger} (it is pino's, so `trace`, `fatal` and `flush` are there too for callers that want them).
 */
export function createLogger(options: CreateLoggerOptions): pino.Logger & Logger {
  const format = options.format ?? defaultLogFormat(process.env, process.stdout.isTTY);
  const sink: LogDestination = options.destination ?? pino.destination({ dest: 1, sync: true });
  const destination: LogDestination =
    format === 'json'
      ? sink
      : {
          write: (line) => {
            sink.write(formatLine(line, options.destination === undefined && process.stdout.isTTY));
          },
        };
  return pino(
    {
      level: options.level,
      base: { logger: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: [...REDACTED_PATHS], censor: '[REDACTED]' },
    },
    destination,
  );
}

const LEVEL_STYLE: Readonly<Record<string, { readonly tag: string; readonly color: string }>> = {
  trace: { tag: 'TRC', color: '\x1b[90m' },
  debug: { tag: 'DBG', color: '\x1b[36m' },
  info: { tag: 'INF', color: '\x1b[32m' },
  warn: { tag: 'WRN', color: '\x1b[33m' },
  error: { tag: 'ERR', color: '\x1b[31m' },
  fatal: { tag: 'FTL', color: '\x1b[35m' },
};

// Shown in this order before the message; the rest follow it as key=value.
const HEAD_FIELDS = new Set(['time', 'level', 'logger', 'name', 'msg', 'controller', 'namespace', 'reconcileId', 'pid', 'hostname']);

/**
 * Renders one pino JSON line as `15:04:05.000 INF [controller ns/name] message key=value …` (with ANSI colours
 * when `color`); lines without a controller show `[logger]` instead. A line that is not JSON is passed through
 * unchanged. Pure.
 */
export function formatLine(json: string, color = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const level = typeof entry['level'] === 'string' ? entry['level'] : 'info';
  const style = LEVEL_STYLE[level] ?? { tag: level.toUpperCase().slice(0, 3), color: '' };
  const time = typeof entry['time'] === 'string' ? entry['time'].slice(11, 23) : '';
  const controller = typeof entry['controller'] === 'string' ? entry['controller'] : undefined;
  const object = [entry['namespace'], entry['name']].filter((part) => typeof part === 'string').join('/');
  const logger = typeof entry['logger'] === 'string' ? entry['logger'] : undefined;
  const where = controller !== undefined ? `[${controller}${object === '' ? '' : ` ${object}`}] ` : logger !== undefined ? `[${logger}] ` : '';
  const rest = Object.entries(entry)
    .filter(([key]) => !HEAD_FIELDS.has(key))
    .map(([key, value]) => `${key}=${renderValue(value)}`);
  const id = typeof entry['reconcileId'] === 'string' ? [`reconcileId=${entry['reconcileId'].slice(0, 8)}`] : [];
  const tag = color ? `${style.color}${style.tag}\x1b[0m` : style.tag;
  const message = typeof entry['msg'] === 'string' ? entry['msg'] : '';
  return `${[time, tag, `${where}${message}`, ...rest, ...id].filter((part) => part !== '').join(' ')}\n`;
}

function renderValue(value: unknown): string {
  if (typeof value === 'string') return /[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value;
  // JSON.stringify returns undefined for undefined, functions and symbols, whatever its type says.
  return value === undefined || typeof value === 'function' || typeof value === 'symbol' ? String(value) : JSON.stringify(value);
}
