import type { KubernetesObject, V1Namespace, V1Secret } from '@kubernetes/client-node';
import { bySecretRef, cachedSecrets, ControllerBuilder, coreTypes, generationChanged, getCondition, labelsChanged, annotationsChanged, objectKey, or, requestFor } from '@domain-operators/reconcile';
import type { Client, Clock, Controller, ControllerOptions, IndexFunc, InformerSource, Predicate, Recorder, Request, Store } from '@domain-operators/reconcile';
import { kafkaConnections, kafkaTopics, kafkaUsers } from '../api/v1alpha1/index.ts';
import type { KafkaConnection, KafkaTopic, KafkaUser } from '../api/v1alpha1/index.ts';
import type { RequestCounter } from '../kafka/platformatic-admin.ts';
import { ConnectionResolver } from './connection-resolver.ts';
import { generatedSecretName } from './credentials-secret.ts';
import { KafkaClientPool } from './kafka-client-pool.ts';
import type { KafkaClientPoolOptions } from './kafka-client-pool.ts';
import { KafkaConnectionReconciler } from './kafkaconnection.reconciler.ts';
import type { KafkaConnectionReconcilerOptions } from './kafkaconnection.reconciler.ts';
import { CONNECTION_INDEX } from './external-parts.ts';
import { KafkaTopicReconciler } from './kafkatopic.reconciler.ts';
import type { KafkaTopicReconcilerOptions } from './kafkatopic.reconciler.ts';
import { KafkaUserReconciler } from './kafkauser.reconciler.ts';
import type { KafkaUserReconcilerOptions } from './kafkauser.reconciler.ts';

/** What the Kafka controllers need from the process. */
export interface KafkaControllersDeps {
  /** The manager's shared informer cache. */
  readonly informers: InformerSource;
  readonly client: Client;
  readonly events: Recorder;
  readonly clock: Clock;
  /** Counts the admin requests sent to Kafka (for metrics). */
  readonly requestCounter?: RequestCounter;
}

/** Tuning of the Kafka controllers; every field is optional. */
export interface KafkaControllersOptions {
  /** Shared controller options (logger, metrics, clock, …), usually `manager.controllerOptions()`. */
  readonly controller?: ControllerOptions;
  /**
   * Concurrent KafkaTopic reconciles (default 64, at least the shared `maxConcurrentReconciles`): concurrency is what
   * lets the batcher put many topics into one request.
   */
  readonly topicWorkers?: number;
  /** Concurrent KafkaUser reconciles (default 16, at least the shared `maxConcurrentReconciles`). */
  readonly userWorkers?: number;
  readonly pool?: KafkaClientPoolOptions;
  readonly connection?: KafkaConnectionReconcilerOptions;
  readonly topic?: KafkaTopicReconcilerOptions;
  readonly user?: KafkaUserReconcilerOptions;
}

/** The controllers of the Kafka operator, and the shared Kafka clients to close on exit. */
export interface KafkaControllers {
  readonly controllers: readonly Controller[];
  /** Closes every Kafka client. Call after the manager stopped. Never rejects. */
  close(): Promise<void>;
}

const SECRET_INDEX = 'secret';
const NAMESPACE_INDEX = 'namespace';

/** Indexes a KafkaTopic or KafkaUser under its KafkaConnection's name. Pure. */
export function byConnection<T extends KubernetesObject & { readonly spec: { readonly connectionRef: { readonly name: string } } }>(): IndexFunc<T> {
  return (object) => [object.spec.connectionRef.name];
}

/** A connection change that matters to its dependents: created, deleted, spec changed, or `Ready` changed. */
export const connectionUsabilityChanged: Predicate<KafkaConnection> = (event) => {
  if (event.type !== 'update') return true;
  const ready = (c: KafkaConnection): string => getCondition(c.status?.conditions, 'Ready')?.status ?? 'Unknown';
  return event.object.metadata.generation !== event.oldObject.metadata.generation || ready(event.object) !== ready(event.oldObject);
};

/**
 * Builds the three controllers on the manager's informers: KafkaConnection (woken by its Secrets), KafkaTopic and
 * KafkaUser (woken by their connection becoming usable or changing, their namespace's labels, and, for users, the
 * Secrets they read). They share one {@link ConnectionResolver} and one {@link KafkaClientPool}: one admin
 * connection and one batcher per KafkaConnection. Registers event handlers only; nothing runs until the manager
 * starts the controllers.
 */
