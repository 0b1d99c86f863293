import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { RuntimeMetrics } from '@domain-operators/reconcile';
import { singleOfKind } from '@domain-operators/e2e-harness';
import { describe, expect, it } from 'vitest';
import { CHARTS } from './chart-files.ts';
import { dashboard, dashboardExpressions, dashboardJson, metricReferences } from './dashboard.ts';
import { renderChart } from './render.ts';

/** Labels Prometheus adds to every series when it scrapes the metrics Service (ServiceMonitor or annotations). */
const TARGET_LABELS = ['namespace', 'job', 'pod', 'instance', 'service', 'endpoint', 'container'];

describe('the shared Grafana dashboard', () => {
  it('reads only metrics the runtime exports, with labels they carry', () => {
    const registry = new RuntimeMetrics().registry;
    const problems: string[] = [];
    for (const expr of dashboardExpressions()) {
      for (const { metric, labels } of metricReferences(expr)) {
        const exported = registry.getSingleMetric(metric) as { labelNames?: readonly string[] } | undefined;
        if (exported === undefined) {
          problems.push(`${metric}: not exported by RuntimeMetrics`);
          continue;
        }
        for (const label of labels) {
          if (!TARGET_LABELS.includes(label) && !(exported.labelNames ?? []).includes(label)) problems.push(`${metric}: no label ${label}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('covers reconcile rate and errors, reconcile time, queue depth and duration, workers, leader, memory and CPU', () => {
    const metrics = new Set(dashboardExpressions().flatMap((expr) => metricReferences(expr).map((ref) => ref.metric)));
    for (const metric of [
      'controller_runtime_reconcile_total',
      'controller_runtime_reconcile_errors_total',
      'controller_runtime_reconcile_time_seconds',
      'workqueue_depth',
      'workqueue_queue_duration_seconds',
      'controller_runtime_active_workers',
      'leader_election_master_status',
      'process_resident_memory_bytes',
      'process_cpu_seconds_total',
    ]) {
      expect(metrics, metric).toContain(metric);
    }
  });

  it('has unique panel ids and no overlapping panels on the grid', () => {
    const panels = dashboard()['panels'] as { id: number; gridPos: { x: number; y: number; w: number; h: number } }[];
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const cells = new Set<string>();
    for (const { gridPos } of panels) {
      expect(gridPos.x + gridPos.w).toBeLessThanOrEqual(24);
      for (let x = gridPos.x; x < gridPos.x + gridPos.w; x++) {
        for (let y = gridPos.y; y < gridPos.y + gridPos.h; y++) {
          expect(cells.has(`${x},${y}`), `cell ${x},${y}`).toBe(false);
          cells.add(`${x},${y}`);
        }
      }
    }
  });
});

describe('metricReferences', () => {
  it('finds selectors, strips _bucket, and collects matchers and by() labels except le', () => {
    expect(metricReferences('histogram_quantile(0.5, sum by (controller, le) (rate(x_seconds_bucket{job=~"$job", a="b"}[5m])))')).toEqual([
      { metric: 'x_seconds', labels: ['job', 'a', 'controller'] },
    ]);
  });
});

describe.each(CHARTS)('chart $name', (chart) => {
  it('ships the same dashboard file as every other chart, as generated', () => {
    expect(readFileSync(join(chart.dir, 'dashboards', 'operator.json'), 'utf8')).toBe(dashboardJson());
  });

  it('renders no dashboard by default, and a ConfigMap for the Grafana sidecar when grafanaDashboard.enabled', async () => {
    expect((await renderChart(chart)).map((o) => o.kind)).not.toContain('ConfigMap');
    const objects = await renderChart(chart, { setJson: { grafanaDashboard: { enabled: true, namespace: 'monitoring', labels: { team: 'platform' }, annotations: { grafana_folder: 'Operators' } } } });
    const configMap = singleOfKind(objects, 'ConfigMap') as KubernetesObject & { data: Record<string, string> };
    expect(configMap.metadata).toMatchObject({
      name: `r-${chart.name}-dashboard`,
      namespace: 'monitoring',
      labels: { grafana_dashboard: '1', team: 'platform' },
      annotations: { grafana_folder: 'Operators' },
    });
    expect(JSON.parse(configMap.data['domain-operators-runtime.json'] ?? '')).toEqual(dashboard());
  });
});
