import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlPlanePids, ensureTestEnv, resolvePaths } from '@domain-operators/testenv';
import { ControllerBuilder } from '../controller/controller.ts';
import { Manager } from './manager.ts';
import { parseManagerOptions } from './manager-options.ts';
import { coreTypes } from '../client/resource-type.ts';
import { Result } from '../core/result.ts';
import { deleteNamespace, eventually, freshNamespace, installWidgetCrd, liveCluster, widgetType } from '../testing/control-plane.ts';
import type { LiveCluster } from '../testing/control-plane.ts';

const MAIN = fileURLToPath(new URL('../testing/widget-manager.main.ts', import.meta.url));
const LEASE = 'widget-manager-it';

interface OperatorEvent {
  readonly event: 'started' | 'reconcile' | 'exit';
  readonly identity: string;
  readonly at: number;
  readonly name?: string;
  readonly code?: number;
}

/** One widget-manager process: its stdout events, its stderr log lines, its exit. */
class OperatorProcess {
  readonly identity: string;
  readonly events: OperatorEvent[] = [];
  readonly logs: string[] = [];
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;

  constructor(identity: string, namespace: string, kubeconfig: string) {
    this.identity = identity;
    const flags = ['--leader-elect', '--leader-election-id', LEASE, '--leader-election-namespace', namespace, '--namespaces', namespace];
    this.child = spawn(process.execPath, [MAIN, ...flags, '--health-probe-bind-address', '127.0.0.1:0', '--metrics-bind-address', '0'], {
      env: { ...process.env, KUBECONFIG: kubeconfig, IDENTITY: identity, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (this.child.stdout === null || this.child.stderr === null) throw new Error('no pipes');
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      this.events.push(JSON.parse(line) as OperatorEvent);
    });
    createInterface({ input: this.child.stderr }).on('line', (line) => {
      this.logs.push(line);
    });
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code) => {
        resolve(code);
      });
    });
  }

  reconciles(after = 0): OperatorEvent[] {
    return this.events.filter((e) => e.event === 'reconcile' && e.at > after);
  }

  /** The probe port, from the manager's "serving /healthz and /readyz" log line. */
  probePort(): number | undefined {
    for (const line of this.logs) {
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === 'serving /healthz and /readyz') return entry.port;
    }
    return undefined;
  }

  kill(signal: NodeJS.Signals): void {
    if (this.child.exitCode === null) this.child.kill(signal);
  }
}

