// `nx run charts:lint` (with eslint): `helm lint --strict` on every chart, with its default values and with every
// example values file. Exits non-zero when any lint fails.
import { basename } from 'node:path';
import { helm } from '@domain-operators/e2e-harness';
import { CHARTS, exampleValuesFiles } from './chart-files.ts';

/** One `helm lint` run: a chart and an optional values file. */
export interface LintRun {
  readonly chartDir: string;
  readonly valuesFile: string | undefined;
}

/** Every lint run: each chart with its defaults, then with each example values file. Pure over its inputs. */
export function lintRuns(chartDirs: readonly string[], valuesFiles: readonly string[]): LintRun[] {
  return chartDirs.flatMap((chartDir) => [undefined, ...valuesFiles].map((valuesFile) => ({ chartDir, valuesFile })));
}

/** Runs every lint and resolves with the number that failed, printing one line per run and helm's output on failure. */
export async function lintCharts(): Promise<number> {
  let failed = 0;
  for (const run of lintRuns(
    CHARTS.map((chart) => chart.dir),
    exampleValuesFiles(),
  )) {
    const result = await helm(['lint', '--strict', run.chartDir, ...(run.valuesFile === undefined ? [] : ['--values', run.valuesFile])]);
    const label = `${basename(run.chartDir)}${run.valuesFile === undefined ? '' : ` with ${basename(run.valuesFile)}`}`;
    process.stdout.write(`helm lint --strict ${label}: ${result.exitCode === 0 ? 'ok' : 'FAILED'}\n`);
    if (result.exitCode !== 0) {
      failed++;
      process.stdout.write(`${result.stdout}${result.stderr}\n`);
    }
  }
  return failed;
}

if (import.meta.main) {
  lintCharts().then(
    (failed) => {
      process.exitCode = failed === 0 ? 0 : 1;
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
