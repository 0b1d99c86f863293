// Wiring only: the shared start-up (configuration, kubeconfig, client, manager, Events, signals, shutdown) runs the
// OpenSearch controllers. Exit codes as runOperator documents them. One subcommand: `migrate-opster` (see
// migration/cli.ts) converts opensearch-k8s-operator objects and exits; without it the operator starts as always.
import { startOperator, systemClock } from '@domain-operators/reconcile';
import { API_GROUP, loadConfig } from './config.ts';
import { openSearchControllers } from './controllers/index.ts';
import { openSearchRequestCounter } from './metrics.ts';
import { MIGRATE_OPSTER_COMMAND, runMigrateOpster } from './migration/cli.ts';

if (process.argv[2] === MIGRATE_OPSTER_COMMAND) {
  await runMigrateOpster(process.argv.slice(3));
} else {
  startOperator({
    name: 'opensearch-operator',
    apiGroup: API_GROUP,
    loadConfig,
    wire: ({ config, manager, client, events, logger }) => {
      const { controllers, registry } = openSearchControllers(
        { informers: manager.informers, client, events, controllerOptions: manager.controllerOptions(), clock: systemClock, log: logger, requests: openSearchRequestCounter(manager.metrics.registry) },
        { registry: { requestTimeoutMs: config.opensearch.requestTimeoutMs } },
      );
      return { controllers, close: () => registry.close() };
    },
  });
}
