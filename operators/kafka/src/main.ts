// Wiring only: configuration → logger → Manager → controllers → start. Exit codes as the Manager's documentation
// says: 0 after a graceful shutdown, 1 when the manager fails (a controller failed, leadership was lost, a server
// could not bind) or the configuration is unusable.
import { hostname } from 'node:os';
import { Client, clientEventSink, createLogger, errorFields, EventRecorder, HttpsRestTransport, Manager, shutdownSignal, systemClock } from '@domain-operators/reconcile';
import { API_GROUP, loadConfig, loadKubeConfig } from './config.ts';
import { kafkaControllers } from './controllers/setup.ts';
import { adminRequestCounter } from './metrics.ts';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`kafka-operator: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const logger = createLogger({ level: config.logLevel, name: 'kafka-operator' });
  const kubeConfig = loadKubeConfig(process.env);
  const client = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
  const manager = new Manager({ kubeConfig, logger }, config);
  const events = new EventRecorder({ sink: clientEventSink(client), log: logger }, { reportingController: `${API_GROUP}/kafka-operator`, reportingInstance: hostname() });
  const kafka = kafkaControllers(
    { informers: manager.informers, client, events, clock: systemClock, requestCounter: adminRequestCounter(manager.metrics.registry) },
    { controller: manager.controllerOptions() },
  );
  for (const controller of kafka.controllers) manager.add(controller);
  try {
    await manager.start(shutdownSignal({ logger }));
    return 0;
  } catch (err) {
    logger.error(errorFields(err), 'kafka-operator stopped with an error');
    return 1;
  } finally {
    await events.shutdown();
    await kafka.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`kafka-operator: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
