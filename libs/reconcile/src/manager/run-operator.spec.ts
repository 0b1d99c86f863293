import { KubeConfig } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { Client } from '../client/client.ts';
import type { RestTransport } from '../client/rest.ts';
import { silentLogger } from '../core/logger.ts';
import { buildInfo } from '../observability/build-info.ts';
import { Manager } from './manager.ts';
import type { Runnable } from './manager.ts';
import type { ManagerOptions } from './manager-options.ts';
import { parseManagerOptions } from './manager-options.ts';
import type { OperatorDefinition, OperatorProcess } from './run-operator.ts';
import { runOperator } from './run-operator.ts';

const OFFLINE: RestTransport = {
  request: () => Promise.reject(new Error('no apiserver in this unit test')),
} as unknown as RestTransport;

/** A process whose manager serves nothing, elects nobody and is told to stop at once. */
function testProcess(argv: string[] = ['--metrics-bind-address=0', '--health-probe-bind-address=0']): OperatorProcess & { readonly errors: string[] } {
  const errors: string[] = [];
  return {
    argv,
    env: {},
    errors,
    writeError: (line) => errors.push(line),
    logger: () => silentLogger,
    kubeConfig: () => new KubeConfig(),
    signal: () => AbortSignal.abort(),
    connect: (kubeConfig, logger, config) => Promise.resolve({ client: new Client({ rest: OFFLINE }), manager: new Manager({ kubeConfig, logger }, config) }),
  };
}

function operator(wire: OperatorDefinition<ManagerOptions>['wire']): OperatorDefinition<ManagerOptions> {
  return { name: 'test-operator', apiGroup: 'test.example.io', loadConfig: (argv, env) => parseManagerOptions(argv, env, { leaseName: 'test-operator' }), wire };
}

describe('runOperator', () => {
  it('refuses an unusable configuration with one line on stderr and exit code 1, before connecting anywhere', async () => {
    const proc = testProcess(['--log-level=loud']);
    let wired = false;
    const code = await runOperator(
      operator(() => {
        wired = true;
        return { controllers: [] };
      }),
      proc,
    );
    expect(code).toBe(1);
    expect(proc.errors).toHaveLength(1);
    expect(proc.errors[0]).toMatch(/^test-operator: .*log-level/);
    expect(wired).toBe(false);
  });

  it('runs the controllers it wired until the signal, then closes them: exit code 0', async () => {
    const started: string[] = [];
    let closed = 0;
    const stop = new AbortController();
    const controller: Runnable = {
      name: 'widgets',
      start: (signal) => {
        started.push('widgets');
        stop.abort(); // SIGTERM arrives while the controller runs
        if (signal.aborted) return Promise.resolve();
        return new Promise<void>((resolve) => {
          signal.addEventListener('abort', () => {
            resolve();
          }, { once: true });
        });
      },
    };
    const proc: OperatorProcess = { ...testProcess(), signal: () => stop.signal };
    const code = await runOperator(
      operator(({ events, config }) => {
        expect(events).toBeDefined();
        expect(config.metricsBindAddress).toBe('0');
        return { controllers: [controller], close: () => {
          closed++;
          return Promise.resolve();
        } };
      }),
      proc,
    );
    expect(code).toBe(0);
    expect(started).toEqual(['widgets']);
    expect(closed).toBe(1);
  });

  it("prints '<name> <version>' for --version and exits 0, without reading the configuration or connecting", async () => {
    const lines: string[] = [];
    let connected = false;
    const proc: OperatorProcess = {
      ...testProcess(['--version', '--log-level=loud']),
      writeOutput: (line) => lines.push(line),
      connect: () => {
        connected = true;
        return Promise.reject(new Error('must not connect'));
      },
    };
    const code = await runOperator(operator(() => ({ controllers: [] })), proc);
    expect(code).toBe(0);
    expect(lines).toEqual([`test-operator ${buildInfo().version}`]);
    expect(connected).toBe(false);
  });

  it('serves <name>_build_info{version,node_version} 1 among its metrics', async () => {
    let metrics = '';
    const code = await runOperator(
      operator(async ({ manager }) => {
        metrics = await manager.metrics.registry.getSingleMetricAsString('test_operator_build_info');
        return { controllers: [] };
      }),
      testProcess(),
    );
    expect(code).toBe(0);
    expect(metrics).toContain(`test_operator_build_info{version="${buildInfo().version}",node_version="${process.version}"} 1`);
  });

  it('exits 1 when the wiring fails, and still drains the recorder', async () => {
    const code = await runOperator(
      operator(() => {
        throw new Error('backend config missing');
      }),
      testProcess(),
    );
    expect(code).toBe(1);
  });

  it('exits 1 when the manager fails, and closes the wiring even then', async () => {
    let closed = 0;
    const failing: Runnable = { name: 'broken', start: () => Promise.reject(new Error('controller failed')) };
    const proc: OperatorProcess = { ...testProcess(), signal: () => new AbortController().signal };
    const code = await runOperator(operator(() => ({ controllers: [failing], close: () => {
          closed++;
          return Promise.resolve();
        } })), proc);
    expect(code).toBe(1);
    expect(closed).toBe(1);
  });
});
