// Wiring only: the shared start-up (configuration, kubeconfig, client, manager, Events, signals, shutdown) runs the
// Kafka controllers. Exit codes as runOperator documents them.
import { startOperator, systemClock } from '@domain-operators/reconcile';
import { API_GROUP, loadConfig } from './config.ts';
import { kafkaControllers } from './controllers/setup.ts';
import { adminRequestCounter } from './metrics.ts';

startOperator({
  name: 'kafka-operator',
  apiGroup: API_GROUP,
  loadConfig,
  wire: ({ manager, client, events }) =>
    kafkaControllers(
      { informers: manager.informers, client, events, clock: systemClock, requestCounter: adminRequestCounter(manager.metrics.registry) },
      { controller: manager.controllerOptions() },
    ),
});
