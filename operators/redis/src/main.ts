// Wiring only: configuration, logger, Kubernetes client, event recorder, manager and the two controllers.
import { hostname } from 'node:os';
import { KubeConfig } from '@kubernetes/client-node';
import { Client, clientEventSink, createLogger, EventRecorder, HttpsRestTransport, Manager, shutdownSignal } from '@domain-operators/reconcile';
import { API_GROUP, loadConfig } from './config.ts';
import { buildControllers } from './controllers/setup.ts';

let config;
try {
  config = loadConfig(process.argv.slice(2), process.env);
} catch (err) {
  process.stderr.write(`redis-operator: ${(err as Error).message}\n`);
  process.exit(1);
}
const logger = createLogger({ level: config.logLevel, name: 'redis-operator' });
const kubeConfig = new KubeConfig();
kubeConfig.loadFromDefault();
const client = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
const recorder = new EventRecorder(
  { sink: clientEventSink(client), log: logger },
  { reportingController: `${API_GROUP}/redis-operator`, reportingInstance: (process.env['POD_NAME'] ?? hostname()).slice(0, 128) },
);
const manager = new Manager({ kubeConfig, logger }, config);
const controllers = buildControllers({ informers: manager.informers, client, recorder }, manager.controllerOptions());
manager.add(controllers.replications);
manager.add(controllers.users);
manager.start(shutdownSignal({ logger })).then(
  async () => {
    await recorder.shutdown();
    process.exit(0);
  },
  (err: unknown) => {
    logger.error({ error: err instanceof Error ? err.message : String(err) }, 'redis-operator stopped on an error');
    process.exit(1);
  },
);
