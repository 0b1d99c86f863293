import { describe, expect, it } from 'vitest';
import { afterProbe, INITIAL_READINESS, nextProbeDelayMs, pingAnswered, probeSettings } from './readiness.ts';

describe('probeSettings', () => {
  it('applies Kubernetes defaults', () => {
    expect(probeSettings({ name: 'r' })).toEqual({
      declared: false, initialDelayMs: 0, periodMs: 10_000, timeoutMs: 1_000, failureThreshold: 3, successThreshold: 1,
    });
    expect(probeSettings({ name: 'r', readinessProbe: { initialDelaySeconds: 5, periodSeconds: 2, failureThreshold: 1 } })).toMatchObject({
      declared: true, initialDelayMs: 5_000, periodMs: 2_000, failureThreshold: 1,
    });
  });
});

describe('afterProbe', () => {
  const settings = probeSettings({ name: 'r', readinessProbe: { failureThreshold: 2, successThreshold: 2 } });

  it('becomes ready after successThreshold successes and unready after failureThreshold failures', () => {
    let s = afterProbe(INITIAL_READINESS, true, settings);
    expect(s.ready).toBe(false);
    s = afterProbe(s, true, settings);
    expect(s.ready).toBe(true);
    s = afterProbe(s, false, settings);
    expect(s.ready).toBe(true);
    s = afterProbe(s, true, settings);
    s = afterProbe(s, false, settings);
    expect(s.ready).toBe(true);
    s = afterProbe(s, false, settings);
    expect(s.ready).toBe(false);
    expect(s.everReady).toBe(true);
  });
});

describe('nextProbeDelayMs', () => {
  it('waits the initial delay, probes every 250 ms until ready, then every period', () => {
    const declared = probeSettings({ name: 'r', readinessProbe: { initialDelaySeconds: 3, periodSeconds: 10 } });
    expect(nextProbeDelayMs(INITIAL_READINESS, declared, 0)).toBe(3_000);
    expect(nextProbeDelayMs(INITIAL_READINESS, declared, 1)).toBe(250);
    const ready = afterProbe(INITIAL_READINESS, true, declared);
    expect(nextProbeDelayMs(ready, declared, 2)).toBe(10_000);
  });

  it('stops after the first success without a declared probe', () => {
    const implicit = probeSettings({ name: 'r' });
    expect(nextProbeDelayMs(INITIAL_READINESS, implicit, 0)).toBe(0);
    expect(nextProbeDelayMs(afterProbe(INITIAL_READINESS, true, implicit), implicit, 1)).toBeUndefined();
  });

  it('honours a period shorter than the eager interval', () => {
    const fast = { ...probeSettings({ name: 'r' }), periodMs: 100 };
    expect(nextProbeDelayMs(INITIAL_READINESS, fast, 1)).toBe(100);
  });
});

describe('pingAnswered', () => {
  it('accepts PONG and auth errors only', () => {
    expect(pingAnswered('+PONG')).toBe(true);
    expect(pingAnswered('-NOAUTH Authentication required.')).toBe(true);
    expect(pingAnswered('-LOADING Redis is loading the dataset in memory')).toBe(false);
    expect(pingAnswered('')).toBe(false);
  });
});
