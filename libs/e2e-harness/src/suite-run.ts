import type { SuitePlan, SuiteStep } from './suite-lanes.ts';

/** How one step ended: its exit code (0 passed) and how long it took. */
export interface StepOutcome {
  readonly step: SuiteStep;
  /** The lane it ran in, or undefined for a step run alone. */
  readonly lane: string | undefined;
  readonly exitCode: number;
  readonly ms: number;
}

/** Runs one step and resolves with its exit code; never rejects (a failure to start is an exit code too). */
export type StepRunner = (step: SuiteStep, lane: string | undefined) => Promise<number>;

/** What {@link runSuitePlan} resolves with. */
export interface SuiteRunReport {
  readonly outcomes: readonly StepOutcome[];
  /** Wall-clock time of the alone phase and of the lanes phase. */
  readonly aloneMs: number;
  readonly lanesMs: number;
  readonly failed: boolean;
}

/**
 * Runs `plan`: the alone steps one at a time, then every lane at once, each lane's steps one after another. A
 * failed step does not stop the run (the reports of every suite are wanted); `stop` does: no further step starts
 * once it is aborted. `now` is the clock (milliseconds). Resolves when every started step has ended.
 */
export async function runSuitePlan(plan: SuitePlan, run: StepRunner, stop: AbortSignal, now: () => number = Date.now): Promise<SuiteRunReport> {
  const outcomes: StepOutcome[] = [];
  const runAll = async (steps: readonly SuiteStep[], lane: string | undefined): Promise<void> => {
    for (const step of steps) {
      if (stop.aborted) return;
      const started = now();
      const exitCode = await run(step, lane);
      outcomes.push({ step, lane, exitCode, ms: now() - started });
    }
  };
  const aloneStarted = now();
  await runAll(plan.alone, undefined);
  const lanesStarted = now();
  await Promise.all(plan.lanes.map(async (lane) => runAll(lane.steps, lane.name)));
  const ended = now();
  return {
    outcomes,
    aloneMs: lanesStarted - aloneStarted,
    lanesMs: ended - lanesStarted,
    failed: stop.aborted || outcomes.some((o) => o.exitCode !== 0),
  };
}

/** The closing table: one line per step (lane, target, seconds, result), then both phases' wall-clock times. Pure. */
export function formatSuiteReport(report: SuiteRunReport): string {
  const seconds = (ms: number): string => `${(ms / 1000).toFixed(0)} s`;
  const lines = report.outcomes.map((o) => {
    const result = o.exitCode === 0 ? 'passed' : `FAILED (exit ${o.exitCode})`;
    return `  ${(o.lane ?? 'alone').padEnd(12)} ${`${o.step.project}:${o.step.target}`.padEnd(36)} ${seconds(o.ms).padStart(6)}  ${result}`;
  });
  const laneTotals = new Map<string, number>();
  for (const o of report.outcomes) if (o.lane !== undefined) laneTotals.set(o.lane, (laneTotals.get(o.lane) ?? 0) + o.ms);
  const busiest = [...laneTotals.values()].reduce((a, b) => Math.max(a, b), 0);
  const serial = report.outcomes.reduce((sum, o) => sum + o.ms, 0);
  return [
    'suites:',
    ...lines,
    `  alone ${seconds(report.aloneMs)}, then ${laneTotals.size} lanes side by side ${seconds(report.lanesMs)} (busiest lane ${seconds(busiest)});` +
      ` ${seconds(report.aloneMs + report.lanesMs)} in all for ${seconds(serial)} of steps`,
  ].join('\n');
}
