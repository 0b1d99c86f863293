// Wiring only: the shared start-up (configuration, kubeconfig, client, manager, Events, signals, shutdown) runs the
// Redis controllers. Exit codes as runOperator documents them.
import { startOperator } from '@domain-operators/reconcile';
import { API_GROUP, loadConfig } from './config.ts';
import { buildControllers } from './controllers/setup.ts';

startOperator({
  name: 'redis-operator',
  apiGroup: API_GROUP,
  loadConfig,
  wire: ({ manager, client, events }) => {
    const controllers = buildControllers({ informers: manager.informers, client, recorder: events }, manager.controllerOptions());
    return { controllers: [controllers.replications, controllers.users, controllers.backups] };
  },
});
