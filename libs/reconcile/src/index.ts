/**
 * `@domain-operators/reconcile`: a controller runtime for Kubernetes operators in TypeScript.
 * This file is the package's whole public API.
 */
export { ConfigError, LOG_LEVELS, parseManagerOptions } from './manager-options.ts';
export type { LeaderElectionOptions, LogLevel, ManagerOptions, ManagerOptionsDefaults } from './manager-options.ts';
export { flushMicrotasks, sleep, systemClock, VirtualClock } from './clock.ts';
export type { Clock, TimerHandle } from './clock.ts';
export { objectKey, parseRequestKey, requestFor, requestKey } from './request.ts';
export type { Request } from './request.ts';
export { Result } from './result.ts';
export {
  apiStatusOf,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNotFound,
  isRetryable,
  isTerminalError,
  KubeApiError,
  TerminalError,
} from './errors.ts';
export { and, annotationsChanged, generationChanged, labelsChanged, not, or } from './predicate.ts';
export type { ChangeEvent, Predicate } from './predicate.ts';
export { apiVersionOf, controllerRefOf, enqueueControllerOwner, groupOf } from './handler.ts';
export type { GroupVersionKind, MapFunc } from './handler.ts';
export {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
} from './rate-limiter.ts';
export type {
  BucketRateLimiterOptions,
  ItemExponentialRateLimiterOptions,
  ItemFastSlowRateLimiterOptions,
  RateLimiter,
} from './rate-limiter.ts';
export { WorkQueue } from './queue.ts';
export type { WorkQueueKey, WorkQueueOptions } from './queue.ts';
export { noopWorkQueueMetricsProvider } from './queue-metrics.ts';
export type { UnfinishedWork, WorkQueueMetrics, WorkQueueMetricsProvider } from './queue-metrics.ts';
export { NetworkError, isNetworkError } from './network-error.ts';
export type { ListPage, ListRequest, WatchEvent, WatchRequest, WatchTransport } from './watch-transport.ts';
export { HttpWatchTransport } from './http-watch-transport.ts';
export type { HttpWatchTransportDeps, HttpWatchTransportOptions } from './http-watch-transport.ts';
export { WatchBackoff } from './watch-backoff.ts';
export type { WatchBackoffOptions } from './watch-backoff.ts';
export { ShortWatchError, Watcher, WatchStalledError } from './watcher.ts';
export type { WatcherDeps, WatcherEvent, WatcherHealth, WatcherOptions, WatcherStateKind } from './watcher.ts';
export { byOwnerUid, bySecretRef, StoreWriter, stripManagedFields } from './store.ts';
export type { IndexFunc, SecretRef, Store, StoreChange, StoreOptions } from './store.ts';
export { Reflector } from './reflector.ts';
export type { ChangeListener, ReflectorDeps, ReflectorOptions, WatcherEventSource } from './reflector.ts';
export { Client, retryOnConflict } from './client.ts';
export type { DeleteOptions, JsonPatchOperation, ListOptions, ObjectReader, Patch, RetryOnConflictOptions, WriteOptions } from './client.ts';
export type { ListPage as ClientListPage } from './client.ts';
export { HttpsRestTransport } from './rest.ts';
export type { RestRequest, RestTransport } from './rest.ts';
export { collectionPath, coreTypes, objectPath, resourceType } from './resource-type.ts';
export type { ListScope, ResourceType } from './resource-type.ts';
export { errorFields, silentLogger } from './logger.ts';
export type { LogFields, Logger } from './logger.ts';
export type { ReconcileContext, Reconciler } from './reconciler.ts';
export { noopControllerMetrics } from './controller-metrics.ts';
export type { ControllerMetrics, ReconcileOutcome } from './controller-metrics.ts';
export { SharedInformers } from './informer.ts';
export type { Informer, InformerRequest, SharedInformersOptions } from './informer.ts';
export { Controller, ControllerBuilder } from './controller.ts';
export type { ControllerOptions, InformerSource } from './controller.ts';
