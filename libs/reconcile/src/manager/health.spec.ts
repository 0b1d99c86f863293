import { describe, expect, it } from 'vitest';
import { informerChecks, probeResponse } from './health.ts';
import type { InformerHealth } from '../cache/informer.ts';

const healthy: InformerHealth = { state: 'Watching', resourceVersion: '10', lastEventTime: 1_000, lastActivityTime: 50_000, consecutiveFailures: 0, lastError: undefined, synced: true };

describe('informerChecks', () => {
  const at = (now: number, health: Record<string, InformerHealth>, syncTimeoutMs?: number) =>
    informerChecks(health, { now, inactivityTimeoutMs: 70_000, ...(syncTimeoutMs !== undefined && { syncTimeoutMs }) });

  it('passes a synced watch that heard from the apiserver within the inactivity timeout', () => {
    expect(at(100_000, { widgets: healthy })).toEqual([{ name: 'informer:widgets', ok: true }]);
  });

  it('fails a watch silent for longer than the inactivity timeout', () => {
    expect(at(121_000, { widgets: healthy })[0]).toEqual({ name: 'informer:widgets', ok: false, reason: 'watch of widgets has had no data from the apiserver for 71 s (limit 70 s)' });
  });

  it('fails a watch in backoff, with its last error', () => {
    const [check] = at(60_000, { widgets: { ...healthy, state: 'Backoff', consecutiveFailures: 3, lastError: new Error('connect ECONNREFUSED') } });
    expect(check?.reason).toBe('watch of widgets in backoff after 3 failure(s): connect ECONNREFUSED');
  });

  it('fails an unsynced cache, naming the kind and the sync timeout once it passed', () => {
    const unsynced = { ...healthy, synced: false, state: 'Listing' as const, lastActivityTime: undefined };
    expect(at(0, { kafkatopics: unsynced })[0]?.reason).toBe('cache for kafkatopics not synced yet (watch Listing)');
    expect(at(0, { kafkatopics: { ...unsynced, lastError: new Error('403 forbidden') } }, 120_000)[0]?.reason).toBe('cache for kafkatopics not synced within 120 s (watch Listing): 403 forbidden');
  });

  it('fails a stopped watch', () => {
    expect(at(60_000, { widgets: { ...healthy, state: 'Stopped' } })[0]?.ok).toBe(false);
  });
});

describe('probeResponse', () => {
  it('is 200 with [+] lines when all pass, 503 with a reason per failing check otherwise', () => {
    expect(probeResponse('readyz', [{ name: 'a', ok: true }], ['leader'])).toEqual({ status: 200, body: 'leader\n[+]a ok\nreadyz check passed\n' });
    expect(probeResponse('readyz', [{ name: 'a', ok: true }, { name: 'b', ok: false, reason: 'why' }])).toEqual({ status: 503, body: '[+]a ok\n[-]b failed: why\nreadyz check failed\n' });
  });
});
