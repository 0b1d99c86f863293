import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { RECONCILE_TRIGGERS } from '../core/reconcile-trigger.ts';
import type { ControllerMetrics, ReconcileOutcome } from './controller-metrics.ts';
import type { UnfinishedWork, WorkQueueMetrics, WorkQueueMetricsProvider } from './queue-metrics.ts';

// Names, help strings, labels and buckets are those of controller-runtime (pkg/internal/controller/metrics,
// pkg/metrics/workqueue.go, pkg/metrics/leaderelection.go) so that existing dashboards and alerts work unchanged.

/** `controller_runtime_reconcile_time_seconds` buckets, as controller-runtime. */
const RECONCILE_TIME_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.25, 1.5, 1.75, 2.0,
  2.5, 3.0, 3.5, 4.0, 4.5, 5, 6, 7, 8, 9, 10, 15, 20, 25, 30, 40, 50, 60,
];

/**
 * Workqueue duration buckets: controller-runtime's `ExponentialBuckets(10e-9, 10, 12)`, i.e. 10 ns … 1000 s
 * (client-go's own provider stops at 10 s; controller-runtime extended it so slow reconciles stay visible).
 * Written out because repeated float multiplication would print as 1.0000000000000001e-7.
 */
const WORKQUEUE_BUCKETS = [1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1, 10, 100, 1000];

/** The `result` label values controller-runtime initialises for every controller. */
const RESULTS = ['success', 'error', 'requeue', 'requeue_after'] as const;

type ControllerLabel = 'controller';
type QueueLabel = 'name' | 'controller';

/**
 * The metric set of controller-runtime and client-go's work queue, in a prom-client registry: hand
 * {@link RuntimeMetrics.controller} and {@link RuntimeMetrics.queue} to each controller
 * (`withOptions({ metrics, queueMetrics })`), report leadership with {@link RuntimeMetrics.setLeader} and serve
 * {@link RuntimeMetrics.metricsText} (content type `registry.contentType`) on `/metrics`.
 *
 * Exposed: `controller_runtime_reconcile_total{controller,result}`, `controller_runtime_reconcile_errors_total`,
 * `controller_runtime_terminal_reconcile_errors_total`, `controller_runtime_reconcile_panics_total`,
 * `controller_runtime_reconcile_time_seconds`, `controller_runtime_max_concurrent_reconciles`,
 * `controller_runtime_active_workers` (all `{controller}`); `domain_operators_reconcile_triggers_total{controller,trigger}`
 * (why reconciles ran: `ReconcileTrigger`); `workqueue_depth`, `workqueue_adds_total`,
 * `workqueue_queue_duration_seconds`, `workqueue_work_duration_seconds`, `workqueue_unfinished_work_seconds`,
 * `workqueue_longest_running_processor_seconds`, `workqueue_retries_total` (all `{name,controller}`, both the
 * queue's name); `leader_election_master_status{name}`; and prom-client's Node process metrics.
 *
 * The constructor only registers metrics (prom-client's default metrics install a GC observer and an event-loop
 * delay monitor, both passive); it starts no timer. A registry can hold one `RuntimeMetrics`: a second one on the
 * same registry throws because the names are taken.
 */
export class RuntimeMetrics {
  /** Where every metric lives; scrape it with `metrics()` or {@link RuntimeMetrics.metricsText}. */
  readonly registry: Registry;
  /** Per-controller reconcile metrics (`controller_runtime_*`); cheap, never throws. */
  readonly controller: ControllerMetrics;
  /** Per-queue metrics (`workqueue_*`); unfinished-work gauges are read from each queue's callback on scrape. */
  readonly queue: WorkQueueMetricsProvider;
  readonly #leader: Gauge<'name'>;

