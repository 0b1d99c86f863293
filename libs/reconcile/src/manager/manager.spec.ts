import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../core/clock.ts';
import { LeaderElectionLostError, Manager, operatorNamespace } from './manager.ts';
import type { ManagerTuning, Runnable } from './manager.ts';
import type { ManagerOptions } from './manager-options.ts';
import { RuntimeMetrics } from '../observability/metrics.ts';
import { FakeLeaseLock } from '../testing/fake-lease-lock.ts';

const OPTIONS: ManagerOptions = {
  metricsBindAddress: '0',
  healthProbeBindAddress: '0',
  leaderElection: { enabled: true, leaseName: 'op', namespace: 'ns', leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 },
  namespaces: [],
  logLevel: 'info',
  maxConcurrentReconciles: 1,
};

/** A runnable that records its start and, once stopped, takes `drainMs` (Infinity: never) to finish. */
function runnable(clock: VirtualClock, drainMs = 0, name = 'widgets') {
  const state = { started: false, stopped: false, finished: false, signal: undefined as AbortSignal | undefined };
  const r: Runnable = {
    name,
    start: (signal) =>
      new Promise<void>((resolve) => {
        state.started = true;
        state.signal = signal;
        signal.addEventListener('abort', () => {
          state.stopped = true;
          if (drainMs === Infinity) return;
          clock.setTimeout(() => {
            state.finished = true;
            resolve();
          }, drainMs);
        });
      }),
  };
  return { state, runnable: r };
}

function setup(options: Partial<ManagerOptions & ManagerTuning> = {}) {
  const clock = new VirtualClock();
  const lock = new FakeLeaseLock();
  const manager = new Manager({ kubeConfig: new KubeConfig(), clock, leaseLock: lock, metrics: new RuntimeMetrics() }, { ...OPTIONS, identity: 'me', ...options });
  return { clock, lock, manager };
}

function settled(promise: Promise<unknown>) {
  const state: { done: boolean; error: unknown } = { done: false, error: undefined };
  promise.then(
    () => (state.done = true),
    (err: unknown) => {
      state.done = true;
      state.error = err;
    },
  );
  return state;
}

