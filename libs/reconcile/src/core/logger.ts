/** Log levels, most verbose first. */
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;

/** One of {@link LOG_LEVELS}. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Structured fields of a log line. Never put secrets here. */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * The logging interface the runtime writes to; pino's `Logger` satisfies it. Methods must not throw and must
 * not block the caller.
 */
export interface Logger {
  debug(fields: LogFields, message: string): void;
  info(fields: LogFields, message: string): void;
  warn(fields: LogFields, message: string): void;
  error(fields: LogFields, message: string): void;
  /** A logger that adds `bindings` to every line. */
  child(bindings: LogFields): Logger;
}

/** A logger that drops everything (the default where none is given). */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  child: () => silentLogger,
};

/** Renders an unknown thrown value for a log line: its message and, for errors, its name. */
export function errorFields(err: unknown): LogFields {
  if (err instanceof Error) return { error: err.message, errorType: err.name };
  return { error: String(err) };
}