  /** Registers every metric in `registry` (default: a new one, not prom-client's global registry). */
  constructor(registry: Registry = new Registry()) {
    this.registry = registry;
    const registers = [registry];
    this.controller = controllerMetrics(registers);
    this.queue = queueMetricsProvider(registers);
    this.#leader = new Gauge({
      name: 'leader_election_master_status',
      help: "Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. 'name' is the string used to identify the lease. Please make sure to group by name.",
      labelNames: ['name'],
      registers,
    });
    collectDefaultMetrics({ register: registry });
  }

  /** Sets `leader_election_master_status{name=leaseName}` to 1 while this process leads, 0 otherwise. */
  setLeader(leaseName: string, isLeader: boolean): void {
    this.#leader.set({ name: leaseName }, isLeader ? 1 : 0);
  }

  /** Every metric in the Prometheus text exposition format; reads the queues' unfinished-work callbacks. */
  metricsText(): Promise<string> {
    return this.registry.metrics();
  }
}

function controllerMetrics(registers: Registry[]): ControllerMetrics {
  const total = new Counter<ControllerLabel | 'result'>({
    name: 'controller_runtime_reconcile_total',
    help: 'Total number of reconciliations per controller',
    labelNames: ['controller', 'result'],
    registers,
  });
  const errors = new Counter<ControllerLabel>({
    name: 'controller_runtime_reconcile_errors_total',
    help: 'Total number of reconciliation errors per controller',
    labelNames: ['controller'],
    registers,
  });
  const terminalErrors = new Counter<ControllerLabel>({
    name: 'controller_runtime_terminal_reconcile_errors_total',
    help: 'Total number of terminal reconciliation errors per controller',
    labelNames: ['controller'],
    registers,
  });
  const panics = new Counter<ControllerLabel>({
    name: 'controller_runtime_reconcile_panics_total',
    help: 'Total number of reconciliation panics per controller',
    labelNames: ['controller'],
    registers,
  });
  const time = new Histogram<ControllerLabel>({
    name: 'controller_runtime_reconcile_time_seconds',
    help: 'Length of time per reconciliation per controller',
    labelNames: ['controller'],
    buckets: RECONCILE_TIME_BUCKETS,
    registers,
  });
  const workerCount = new Gauge<ControllerLabel>({
    name: 'controller_runtime_max_concurrent_reconciles',
    help: 'Maximum number of concurrent reconciles per controller',
    labelNames: ['controller'],
    registers,
  });
  const triggers = new Counter<ControllerLabel | 'trigger'>({
    name: 'domain_operators_reconcile_triggers_total',
    help: 'Reconciles per controller by why they ran (object changed, owned or related object changed, requeue, drift check, retry)',
    labelNames: ['controller', 'trigger'],
    registers,
  });
  const activeWorkers = new Gauge<ControllerLabel>({
    name: 'controller_runtime_active_workers',
    help: 'Number of currently used workers per controller',
    labelNames: ['controller'],
    registers,
  });

  return {
    setMaxConcurrentReconciles(controller, workers) {
      // As controller-runtime's initMetrics: every series exists at 0 from the start, so rate() and absent()
      // work before the first reconcile. Adding 0 creates a series without resetting one that already counts.
      for (const result of RESULTS) total.inc({ controller, result }, 0);
      for (const counter of [errors, terminalErrors, panics]) counter.inc({ controller }, 0);
      activeWorkers.inc({ controller }, 0);
      for (const trigger of RECONCILE_TRIGGERS) triggers.inc({ controller, trigger }, 0);
      workerCount.set({ controller }, workers);
    },
    countTrigger(controller, trigger) {
      triggers.inc({ controller, trigger });
    },
    addActiveWorkers(controller, delta) {
      activeWorkers.inc({ controller }, delta);
    },
    observeReconcile(controller, outcome: ReconcileOutcome, seconds) {
      time.observe({ controller }, seconds);
      // controller-runtime's reconcileHandler: every error, terminal or not, counts under result="error" and in
      // reconcile_errors_total; a recovered panic is also an error; a timeout is an error of the reconciler.
      switch (outcome) {
        case 'success':
          total.inc({ controller, result: 'success' });
          return;
        case 'requeue_after':
          total.inc({ controller, result: 'requeue_after' });
          return;
        case 'terminal_error':
          terminalErrors.inc({ controller });
          break;
        case 'panic':
          panics.inc({ controller });
          break;
        case 'error':
        case 'timeout':
          break;
      }
      errors.inc({ controller });
      total.inc({ controller, result: 'error' });
    },
  };
}