export function kafkaControllers(deps: KafkaControllersDeps, options: KafkaControllersOptions = {}): KafkaControllers {
  const { informers, client, events, clock } = deps;
  const shared = options.controller ?? {};
  const workers = shared.maxConcurrentReconciles ?? 1;

  const connectionSecrets = bySecretRef<KafkaConnection>((c) => [
    c.spec.sasl?.secretRef,
    c.spec.tls?.enabled === true ? c.spec.tls.caSecretRef : undefined,
  ]);
  const userSecrets = bySecretRef<KafkaUser>((u) => [u.spec.authentication.passwordSecretRef?.name ?? generatedSecretName(u)]);
  const byNamespace: IndexFunc = (o) => [o.metadata?.namespace ?? ''];

  const connections = informers.informerFor(kafkaConnections.type, { indexers: { [SECRET_INDEX]: connectionSecrets } });
  const topics = informers.informerFor(kafkaTopics.type, { indexers: { [CONNECTION_INDEX]: byConnection<KafkaTopic>(), [NAMESPACE_INDEX]: byNamespace } });
  const users = informers.informerFor(kafkaUsers.type, {
    indexers: { [CONNECTION_INDEX]: byConnection<KafkaUser>(), [SECRET_INDEX]: userSecrets, [NAMESPACE_INDEX]: byNamespace },
  });
  const secrets = informers.informerFor(coreTypes.secret);
  const namespaces = informers.informerFor(coreTypes.namespace);

  const pool = new KafkaClientPool({ clock, ...(deps.requestCounter !== undefined && { requestCounter: deps.requestCounter }) }, options.pool);
  const secretSource = cachedSecrets(secrets, client);
  const resolver = new ConnectionResolver({ connections, namespaces, secrets: secretSource, pool });

  const dependents =
    <T extends KubernetesObject>(store: () => Store<T>, index: string) =>
    (key: string): readonly Request[] =>
      store().byIndex(index, key).map(requestFor);
  // Our own status writes change neither the generation nor annotations: they do not wake the resource again.
  const primary = or(generationChanged, annotationsChanged);

  const connectionController = new ControllerBuilder({ informers }, 'kafkaconnection')
    .for(kafkaConnections.type, generationChanged)
    .watches(coreTypes.secret, (s: V1Secret) => dependents(() => connections.store, SECRET_INDEX)(objectKey(s)))
    .withOptions(shared)
    .complete(new KafkaConnectionReconciler({ client, resolver, events }, options.connection));

  const topicController = new ControllerBuilder({ informers }, 'kafkatopic')
    .for(kafkaTopics.type, primary)
    .watches(kafkaConnections.type, (c: KafkaConnection) => dependents(() => topics.store, CONNECTION_INDEX)(c.metadata.name ?? ''), {
      predicates: [connectionUsabilityChanged],
    })
    .watches(coreTypes.namespace, (ns: V1Namespace) => dependents(() => topics.store, NAMESPACE_INDEX)(ns.metadata?.name ?? ''), { predicates: [labelsChanged] })
    .withOptions({ ...shared, maxConcurrentReconciles: Math.max(workers, options.topicWorkers ?? 64) })
    .complete(new KafkaTopicReconciler({ client, resolver, events, topics }, options.topic));

  const userController = new ControllerBuilder({ informers }, 'kafkauser')
    .for(kafkaUsers.type, primary)
    .watches(kafkaConnections.type, (c: KafkaConnection) => dependents(() => users.store, CONNECTION_INDEX)(c.metadata.name ?? ''), {
      predicates: [connectionUsabilityChanged],
    })
    .watches(coreTypes.secret, (s: V1Secret) => dependents(() => users.store, SECRET_INDEX)(objectKey(s)))
    .watches(coreTypes.namespace, (ns: V1Namespace) => dependents(() => users.store, NAMESPACE_INDEX)(ns.metadata?.name ?? ''), { predicates: [labelsChanged] })
    .withOptions({ ...shared, maxConcurrentReconciles: Math.max(workers, options.userWorkers ?? 16) })
    .complete(new KafkaUserReconciler({ client, resolver, secrets: secretSource, events, users }, options.user));

  return {
    controllers: [connectionController, topicController, userController],
    close: () => pool.close(),
  };
}
