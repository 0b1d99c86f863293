// A test operator process for the manager's multi-process integration tests: a Manager (configured from flags and
// environment exactly as an operator's config.ts would) running one Widget controller that prints a JSON line per
// reconcile on stdout and requeues every 500 ms, so whoever leads reconciles continuously. Logs go to stderr.
// Not part of the package's API.
import { KubeConfig } from '@kubernetes/client-node';
import { ControllerBuilder } from '../controller/controller.ts';
import { createLogger } from '../observability/log.ts';
import { Manager } from '../manager/manager.ts';
import { parseManagerOptions } from '../manager/manager-options.ts';
import { resourceType } from '../client/resource-type.ts';
import { Result } from '../core/result.ts';
import { shutdownSignal } from '../manager/shutdown-signal.ts';

const widgetType = resourceType({ group: 'test.domain-operators.io', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

function emit(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...event, at: Date.now() })}\n`);
}

const options = parseManagerOptions(process.argv.slice(2), process.env, { leaseName: 'widget-manager' });
const identity = process.env['IDENTITY'];
const logger = createLogger({ level: options.logLevel, name: 'widget-manager', format: 'json', destination: { write: (line) => process.stderr.write(line) } });
const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault();
const manager = new Manager({ kubeConfig, logger }, { ...options, ...(identity !== undefined && { identity }) });
manager.add(
  new ControllerBuilder({ informers: manager.informers }, 'widgets')
    .for(widgetType)
    .withOptions(manager.controllerOptions())
    .complete({
      reconcile(widget) {
        emit({ event: 'reconcile', identity, name: widget.metadata?.name });
        return Promise.resolve(Result.requeueAfter(500));
      },
    }),
);
emit({ event: 'started', identity, pid: process.pid });
manager.start(shutdownSignal({ logger })).then(
  () => {
    emit({ event: 'exit', identity, code: 0 });
    process.exit(0);
  },
  (err: unknown) => {
    logger.error({ error: err instanceof Error ? err.message : String(err) }, 'manager failed');
    emit({ event: 'exit', identity, code: 1 });
    process.exit(1);
  },
);
