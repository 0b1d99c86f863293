import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import type { ReconcileOutcome } from './controller-metrics.ts';
import { matching, parseExposition, valueOf } from '../testing/exposition.ts';
import type { Exposition } from '../testing/exposition.ts';
import { RuntimeMetrics } from './metrics.ts';
import { WorkQueue } from '../queue/queue.ts';

const EXPECTED: readonly (readonly [name: string, type: string, labels: readonly string[]])[] = [
  ['controller_runtime_reconcile_total', 'counter', ['controller', 'result']],
  ['controller_runtime_reconcile_errors_total', 'counter', ['controller']],
  ['controller_runtime_terminal_reconcile_errors_total', 'counter', ['controller']],
  ['controller_runtime_reconcile_panics_total', 'counter', ['controller']],
  ['controller_runtime_reconcile_time_seconds', 'histogram', ['controller']],
  ['controller_runtime_max_concurrent_reconciles', 'gauge', ['controller']],
  ['controller_runtime_active_workers', 'gauge', ['controller']],
  ['workqueue_depth', 'gauge', ['name', 'controller']],
  ['workqueue_adds_total', 'counter', ['name', 'controller']],
  ['workqueue_queue_duration_seconds', 'histogram', ['name', 'controller']],
  ['workqueue_work_duration_seconds', 'histogram', ['name', 'controller']],
  ['workqueue_unfinished_work_seconds', 'gauge', ['name', 'controller']],
  ['workqueue_longest_running_processor_seconds', 'gauge', ['name', 'controller']],
  ['workqueue_retries_total', 'counter', ['name', 'controller']],
  ['leader_election_master_status', 'gauge', ['name']],
];

async function scrape(metrics: RuntimeMetrics): Promise<Exposition> {
  return parseExposition(await metrics.metricsText());
}

const idle = { unfinishedWorkSeconds: 0, longestRunningProcessorSeconds: 0 };

