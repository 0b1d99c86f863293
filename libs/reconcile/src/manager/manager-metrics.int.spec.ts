import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ControllerBuilder } from '../controller/controller.ts';
import { parseExposition, valueOf } from '../testing/exposition.ts';
import { Manager } from './manager.ts';
import { parseManagerOptions } from './manager-options.ts';
import { Result } from '../core/result.ts';
import type { LiveCluster } from '../testing/control-plane.ts';
import { deleteNamespace, eventually, freshNamespace, installWidgetCrd, liveCluster, widgetType } from '../testing/control-plane.ts';

describe('Manager /metrics under load (real apiserver)', () => {
  let cluster: LiveCluster;
  let namespace: string;

  beforeAll(async () => {
    cluster = await liveCluster();
    await installWidgetCrd(cluster);
    namespace = await freshNamespace(cluster, 'mgr-metrics');
  });

  afterAll(async () => {
    await deleteNamespace(cluster, namespace);
  });

  it('serves controller-runtime metric names whose values move as reconciles happen', async () => {
    const options = parseManagerOptions(
      ['--namespaces', namespace, '--metrics-bind-address', '127.0.0.1:0', '--health-probe-bind-address', '0', '--leader-elect', '--leader-election-namespace', namespace],
      {},
      { leaseName: 'metrics-test' },
    );
    const manager = new Manager({ kubeConfig: cluster.kubeConfig }, options);
    let failedOnce = false;
    manager.add(
      new ControllerBuilder({ informers: manager.informers }, 'widgets')
        .for(widgetType)
        .withOptions(manager.controllerOptions())
        .complete({
          reconcile(widget) {
            if (widget.metadata?.name === 'w-0' && !failedOnce) {
              failedOnce = true;
              return Promise.reject(new Error('first attempt fails'));
            }
            return Promise.resolve(Result.done());
          },
        }),
    );
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    const scrape = async (): Promise<ReturnType<typeof parseExposition>> => {
      const port = manager.addresses().metrics?.port;
      if (port === undefined) throw new Error('metrics not bound yet');
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      return parseExposition(await response.text());
    };
    try {
      await eventually(async () => valueOf(await scrape(), 'leader_election_master_status', { name: 'metrics-test' }) === 1, 30_000, 'leader');
      const before = await scrape();
      const success = (e: ReturnType<typeof parseExposition>): number => valueOf(e, 'controller_runtime_reconcile_total', { controller: 'widgets', result: 'success' });
      for (let i = 0; i < 20; i++) {
        await cluster.client.create(widgetType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', metadata: { name: `w-${i}`, namespace }, spec: { size: i } });
      }
      await eventually(async () => success(await scrape()) - success(before) >= 20, 30_000, '20 successful reconciles');
      const after = await scrape();
      expect(valueOf(after, 'controller_runtime_reconcile_errors_total', { controller: 'widgets' }) - valueOf(before, 'controller_runtime_reconcile_errors_total', { controller: 'widgets' })).toBe(1);
      expect(valueOf(after, 'workqueue_adds_total', { name: 'widgets', controller: 'widgets' }) - valueOf(before, 'workqueue_adds_total', { name: 'widgets', controller: 'widgets' })).toBeGreaterThanOrEqual(21);
      expect(valueOf(after, 'workqueue_retries_total', { name: 'widgets', controller: 'widgets' })).toBeGreaterThanOrEqual(1);
      expect(valueOf(after, 'controller_runtime_max_concurrent_reconciles', { controller: 'widgets' })).toBe(1);
      expect(valueOf(after, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      for (const name of ['controller_runtime_reconcile_time_seconds_count', 'workqueue_queue_duration_seconds_count', 'workqueue_work_duration_seconds_count']) {
        expect(after.samples.some((s) => s.name === name)).toBe(true);
      }
    } finally {
      stop.abort();
      await running;
    }
  }, 120_000);
});
