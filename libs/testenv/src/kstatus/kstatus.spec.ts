import { describe, expect, it } from 'vitest';
import { parseKstatusOutput } from './kstatus.ts';

describe('parseKstatusOutput', () => {
  it('reads one verdict per line and skips blank lines', () => {
    const out = '{"apiVersion":"x.io/v1","kind":"W","namespace":"n","name":"a","status":"Failed","message":"no"}\n\n{"apiVersion":"x.io/v1","kind":"C","name":"b","status":"Current","message":"Resource is current"}\n';
    expect(parseKstatusOutput(out)).toEqual([
      { apiVersion: 'x.io/v1', kind: 'W', namespace: 'n', name: 'a', status: 'Failed', message: 'no' },
      { apiVersion: 'x.io/v1', kind: 'C', name: 'b', status: 'Current', message: 'Resource is current' },
    ]);
  });

  it('refuses a line of another shape or an unknown verdict', () => {
    expect(() => parseKstatusOutput('{"kind":"W"}')).toThrow(/another shape/);
    expect(() => parseKstatusOutput('{"apiVersion":"v1","kind":"W","name":"a","status":"Fine","message":""}')).toThrow(/another shape/);
    expect(() => parseKstatusOutput('[]')).toThrow(/another shape|not an object/);
  });
});
