// Wiring only: configuration → logger → manager → controllers → start, until SIGTERM/SIGINT.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { Client, clientEventSink, createLogger, EventRecorder, HttpsRestTransport, Manager, shutdownSignal, systemClock } from '@domain-operators/reconcile';
import { API_GROUP, loadConfig } from './config.ts';
import { openSearchControllers } from './controllers/index.ts';
import { openSearchRequestCounter } from './metrics.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  const logger = createLogger({ level: config.logLevel, name: 'opensearch-operator' });
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromDefault();
  const manager = new Manager({ kubeConfig, logger }, config);
  const client = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
  const events = new EventRecorder({ sink: clientEventSink(client), log: logger }, { reportingController: `${API_GROUP}/opensearch-operator`, reportingInstance: hostname().slice(0, 128) });
  const { controllers, registry } = openSearchControllers(
    { informers: manager.informers, client, events, controllerOptions: manager.controllerOptions(), clock: systemClock, log: logger, requests: openSearchRequestCounter(manager.metrics.registry) },
    { registry: { requestTimeoutMs: config.opensearch.requestTimeoutMs } },
  );
  for (const controller of controllers) manager.add(controller);
  try {
    await manager.start(shutdownSignal({ logger }));
  } finally {
    await events.shutdown();
    await registry.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`opensearch-operator: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