describe('RuntimeMetrics', () => {
  it('exposes every controller-runtime and workqueue metric with HELP, TYPE and its labels', async () => {
    const m = new RuntimeMetrics();
    m.controller.setMaxConcurrentReconciles('widgets', 3);
    m.controller.observeReconcile('widgets', 'success', 0.01);
    m.queue.newQueueMetrics('widgets', () => idle);
    m.setLeader('widgets-leader', true);
    const e = await scrape(m);
    for (const [name, type, labels] of EXPECTED) {
      expect(e.type.get(name), name).toBe(type);
      expect(e.help.get(name), name).toMatch(/\S/);
      const series = matching(e, type === 'histogram' ? `${name}_count` : name);
      expect(series.length, name).toBeGreaterThan(0);
      for (const sample of series) expect(Object.keys(sample.labels).sort(), name).toEqual([...labels].sort());
    }
    // Help strings are controller-runtime's, word for word.
    expect(e.help.get('controller_runtime_reconcile_total')).toBe('Total number of reconciliations per controller');
    expect(e.help.get('workqueue_depth')).toBe('Current depth of workqueue by workqueue and priority');
    expect(e.help.get('workqueue_work_duration_seconds')).toBe('How long in seconds processing an item from workqueue takes.');
    // Node process metrics sit beside them.
    expect(e.type.get('process_resident_memory_bytes')).toBe('gauge');
    expect(e.type.get('process_cpu_seconds_total')).toBe('counter');
  });

  it('initialises every series of a controller at 0 and sets its worker count, as controller-runtime does', async () => {
    const m = new RuntimeMetrics();
    m.controller.setMaxConcurrentReconciles('widgets', 4);
    const e = await scrape(m);
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) {
      expect(matching(e, 'controller_runtime_reconcile_total', { controller: 'widgets', result })).toHaveLength(1);
    }
    expect(valueOf(e, 'controller_runtime_reconcile_total', { controller: 'widgets' })).toBe(0);
    expect(valueOf(e, 'controller_runtime_max_concurrent_reconciles', { controller: 'widgets' })).toBe(4);
    expect(matching(e, 'controller_runtime_active_workers', { controller: 'widgets' })).toEqual([{ name: 'controller_runtime_active_workers', labels: { controller: 'widgets' }, value: 0 }]);
  });

  it('re-initialising does not reset counters that already count', async () => {
    const m = new RuntimeMetrics();
    m.controller.setMaxConcurrentReconciles('widgets', 1);
    m.controller.observeReconcile('widgets', 'success', 0.1);
    m.controller.addActiveWorkers('widgets', 1);
    m.controller.setMaxConcurrentReconciles('widgets', 2);
    const e = await scrape(m);
    expect(valueOf(e, 'controller_runtime_reconcile_total', { controller: 'widgets', result: 'success' })).toBe(1);
    expect(valueOf(e, 'controller_runtime_active_workers', { controller: 'widgets' })).toBe(1);
  });

  const cases: readonly (readonly [ReconcileOutcome, { result: string; errors: number; terminal: number; panics: number }])[] = [
    ['success', { result: 'success', errors: 0, terminal: 0, panics: 0 }],
    ['requeue_after', { result: 'requeue_after', errors: 0, terminal: 0, panics: 0 }],
    ['error', { result: 'error', errors: 1, terminal: 0, panics: 0 }],
    ['timeout', { result: 'error', errors: 1, terminal: 0, panics: 0 }],
    ['terminal_error', { result: 'error', errors: 1, terminal: 1, panics: 0 }],
    ['panic', { result: 'error', errors: 1, terminal: 0, panics: 1 }],
  ];
  it.each(cases)('counts outcome %s as controller-runtime does', async (outcome, want) => {
    const m = new RuntimeMetrics();
    m.controller.setMaxConcurrentReconciles('c', 1);
    m.controller.observeReconcile('c', outcome, 0.3);
    const e = await scrape(m);
    const c = { controller: 'c' };
    for (const result of ['success', 'error', 'requeue', 'requeue_after']) {
      expect(valueOf(e, 'controller_runtime_reconcile_total', { ...c, result }), result).toBe(result === want.result ? 1 : 0);
    }
    expect(valueOf(e, 'controller_runtime_reconcile_errors_total', c)).toBe(want.errors);
    expect(valueOf(e, 'controller_runtime_terminal_reconcile_errors_total', c)).toBe(want.terminal);
    expect(valueOf(e, 'controller_runtime_reconcile_panics_total', c)).toBe(want.panics);
    expect(valueOf(e, 'controller_runtime_reconcile_time_seconds_count', c)).toBe(1);
    expect(valueOf(e, 'controller_runtime_reconcile_time_seconds_sum', c)).toBeCloseTo(0.3);
    expect(valueOf(e, 'controller_runtime_reconcile_time_seconds_bucket', { ...c, le: '0.25' })).toBe(0);
    expect(valueOf(e, 'controller_runtime_reconcile_time_seconds_bucket', { ...c, le: '0.3' })).toBe(1);
  });

  it('tracks active workers up and down', async () => {
    const m = new RuntimeMetrics();
    m.controller.addActiveWorkers('c', 1);
    m.controller.addActiveWorkers('c', 1);
    m.controller.addActiveWorkers('c', -1);
    expect(valueOf(await scrape(m), 'controller_runtime_active_workers', { controller: 'c' })).toBe(1);
  });

  it("uses controller-runtime's buckets", async () => {
    const m = new RuntimeMetrics();
    m.controller.observeReconcile('c', 'success', 1);
    m.queue.newQueueMetrics('q', () => idle);
    const e = await scrape(m);
    const les = (name: string, labels: Record<string, string>): string[] => matching(e, name, labels).map((s) => s.labels['le'] ?? '');
    expect(les('controller_runtime_reconcile_time_seconds_bucket', { controller: 'c' })).toEqual(
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60, '+Inf'].map(String),
    );
    const exponential = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000, '+Inf'].map(String);
    expect(les('workqueue_queue_duration_seconds_bucket', { name: 'q' })).toEqual(exponential);
    expect(les('workqueue_work_duration_seconds_bucket', { name: 'q' })).toEqual(exponential);
  });

  it('labels queue series with name and controller, both the queue name, and starts them at 0', async () => {
    const m = new RuntimeMetrics();
    const q = m.queue.newQueueMetrics('widgets', () => idle);
    let e = await scrape(m);
    const labels = { name: 'widgets', controller: 'widgets' };
    for (const name of ['workqueue_depth', 'workqueue_adds_total', 'workqueue_retries_total', 'workqueue_queue_duration_seconds_count', 'workqueue_work_duration_seconds_count']) {
      expect(matching(e, name, labels), name).toEqual([{ name, labels, value: 0 }]);
    }
    q.incAdds();
    q.incAdds();
    q.setDepth(2);
    q.incRetries();
    q.observeQueueDuration(0.002);
    q.observeWorkDuration(0.5);
    e = await scrape(m);
    expect(valueOf(e, 'workqueue_adds_total', labels)).toBe(2);
    expect(valueOf(e, 'workqueue_depth', labels)).toBe(2);
    expect(valueOf(e, 'workqueue_retries_total', labels)).toBe(1);
    expect(valueOf(e, 'workqueue_queue_duration_seconds_bucket', { ...labels, le: '0.01' })).toBe(1);
    expect(valueOf(e, 'workqueue_work_duration_seconds_bucket', { ...labels, le: '0.1' })).toBe(0);
    expect(valueOf(e, 'workqueue_work_duration_seconds_bucket', { ...labels, le: '1' })).toBe(1);
  });

  it('reads the unfinished-work gauges from the queue callback on each scrape, and only then', async () => {
    const m = new RuntimeMetrics();
    let reads = 0;
    let work = { unfinishedWorkSeconds: 0, longestRunningProcessorSeconds: 0 };
    m.queue.newQueueMetrics('q', () => {
      reads++;
      return work;
    });
    expect(reads).toBe(0);
    work = { unfinishedWorkSeconds: 7.5, longestRunningProcessorSeconds: 5 };
    let e = await scrape(m);
    expect(reads).toBeGreaterThan(0);
    expect(valueOf(e, 'workqueue_unfinished_work_seconds', { name: 'q', controller: 'q' })).toBe(7.5);
    expect(valueOf(e, 'workqueue_longest_running_processor_seconds', { name: 'q', controller: 'q' })).toBe(5);
    const afterFirst = reads;
    work = idle;
    e = await scrape(m);
    expect(reads).toBeGreaterThan(afterFirst);
    expect(valueOf(e, 'workqueue_unfinished_work_seconds', { name: 'q' })).toBe(0);
    expect(valueOf(e, 'workqueue_longest_running_processor_seconds', { name: 'q' })).toBe(0);
  });

  it('a throwing callback does not fail the scrape', async () => {
    const m = new RuntimeMetrics();
    m.queue.newQueueMetrics('bad', () => {
      throw new Error('boom');
    });
    m.queue.newQueueMetrics('good', () => ({ unfinishedWorkSeconds: 1, longestRunningProcessorSeconds: 1 }));
    const e = await scrape(m);
    expect(valueOf(e, 'workqueue_unfinished_work_seconds', { name: 'good' })).toBe(1);
  });

  it('measures a real WorkQueue on virtual time', async () => {
    const clock = new VirtualClock(1_000);
    const m = new RuntimeMetrics();
    const queue = new WorkQueue<string>({ clock, name: 'widgets', metrics: m.queue });
    queue.add('a');
    queue.add('b');
    queue.add('a');
    const labels = { name: 'widgets', controller: 'widgets' };
    let e = await scrape(m);
    expect(valueOf(e, 'workqueue_adds_total', labels)).toBe(2);
    expect(valueOf(e, 'workqueue_depth', labels)).toBe(2);
    await clock.advance(3_000);
    const key = await queue.get();
    expect(key).toBe('a');
    await clock.advance(2_000);
    e = await scrape(m);
    expect(valueOf(e, 'workqueue_depth', labels)).toBe(1);
    expect(valueOf(e, 'workqueue_queue_duration_seconds_sum', labels)).toBe(3);
    expect(valueOf(e, 'workqueue_unfinished_work_seconds', labels)).toBe(2);
    expect(valueOf(e, 'workqueue_longest_running_processor_seconds', labels)).toBe(2);
    queue.done('a');
    queue.addRateLimited('a');
    e = await scrape(m);
    expect(valueOf(e, 'workqueue_work_duration_seconds_sum', labels)).toBe(2);
    expect(valueOf(e, 'workqueue_unfinished_work_seconds', labels)).toBe(0);
    expect(valueOf(e, 'workqueue_retries_total', labels)).toBe(1);
    queue.shutDown();
  });

  it('reports leadership per lease as 1 or 0', async () => {
    const m = new RuntimeMetrics();
    m.setLeader('a', true);
    m.setLeader('b', false);
    let e = await scrape(m);
    expect(valueOf(e, 'leader_election_master_status', { name: 'a' })).toBe(1);
    expect(valueOf(e, 'leader_election_master_status', { name: 'b' })).toBe(0);
    m.setLeader('a', false);
    e = await scrape(m);
    expect(matching(e, 'leader_election_master_status', { name: 'a' })).toEqual([{ name: 'leader_election_master_status', labels: { name: 'a' }, value: 0 }]);
  });

  it('uses the registry it is given and refuses a second set on it', async () => {
    const registry = new Registry();
    const m = new RuntimeMetrics(registry);
    expect(m.registry).toBe(registry);
    m.setLeader('x', true);
    expect(await registry.getSingleMetricAsString('leader_election_master_status')).toContain('leader_election_master_status{name="x"} 1');
    expect(() => new RuntimeMetrics(registry)).toThrow(/already been registered/);
  });
});