describe('Manager', () => {
  it('is not ready before start', () => {
    const { manager } = setup();
    expect(manager.readiness()).toEqual({ status: 503, body: '[-]manager failed: not started\nreadyz check failed\n' });
    expect(manager.liveness().status).toBe(200);
  });

  it('starts controllers only once it holds the lease, and is a ready standby until then', async () => {
    const { clock, lock, manager } = setup();
    lock.set({ holderIdentity: 'other' });
    const { state, runnable: r } = runnable(clock);
    manager.add(r);
    const stop = new AbortController();
    const run = settled(manager.start(stop.signal));
    for (let i = 0; i < 6; i++) {
      await clock.advance(2_000);
      lock.set({ renewTime: String(i) });
    }
    expect(state.started).toBe(false);
    expect(manager.isLeader()).toBe(false);
    expect(manager.readiness()).toMatchObject({ status: 200, body: expect.stringContaining('standby: not the leader (leader: other)') as unknown });
    await clock.advance(16_000); // the other holder stopped renewing
    expect(manager.isLeader()).toBe(true);
    expect(state.started).toBe(true);
    expect(manager.readiness()).toEqual({ status: 200, body: 'leader\nreadyz check passed\n' });
    stop.abort();
    await clock.advance(1);
    expect(run.done).toBe(true);
  });

  it('on shutdown stops intake, waits for in-flight work, then releases the lease', async () => {
    const { clock, lock, manager } = setup();
    const { state, runnable: r } = runnable(clock, 5_000);
    manager.add(r);
    const stop = new AbortController();
    const run = settled(manager.start(stop.signal));
    await clock.advance(10);
    expect(state.started).toBe(true);
    stop.abort();
    await clock.advance(4_000);
    expect(state.stopped).toBe(true);
    expect(run.done).toBe(false);
    expect(lock.lease?.record.holderIdentity).toBe('me'); // still held while draining: no second leader yet
    expect(manager.readiness().status).toBe(503);
    await clock.advance(1_100);
    expect(run).toEqual({ done: true, error: undefined });
    expect(state.finished).toBe(true);
    expect(lock.lease?.record).toMatchObject({ holderIdentity: '', leaseDurationSeconds: 1 });
  });

  it('stops waiting for in-flight work after the graceful shutdown timeout', async () => {
    const { clock, lock, manager } = setup({ gracefulShutdownTimeoutMs: 30_000 });
    manager.add(runnable(clock, Infinity).runnable);
    const stop = new AbortController();
    const run = settled(manager.start(stop.signal));
    await clock.advance(10);
    stop.abort();
    await clock.advance(29_000);
    expect(run.done).toBe(false);
    await clock.advance(1_100);
    expect(run).toEqual({ done: true, error: undefined });
    expect(lock.lease?.record.holderIdentity).toBe('');
  });

  it('aborts controllers at once and rejects when it cannot renew the lease', async () => {
    const { clock, lock, manager } = setup();
    const { state, runnable: r } = runnable(clock, Infinity);
    manager.add(r);
    const run = settled(manager.start(new AbortController().signal));
    await clock.advance(10);
    lock.failWith = new Error('apiserver gone');
    await clock.advance(10_100);
    expect(state.stopped).toBe(true);
    expect(run.done).toBe(true);
    expect(run.error).toBeInstanceOf(LeaderElectionLostError);
  });

  it('stops and rejects when a controller fails', async () => {
    const { clock, manager } = setup({ leaderElection: { ...OPTIONS.leaderElection, enabled: false } });
    const { state, runnable: healthy } = runnable(clock);
    manager.add(healthy);
    manager.add({ name: 'broken', start: () => Promise.reject(new Error('boom')) });
    const run = settled(manager.start(new AbortController().signal));
    await clock.advance(10);
    expect(state.stopped).toBe(true);
    expect(run.done).toBe(true);
    expect(String(run.error)).toContain('controller broken failed: boom');
  });

  it('without leader election starts controllers at once and refuses late additions', async () => {
    const { clock, manager } = setup({ leaderElection: { ...OPTIONS.leaderElection, enabled: false } });
    const { state, runnable: r } = runnable(clock);
    manager.add(r);
    const stop = new AbortController();
    const run = settled(manager.start(stop.signal));
    await clock.advance(1);
    expect(state.started).toBe(true);
    expect(manager.isLeader()).toBe(true);
    expect(() => {
      manager.add(runnable(clock).runnable);
    }).toThrow(/after start/);
    stop.abort();
    await clock.advance(1);
    expect(run.done).toBe(true);
  });

  it('hands controllers its metrics, clock and worker count', () => {
    const { clock, manager } = setup({ maxConcurrentReconciles: 4 });
    expect(manager.controllerOptions()).toMatchObject({ maxConcurrentReconciles: 4, clock, cacheSyncTimeoutMs: 120_000, metrics: manager.metrics.controller, queueMetrics: manager.metrics.queue });
  });
});

describe('operatorNamespace', () => {
  it('falls back to the kubeconfig context namespace, and fails clearly without one', () => {
    const kubeConfig = new KubeConfig();
    kubeConfig.loadFromOptions({ clusters: [{ name: 'c', server: 'https://x' }], users: [{ name: 'u' }], contexts: [{ name: 'ctx', cluster: 'c', user: 'u', namespace: 'ops' }], currentContext: 'ctx' });
    expect(operatorNamespace(kubeConfig, '/nonexistent')).toBe('ops');
    expect(() => operatorNamespace(new KubeConfig(), '/nonexistent')).toThrow(/--leader-election-namespace/);
  });
});
