import type { KubernetesObject } from '@kubernetes/client-node';
import { helmTemplate, parseManifests } from '@domain-operators/e2e-harness';
import type { ChartRef } from './chart-files.ts';

/** Options for {@link renderChart}. */
export interface RenderOptions {
  readonly releaseName?: string;
  readonly namespace?: string;
  readonly valuesFiles?: readonly string[];
  readonly setJson?: Readonly<Record<string, unknown>>;
  readonly includeCrds?: boolean;
}

/** Renders a chart with `helm template` (release `r` in namespace `ops` unless told otherwise) into objects. */
export async function renderChart(chart: ChartRef, options: RenderOptions = {}): Promise<KubernetesObject[]> {
  return parseManifests(
    await helmTemplate({
      chartDir: chart.dir,
      releaseName: options.releaseName ?? 'r',
      namespace: options.namespace ?? 'ops',
      ...(options.valuesFiles !== undefined && { valuesFiles: options.valuesFiles }),
      ...(options.setJson !== undefined && { setJson: options.setJson }),
      ...(options.includeCrds !== undefined && { includeCrds: options.includeCrds }),
    }),
  );
}
