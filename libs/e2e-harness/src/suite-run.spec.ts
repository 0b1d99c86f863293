import { describe, expect, it } from 'vitest';
import { formatSuiteReport, runSuitePlan } from './suite-run.ts';
import type { SuiteStep } from './suite-lanes.ts';

const step = (project: string, target: 'integration' | 'e2e' = 'integration'): SuiteStep => ({ project, target });

describe('runSuitePlan', () => {
  it('runs alone steps one at a time before the lanes, and the lanes side by side', async () => {
    const events: string[] = [];
    let running = 0;
    let most = 0;
    const report = await runSuitePlan(
      { alone: [step('a'), step('b')], lanes: [{ name: 'x', steps: [step('x1'), step('x2', 'e2e')] }, { name: 'y', steps: [step('y1')] }] },
      async (s) => {
        running += 1;
        most = Math.max(most, running);
        events.push(`start ${s.project}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`end ${s.project}`);
        running -= 1;
        return 0;
      },
      new AbortController().signal,
    );
    expect(events.slice(0, 4)).toEqual(['start a', 'end a', 'start b', 'end b']);
    expect(events.slice(4, 6).sort()).toEqual(['start x1', 'start y1']);
    expect(events.indexOf('start x2')).toBeGreaterThan(events.indexOf('end x1'));
    expect(most).toBe(2);
    expect(report.failed).toBe(false);
    expect(report.outcomes.map((o) => `${o.lane ?? '-'}:${o.step.project}`).sort()).toEqual(['-:a', '-:b', 'x:x1', 'x:x2', 'y:y1']);
  });

  it('goes on after a failed step and reports the run failed', async () => {
    const ran: string[] = [];
    const report = await runSuitePlan(
      { alone: [step('a')], lanes: [{ name: 'x', steps: [step('x1'), step('x2')] }] },
      (s) => {
        ran.push(s.project);
        return Promise.resolve(s.project === 'a' ? 3 : 0);
      },
      new AbortController().signal,
    );
    expect(ran).toEqual(['a', 'x1', 'x2']);
    expect(report.failed).toBe(true);
    expect(report.outcomes[0]?.exitCode).toBe(3);
  });

  it('starts no further step once stopped, and counts the run as failed', async () => {
    const stop = new AbortController();
    const ran: string[] = [];
    const report = await runSuitePlan(
      { alone: [step('a'), step('b')], lanes: [{ name: 'x', steps: [step('x1')] }] },
      (s) => {
        ran.push(s.project);
        stop.abort();
        return Promise.resolve(0);
      },
      stop.signal,
    );
    expect(ran).toEqual(['a']);
    expect(report.failed).toBe(true);
  });
});

describe('formatSuiteReport', () => {
  it('lists every step with its lane, seconds and result, then the phases and the busiest lane', () => {
    const text = formatSuiteReport({
      outcomes: [
        { step: step('testenv'), lane: undefined, exitCode: 0, ms: 73_000 },
        { step: step('e2e-kafka', 'e2e'), lane: 'kafka', exitCode: 1, ms: 319_400 },
        { step: step('kafka-operator'), lane: 'kafka', exitCode: 0, ms: 120_000 },
        { step: step('reconcile'), lane: 'runtime', exitCode: 0, ms: 181_000 },
      ],
      aloneMs: 73_000,
      lanesMs: 450_000,
      failed: true,
    });
    expect(text).toContain('alone        testenv:integration');
    expect(text).toContain('  kafka        e2e-kafka:e2e                         319 s  FAILED (exit 1)\n');
    expect(text).toContain('alone 73 s, then 2 lanes side by side 450 s (busiest lane 439 s); 523 s in all for 693 s of steps');
  });
});