function queueMetricsProvider(registers: Registry[]): WorkQueueMetricsProvider {
  // Read on scrape, one callback per queue name (a queue re-created under the same name replaces the old one).
  const unfinished = new Map<string, () => UnfinishedWork>();
  const readAll = (gauge: Gauge<QueueLabel>, pick: (work: UnfinishedWork) => number): void => {
    for (const [name, read] of unfinished) {
      let value: number;
      try {
        value = pick(read());
      } catch {
        // A broken callback must not fail the whole scrape; the gauge keeps its last value.
        continue;
      }
      gauge.set({ name, controller: name }, value);
    }
  };

  const depth = new Gauge<QueueLabel>({
    name: 'workqueue_depth',
    help: 'Current depth of workqueue by workqueue and priority',
    labelNames: ['name', 'controller'],
    registers,
  });
  const adds = new Counter<QueueLabel>({
    name: 'workqueue_adds_total',
    help: 'Total number of adds handled by workqueue',
    labelNames: ['name', 'controller'],
    registers,
  });
  const latency = new Histogram<QueueLabel>({
    name: 'workqueue_queue_duration_seconds',
    help: 'How long in seconds an item stays in workqueue before being requested',
    labelNames: ['name', 'controller'],
    buckets: WORKQUEUE_BUCKETS,
    registers,
  });
  const workDuration = new Histogram<QueueLabel>({
    name: 'workqueue_work_duration_seconds',
    help: 'How long in seconds processing an item from workqueue takes.',
    labelNames: ['name', 'controller'],
    buckets: WORKQUEUE_BUCKETS,
    registers,
  });
  new Gauge<QueueLabel>({
    name: 'workqueue_unfinished_work_seconds',
    help: "How many seconds of work has been done that is in progress and hasn't been observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck threads by observing the rate at which this increases.",
    labelNames: ['name', 'controller'],
    registers,
    collect() {
      readAll(this, (work) => work.unfinishedWorkSeconds);
    },
  });
  new Gauge<QueueLabel>({
    name: 'workqueue_longest_running_processor_seconds',
    help: 'How many seconds has the longest running processor for workqueue been running.',
    labelNames: ['name', 'controller'],
    registers,
    collect() {
      readAll(this, (work) => work.longestRunningProcessorSeconds);
    },
  });
  const retries = new Counter<QueueLabel>({
    name: 'workqueue_retries_total',
    help: 'Total number of retries handled by workqueue',
    labelNames: ['name', 'controller'],
    registers,
  });

  return {
    newQueueMetrics(name, unfinishedWork): WorkQueueMetrics {
      // client-go's provider labels both `name` and `controller` with the queue's name (the controller's name).
      const labels = { name, controller: name };
      unfinished.set(name, unfinishedWork);
      const depthOf = depth.labels(labels);
      const addsOf = adds.labels(labels);
      const latencyOf = latency.labels(labels);
      const workDurationOf = workDuration.labels(labels);
      const retriesOf = retries.labels(labels);
      // Like client-go's WithLabelValues: every series of a new queue exists from the start.
      depthOf.set(0);
      addsOf.inc(0);
      retriesOf.inc(0);
      latency.zero(labels);
      workDuration.zero(labels);
      return {
        incAdds: () => {
          addsOf.inc();
        },
        setDepth: (value) => {
          depthOf.set(value);
        },
        observeQueueDuration: (seconds) => {
          latencyOf.observe(seconds);
        },
        observeWorkDuration: (seconds) => {
          workDurationOf.observe(seconds);
        },
        incRetries: () => {
          retriesOf.inc();
        },
      };
    },
  };
}
