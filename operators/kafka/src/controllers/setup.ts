import type { KubernetesObject, V1Secret } from '@kubernetes/client-node';
import {
  annotationsChanged,
  byConnectionRef,
  bySecretRef,
  cachedSecrets,
  CONNECTION_INDEX,
  ControllerBuilder,
  coreTypes,
  forgetClientsOfDeleted,
  generationChanged,
  objectKey,
  or,
  requestFor,
  watchConnectionDependents,
} from '@domain-operators/reconcile';
import type { Client, Clock, Controller, ControllerOptions, InformerSource, Recorder, Request, Store } from '@domain-operators/reconcile';
import { kafkaConnections, kafkaTopics, kafkaUsers } from '../api/v1alpha1/index.ts';
import type { KafkaConnection, KafkaUser } from '../api/v1alpha1/index.ts';
import type { RequestCounter } from '../kafka/platformatic-admin.ts';
import { ConnectionResolver } from './connection-resolver.ts';
import { generatedSecretName } from './credentials-secret.ts';
import { KafkaClientPool } from './kafka-client-pool.ts';
import type { KafkaClientPoolOptions } from './kafka-client-pool.ts';
import { kafkaConnectionReconciler } from './kafkaconnection.reconciler.ts';
import type { KafkaConnectionReconcilerOptions } from './kafkaconnection.reconciler.ts';
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

/**
 * Builds the three controllers on the manager's informers: KafkaConnection (woken by its Secrets), KafkaTopic and
 * KafkaUser (woken by their connection becoming usable or changing and by their namespace's labels, the runtime's
 * `watchConnectionDependents`, and, for users, the Secrets they read). They share one {@link ConnectionResolver} and one {@link KafkaClientPool}: one admin
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

  const connections = informers.informerFor(kafkaConnections.type, { indexers: { [SECRET_INDEX]: connectionSecrets } });
  const topics = informers.informerFor(kafkaTopics.type, { indexers: { [CONNECTION_INDEX]: byConnectionRef } });
  const users = informers.informerFor(kafkaUsers.type, { indexers: { [CONNECTION_INDEX]: byConnectionRef, [SECRET_INDEX]: userSecrets } });
  const secrets = informers.informerFor(coreTypes.secret);
  const namespaces = informers.informerFor(coreTypes.namespace);

  const pool = new KafkaClientPool({ clock, ...(deps.requestCounter !== undefined && { requestCounter: deps.requestCounter }) }, options.pool);
  const secretSource = cachedSecrets(secrets, client);
  const resolver = new ConnectionResolver({ connections, namespaces, secrets: secretSource, pool });
  forgetClientsOfDeleted(connections, pool);

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
    .complete(kafkaConnectionReconciler({ client, resolver, events }, options.connection));

  const topicController = watchConnectionDependents(new ControllerBuilder({ informers }, 'kafkatopic').for(kafkaTopics.type, primary), topics, kafkaConnections.type)
    .withOptions({ ...shared, maxConcurrentReconciles: Math.max(workers, options.topicWorkers ?? 64) })
    .complete(new KafkaTopicReconciler({ client, resolver, events, caches: { topics, connections, namespaces } }, options.topic));

  const userController = watchConnectionDependents(new ControllerBuilder({ informers }, 'kafkauser').for(kafkaUsers.type, primary), users, kafkaConnections.type)
    .watches(coreTypes.secret, (s: V1Secret) => dependents(() => users.store, SECRET_INDEX)(objectKey(s)))
    .withOptions({ ...shared, maxConcurrentReconciles: Math.max(workers, options.userWorkers ?? 16) })
    .complete(new KafkaUserReconciler({ client, resolver, secrets: secretSource, events, caches: { users, connections, namespaces } }, options.user));

  return {
    controllers: [connectionController, topicController, userController],
    close: () => pool.close(),
  };
}
