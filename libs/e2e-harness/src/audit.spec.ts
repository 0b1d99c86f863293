import { describe, expect, it } from 'vitest';
import { countWrites, countWritesByObject, parseWrites } from './audit.ts';

const line = (verb: string, username: string, resource: string, extra: Record<string, unknown> = {}, stage = 'ResponseComplete'): string =>
  JSON.stringify({ verb, stage, user: { username }, objectRef: { resource, namespace: 'ns', name: 'x', ...extra }, requestReceivedTimestamp: '2026-11-30T00:00:00.000000Z' });

describe('audit log reading', () => {
  const text = [
    line('patch', 'op', 'kafkatopics', { subresource: 'status' }),
    line('create', 'op', 'events'),
    line('get', 'op', 'kafkatopics'),
    line('patch', 'admin', 'kafkatopics'),
    line('patch', 'op', 'kafkatopics', {}, 'RequestReceived'),
    '{"verb":"patch","stage":"Respo', // a line still being written
    '',
  ].join('\n');

  it("keeps only one identity's completed writes", () => {
    const writes = parseWrites(text, 'op');
    expect(writes.map((w) => `${w.verb} ${w.resource}`)).toEqual(['patch kafkatopics', 'create events']);
    expect(writes[0]).toMatchObject({ username: 'op', subresource: 'status', namespace: 'ns', name: 'x', at: '2026-11-30T00:00:00.000000Z' });
    expect(parseWrites(text, undefined)).toHaveLength(3);
  });

  it('counts by kind of write and by object', () => {
    const writes = parseWrites(text, undefined);
    expect(countWrites(writes)).toEqual({ 'patch kafkatopics/status': 1, 'create events': 1, 'patch kafkatopics': 1 });
    expect(countWritesByObject(writes)).toEqual({ 'patch kafkatopics/status ns/x': 1, 'create events ns/x': 1, 'patch kafkatopics ns/x': 1 });
  });
});
