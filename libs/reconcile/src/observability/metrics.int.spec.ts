import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllerBuilder } from '../controller/controller.ts';
import { TerminalError } from '../core/errors.ts';
import { parseExposition, valueOf } from '../testing/exposition.ts';
import type { Exposition } from '../testing/exposition.ts';
import { SharedInformers } from '../cache/informer.ts';
import { RuntimeMetrics } from './metrics.ts';
import { Result } from '../core/result.ts';
import type { Widget } from '../testing/control-plane.ts';
import { deleteNamespace, eventually, freshNamespace, installWidgetCrd, liveCluster, widgetType } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';

const WIDGETS = 20;
const CONTROLLER = { controller: 'widgets' };
const QUEUE = { name: 'widgets', controller: 'widgets' };

describe('RuntimeMetrics on a controller against the real apiserver', () => {
  let cluster: LiveCluster;
  const namespaces: string[] = [];

  beforeAll(async () => {
    cluster = await liveCluster();
    await installWidgetCrd(cluster);
  });

  afterAll(async () => {
    for (const ns of namespaces) await deleteNamespace(cluster, ns);
  });

  it('counts reconciles, errors and queue traffic under controller-runtime names', async () => {
    const ns = await freshNamespace(cluster, 'metrics');
    namespaces.push(ns);
    const m = new RuntimeMetrics();
    const scrape = async (): Promise<Exposition> => parseExposition(await m.metricsText());
    const failedOnce = new Set<string>();
    const informers = new SharedInformers({ kubeConfig: cluster.kubeConfig }, { namespace: ns });
    const controller = new ControllerBuilder({ informers }, 'widgets')
      .for(widgetType)
      .withOptions({ metrics: m.controller, queueMetrics: m.queue, maxConcurrentReconciles: 2 })
      .complete({
        async reconcile(widget: Widget, ctx) {
          const name = widget.metadata?.name ?? '';
          // One path fails once with a retryable error, one once with a terminal error (released by a spec change).
          if (name === 'w-3' && !failedOnce.has(name)) {
            failedOnce.add(name);
            throw new Error('transient failure, retry me');
          }
          if (name === 'w-7' && !failedOnce.has(name)) {
            failedOnce.add(name);
            throw new TerminalError('bad spec', 'InvalidSpec');
          }
          if (widget.status?.observedGeneration !== widget.metadata?.generation) {
            await cluster.client.patchStatus(widgetType, ctx.request, { type: 'merge', body: { status: { observedGeneration: widget.metadata?.generation } } });
          }
          return Result.done();
        },
      });
    const stop = new AbortController();
    const running = Promise.all([informers.run(stop.signal), controller.start(stop.signal)]);
    try {
      // The controller initialises its series once its cache has synced.
      await eventually(async () => valueOf(await scrape(), 'controller_runtime_max_concurrent_reconciles', CONTROLLER) === 2, 30_000, 'controller started');
      const before = await scrape();
      expect(valueOf(before, 'controller_runtime_reconcile_total', { ...CONTROLLER, result: 'success' })).toBe(0);

      await Promise.all(
        Array.from({ length: WIDGETS }, (_, i) =>
          cluster.client.create(widgetType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', metadata: { name: `w-${i}`, namespace: ns }, spec: { size: i } }),
        ),
      );
      const observed = async (expected: number): Promise<boolean> => {
        const list = await cluster.client.list(widgetType, { namespace: ns });
        return list.items.filter((w) => w.status?.observedGeneration === w.metadata?.generation).length === expected;
      };
      // w-7 stopped at its terminal error; every other widget converged (w-3 after one retry).
      await eventually(() => observed(WIDGETS - 1), 60_000, 'all but the terminally failed widget reconciled');
      await cluster.client.patch(widgetType, { namespace: ns, name: 'w-7' }, { type: 'merge', body: { spec: { size: 70 } } });
      await eventually(() => observed(WIDGETS), 60_000, 'terminally failed widget reconciled after a change');

      // Status writes wake further (no-op) reconciles; wait for the queue to empty, then stop so that every key
      // handed out has also been marked done and the counts below are one consistent snapshot.
      await eventually(async () => {
        const now = await scrape();
        return valueOf(now, 'workqueue_depth', QUEUE) === 0 && valueOf(now, 'controller_runtime_active_workers', CONTROLLER) === 0;
      }, 30_000, 'queue drained');
      stop.abort();
      await running;
      const after = await scrape();

      const delta = (name: string, labels: Record<string, string>): number => valueOf(after, name, labels) - valueOf(before, name, labels);
      // Each widget succeeded at least once; the changed w-7 counts at least once more.
      expect(delta('controller_runtime_reconcile_total', { ...CONTROLLER, result: 'success' })).toBeGreaterThanOrEqual(WIDGETS);
      expect(delta('controller_runtime_reconcile_total', { ...CONTROLLER, result: 'error' })).toBe(2);
      expect(delta('controller_runtime_reconcile_errors_total', CONTROLLER)).toBe(2);
      expect(delta('controller_runtime_terminal_reconcile_errors_total', CONTROLLER)).toBe(1);
      expect(delta('controller_runtime_reconcile_panics_total', CONTROLLER)).toBe(0);
      const reconciles = delta('controller_runtime_reconcile_total', CONTROLLER);
      expect(delta('controller_runtime_reconcile_time_seconds_count', CONTROLLER)).toBe(reconciles);
      // 20 creates, the retry of w-3 and the change of w-7, at least.
      expect(delta('workqueue_adds_total', QUEUE)).toBeGreaterThanOrEqual(WIDGETS + 2);
      expect(delta('workqueue_retries_total', QUEUE)).toBeGreaterThanOrEqual(1);
      expect(delta('workqueue_work_duration_seconds_count', QUEUE)).toBe(reconciles);
      expect(delta('workqueue_queue_duration_seconds_count', QUEUE)).toBe(reconciles);
      expect(valueOf(after, 'workqueue_depth', QUEUE)).toBe(0);
      expect(valueOf(after, 'workqueue_unfinished_work_seconds', QUEUE)).toBe(0);
      expect(valueOf(after, 'workqueue_longest_running_processor_seconds', QUEUE)).toBe(0);
      expect(valueOf(after, 'controller_runtime_max_concurrent_reconciles', CONTROLLER)).toBe(2);
      expect(after.type.get('workqueue_adds_total')).toBe('counter');
      expect(after.type.get('controller_runtime_reconcile_time_seconds')).toBe('histogram');
    } finally {
      stop.abort();
      await running;
    }
  });
});
