// `nx run charts:generate`: writes each chart's README.md (from Chart.yaml, values.yaml and values.schema.json)
// and dashboards/operator.json (the shared Grafana dashboard). With --check, writes nothing and exits non-zero when
// a committed file differs from what would be generated.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { CHARTS, CHARTS_DIR } from './chart-files.ts';
import type { ChartRef } from './chart-files.ts';
import { renderChartReadme } from './chart-readme.ts';
import { dashboardJson } from './dashboard.ts';

/** A generated file: where it goes and what it must contain. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}

/** Every file generated for `chart`, read from the chart folder. */
export function generatedFiles(chart: ChartRef): GeneratedFile[] {
  const read = (file: string): string => readFileSync(join(chart.dir, file), 'utf8');
  return [
    { path: join(chart.dir, 'README.md'), content: renderChartReadme({ chartYaml: read('Chart.yaml'), valuesYaml: read('values.yaml'), schema: JSON.parse(read('values.schema.json')) }) },
    { path: join(chart.dir, 'dashboards', 'operator.json'), content: dashboardJson() },
  ];
}

/** The generated files whose committed content differs (or that are missing), as paths relative to `charts/`. */
export function staleGeneratedFiles(charts: readonly ChartRef[] = CHARTS): string[] {
  return charts
    .flatMap(generatedFiles)
    .filter((file) => {
      try {
        return readFileSync(file.path, 'utf8') !== file.content;
      } catch {
        return true;
      }
    })
    .map((file) => relative(CHARTS_DIR, file.path));
}

if (import.meta.main) {
  if (process.argv.includes('--check')) {
    const stale = staleGeneratedFiles();
    for (const file of stale) process.stdout.write(`stale: charts/${file} (run nx run charts:generate)\n`);
    process.exitCode = stale.length === 0 ? 0 : 1;
  } else {
    for (const file of CHARTS.flatMap(generatedFiles)) {
      mkdirSync(dirname(file.path), { recursive: true });
      writeFileSync(file.path, file.content);
      process.stdout.write(`wrote charts/${relative(CHARTS_DIR, file.path)}\n`);
    }
  }
}
