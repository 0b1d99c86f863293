// Wiring only: the shared start-up (configuration, kubeconfig, client, manager, Events, signals, shutdown) runs the
// Kafka controllers, with the KafkaTopics' claims ledger in the operator's own namespace.
import type { KubeConfig } from '@kubernetes/client-node';
import { ClaimsLedger, configMapLedgerDocument, errorFields, operatorNamespace, startOperator, systemClock } from '@domain-operators/reconcile';
import type { Client, Logger } from '@domain-operators/reconcile';
import { API_GROUP, CLAIMS_LEDGER_NAME, loadConfig } from './config.ts';
import type { KafkaOperatorConfig } from './config.ts';
import { kafkaControllers } from './controllers/setup.ts';
import { adminRequestCounter } from './metrics.ts';

startOperator({
  name: 'kafka-operator',
  apiGroup: API_GROUP,
  loadConfig,
  wire: ({ config, manager, client, events, priority, kubeConfig, logger }) =>
    kafkaControllers(
      {
        informers: manager.informers,
        client,
        events,
        clock: systemClock,
        requestCounter: adminRequestCounter(manager.metrics.registry),
        priority,
        ...claimsLedger(config, kubeConfig, client, logger),
      },
      { controller: manager.controllerOptions() },
    ),
});

/**
 * The claims ledger in the namespace of the Lease (the operator's own, by default); none when that namespace is not
 * known (a process outside a pod whose kubeconfig names none): KafkaTopics then claim their creates in status.
 */
function claimsLedger(config: KafkaOperatorConfig, kubeConfig: KubeConfig, client: Client, logger: Logger): { readonly createClaims?: ClaimsLedger } {
  let namespace: string;
  try {
    namespace = config.leaderElection.namespace ?? operatorNamespace(kubeConfig);
  } catch (err) {
    logger.warn(errorFields(err), 'no namespace for the claims ledger: KafkaTopics claim their creates in status (two status writes per create)');
    return {};
  }
  const document = configMapLedgerDocument(client, { namespace, name: CLAIMS_LEDGER_NAME, labels: { 'app.kubernetes.io/managed-by': 'kafka-operator' } });
  return { createClaims: new ClaimsLedger({ document, clock: systemClock, log: logger }) };
}
