import { describe, expect, it } from 'vitest';
import { createLogger, defaultLogFormat, formatLine } from './log.ts';
import type { Logger } from '../core/logger.ts';

function capture() {
  const lines: string[] = [];
  return { lines, destination: { write: (line: string) => lines.push(line) } };
}

describe('createLogger', () => {
  it('writes one JSON object per line with level label, logger name and the loop bindings', () => {
    const { lines, destination } = capture();
    const logger: Logger = createLogger({ level: 'info', name: 'kafka-operator', format: 'json', destination });
    logger.child({ controller: 'kafkatopic', namespace: 'ns', name: 't1', reconcileId: 'abc' }).info({ durationMs: 3 }, 'reconciled');
    logger.debug({}, 'dropped below level');
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 'info', logger: 'kafka-operator', controller: 'kafkatopic', namespace: 'ns', name: 't1', reconcileId: 'abc', durationMs: 3, msg: 'reconciled' });
    expect(entry['time']).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('never writes a password, token or Secret data, at the top level or one level down', () => {
    const { lines, destination } = capture();
    const logger = createLogger({ level: 'debug', name: 'op', format: 'json', destination });
    logger.info({ password: 'hunter2', token: 'tok-123' }, 'top level');
    logger.child({ controller: 'users' }).warn({ user: { name: 'alice', password: 'hunter2' }, auth: { token: 'tok-123', secret: 's3cr3t' } }, 'nested');
    logger.info({ object: { kind: 'Secret', data: { password: 'aHVudGVyMg==' }, stringData: { password: 'hunter2' } } }, 'a secret');
    for (const format of ['json', 'text'] as const) {
      const out = capture();
      createLogger({ level: 'info', name: 'op', format, destination: out.destination }).error({ credentials: { password: 'hunter2' }, password: 'hunter2' }, 'x');
      lines.push(...out.lines);
    }
    const output = lines.join('');
    for (const secret of ['hunter2', 'tok-123', 's3cr3t', 'aHVudGVyMg==']) expect(output).not.toContain(secret);
    expect(output).toContain('[REDACTED]');
    expect(output).toContain('alice');
  });

  it('renders compact human lines in text format', () => {
    const { lines, destination } = capture();
    createLogger({ level: 'info', name: 'op', format: 'text', destination })
      .child({ controller: 'widgets', namespace: 'ns', name: 'w1', reconcileId: '0123456789abcdef' })
      .warn({ retries: 2, error: 'boom here' }, 'reconcile failed');
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WRN \[widgets ns\/w1\] reconcile failed retries=2 error="boom here" reconcileId=01234567\n$/);
  });
});

describe('formatLine', () => {
  it('shows the logger name when no controller is bound, and passes non-JSON through', () => {
    expect(formatLine('{"level":"info","time":"2026-01-02T03:04:05.678Z","logger":"op","msg":"starting","port":8081}')).toBe('03:04:05.678 INF [op] starting port=8081\n');
    expect(formatLine('not json\n')).toBe('not json\n');
  });

  it('colours the level tag only when asked', () => {
    expect(formatLine('{"level":"error","msg":"x"}', true)).toContain('\x1b[31mERR\x1b[0m');
  });
});

describe('defaultLogFormat', () => {
  it('is text on a terminal unless LOG_FORMAT=json, and json elsewhere', () => {
    expect(defaultLogFormat({}, true)).toBe('text');
    expect(defaultLogFormat({ LOG_FORMAT: 'json' }, true)).toBe('json');
    expect(defaultLogFormat({}, false)).toBe('json');
    expect(defaultLogFormat({ LOG_FORMAT: 'text' }, false)).toBe('text');
  });
});