async function readyz(port: number): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}/readyz`);
  return { status: response.status, body: await response.text() };
}

describe('Manager against the real apiserver', () => {
  let cluster: LiveCluster;
  let kubeconfig: string;
  let ns: string;
  const processes: OperatorProcess[] = [];
  const start = (identity: string): OperatorProcess => {
    const operator = new OperatorProcess(identity, ns, kubeconfig);
    processes.push(operator);
    return operator;
  };
  const leaseHolder = async (): Promise<string | undefined> => (await cluster.client.get(coreTypes.lease, { namespace: ns, name: LEASE })).spec?.holderIdentity;

  beforeAll(async () => {
    cluster = await liveCluster();
    kubeconfig = (await ensureTestEnv(['apiserver'])).apiserver.kubeconfig;
    await installWidgetCrd(cluster);
    ns = await freshNamespace(cluster, 'mgr');
    await cluster.client.create(widgetType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', metadata: { name: 'w1', namespace: ns }, spec: { size: 1 } });
  });

  afterAll(async () => {
    for (const operator of processes) operator.kill('SIGKILL');
    await Promise.all(processes.map((operator) => operator.exited));
    await deleteNamespace(cluster, ns);
  });

  let leader: OperatorProcess;
  let standby: OperatorProcess;

  it('runs two managers with leader election of which exactly one reconciles; the standby is ready and says so', async () => {
    const a = start('manager-a');
    const b = start('manager-b');
    await eventually(() => Promise.resolve(a.reconciles().length + b.reconciles().length > 0), 30_000, 'a first reconcile');
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const counts = [a.reconciles().length, b.reconciles().length];
    expect(counts.filter((n) => n > 0)).toHaveLength(1);
    [leader, standby] = counts[0]! > 0 ? [a, b] : [b, a];
    expect(leader.reconciles().length).toBeGreaterThanOrEqual(5); // requeued every 500 ms
    expect(await leaseHolder()).toBe(leader.identity);

    const standbyReady = await readyz(standby.probePort()!);
    expect(standbyReady.status).toBe(200);
    expect(standbyReady.body).toContain(`standby: not the leader (leader: ${leader.identity})`);
    const leaderReady = await readyz(leader.probePort()!);
    expect(leaderReady.status).toBe(200);
    expect(leaderReady.body).toContain('[+]informer:widgets ok');
  });

  it('hands over to the standby within 17 s after the leader is SIGKILLed', async () => {
    leader.kill('SIGKILL');
    const killedAt = Date.now();
    await leader.exited;
    await eventually(() => Promise.resolve(standby.reconciles(killedAt).length > 0), 25_000, 'the standby reconciling');
    const takeoverMs = standby.reconciles(killedAt)[0]!.at - killedAt;
    console.log(`SIGKILL → successor reconciling: ${takeoverMs} ms`);
    expect(takeoverMs).toBeLessThanOrEqual(17_000);
    expect(await leaseHolder()).toBe(standby.identity);
    leader = standby;
  });

  it('releases the lease on SIGTERM, exits 0, and the successor reconciles within 3 s', async () => {
    const successor = start('manager-c');
    await eventually(() => Promise.resolve(successor.logs.some((line) => line.includes('attempting to acquire leader lease'))), 20_000, 'the new standby campaigning');
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(successor.reconciles()).toHaveLength(0);

    leader.kill('SIGTERM');
    const terminatedAt = Date.now();
    expect(await leader.exited).toBe(0);
    expect(leader.logs.some((line) => line.includes('released leader lease'))).toBe(true);
    await eventually(() => Promise.resolve(successor.reconciles(terminatedAt).length > 0), 10_000, 'the successor reconciling');
    const takeoverMs = successor.reconciles(terminatedAt)[0]!.at - terminatedAt;
    console.log(`SIGTERM → successor reconciling: ${takeoverMs} ms`);
    expect(takeoverMs).toBeLessThanOrEqual(3_000);
    // Never two active leaders: the old leader's last reconcile precedes the successor's first.
    const lastOld = Math.max(...leader.reconciles().map((e) => e.at));
    expect(lastOld).toBeLessThan(successor.reconciles()[0]!.at);
    expect(await leaseHolder()).toBe(successor.identity);
  });

  it('watches exactly the listed namespaces, one cache per namespace behind one store', async () => {
    const others = [await freshNamespace(cluster, 'mgr-a'), await freshNamespace(cluster, 'mgr-b'), await freshNamespace(cluster, 'mgr-x')];
    const [a, b, outside] = others as [string, string, string];
    try {
      for (const namespace of others) {
        await cluster.client.create(widgetType, { apiVersion: 'test.domain-operators.io/v1', kind: 'Widget', metadata: { name: 'w', namespace }, spec: { size: 1 } });
      }
      const options = parseManagerOptions(['--namespaces', `${a},${b}`, '--health-probe-bind-address', '0', '--metrics-bind-address', '0'], {}, { leaseName: 'unused' });
      const manager = new Manager({ kubeConfig: cluster.kubeConfig }, options);
      const seen = new Set<string>();
      const controller = new ControllerBuilder({ informers: manager.informers }, 'widgets')
        .for(widgetType)
        .withOptions(manager.controllerOptions())
        .complete({
          reconcile: (widget) => {
            seen.add(`${widget.metadata?.namespace}/${widget.metadata?.name}`);
            return Promise.resolve(Result.done());
          },
        });
      manager.add(controller);
      const stop = new AbortController();
      const running = manager.start(stop.signal);
      try {
        await eventually(() => Promise.resolve(seen.size >= 2), 30_000, 'widgets in both namespaces reconciled');
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect([...seen].sort()).toEqual([`${a}/w`, `${b}/w`].sort());
        const store = manager.informers.informerFor(widgetType).store;
        expect(store.get(`${a}/w`)?.metadata?.namespace).toBe(a);
        expect(store.get(`${outside}/w`)).toBeUndefined();
        expect(store.list().map((w) => w.metadata?.namespace).sort()).toEqual([a, b].sort());
        expect(Object.keys(manager.informers.health()).sort()).toEqual([`widgets@${a}`, `widgets@${b}`].sort());
        expect(manager.readiness().status).toBe(200);
      } finally {
        stop.abort();
        await running;
      }
    } finally {
      for (const namespace of others) await deleteNamespace(cluster, namespace);
    }
  });

  it('turns unready while the apiserver is paused and ready again after it resumes', async () => {
    const options = parseManagerOptions(['--namespaces', ns, '--health-probe-bind-address', '127.0.0.1:0', '--metrics-bind-address', '0'], {}, { leaseName: 'unused' });
    const manager = new Manager({ kubeConfig: cluster.kubeConfig }, { ...options, watcher: { inactivityTimeoutMs: 4_000 } });
    manager.add(
      new ControllerBuilder({ informers: manager.informers }, 'widgets')
        .for(widgetType)
        .withOptions(manager.controllerOptions())
        .complete({ reconcile: () => Promise.resolve(Result.done()) }),
    );
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    try {
      await eventually(async () => {
        const port = manager.addresses().probes?.port;
        return port !== undefined && (await readyz(port)).status === 200;
      }, 30_000, 'ready');
      const port = manager.addresses().probes!.port;
      const pids = await controlPlanePids(resolvePaths());
      expect(pids.apiserver).toBeTypeOf('number');
      let unready = { status: 0, body: '' };
      process.kill(pids.apiserver!, 'SIGSTOP');
      const pausedAt = Date.now();
      try {
        await eventually(async () => {
          unready = await readyz(port);
          return unready.status === 503;
        }, 20_000, 'unready while the apiserver is paused');
      } finally {
        process.kill(pids.apiserver!, 'SIGCONT');
      }
      console.log(`apiserver paused → /readyz 503 after ${Date.now() - pausedAt} ms:\n${unready.body}`);
      expect(unready.body).toMatch(/\[-\]informer:widgets failed: watch of widgets (has had no data from the apiserver|in backoff)/);
      const resumedAt = Date.now();
      await eventually(async () => (await readyz(port)).status === 200, 60_000, 'ready again after the apiserver resumed');
      console.log(`apiserver resumed → /readyz 200 after ${Date.now() - resumedAt} ms`);
    } finally {
      stop.abort();
      await running;
    }
  });
});
