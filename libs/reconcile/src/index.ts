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
  isNamespaceTerminating,
  isNotFound,
  isRetryable,
  isTerminalError,
  KubeApiError,
  TerminalError,
} from './errors.ts';
export { and, annotationsChanged, generationChanged, labelsChanged, not, or } from './predicate.ts';
export type { ChangeEvent, Predicate } from './predicate.ts';
export { apiVersionOf, controllerRefOf, enqueueControllerOwner, groupOf, isControlledBy } from './handler.ts';
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
export { byOwnerUid, bySecretRef, storeReader, StoreWriter, stripManagedFields } from './store.ts';
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
export { RuntimeMetrics } from './metrics.ts';
export {
  conditionsEqual,
  getCondition,
  isFalse,
  isReasonValue,
  isTrue,
  MAX_CONDITION_MESSAGE_LENGTH,
  READY_CONDITION,
  removeCondition,
  rfc3339,
  setCondition,
} from './conditions.ts';
export type { Condition, ConditionStatus, ConditionUpdate, ReasonValue } from './conditions.ts';
export { patchStatusIfChanged, statusChange } from './status.ts';
export type { DesiredStatus, PatchStatusOptions } from './status.ts';
export { clientEventSink, EventRecorder, eventType, MAX_EVENT_NOTE_BYTES, microTime, truncateUtf8 } from './events.ts';
export type { EventInput, EventObjectReference, EventRecorderDeps, EventRecorderOptions, EventSeries, EventSink, KubeEvent, Recorder } from './events.ts';
export { forceDeleteAnnotation, releaseFinalizer, withFinalizer } from './finalizer.ts';
export type { FinalizerDeps, FinalizerHandlers } from './finalizer.ts';
export { defineCustomResource, deletionPolicy } from './crd.ts';
export type {
  CustomResourceDefinitionManifest,
  CustomResourceKind,
  CustomResourceObject,
  CustomResourceOptions,
  DeletionPolicy,
  PrinterColumn,
  ResourceFor,
  ResourceOf,
} from './crd.ts';
export { CrdError, immutable, toStructuralSchema } from './crd-schema.ts';
export type { StructuralSchema, ValidationRule } from './crd-schema.ts';
export { renderCrdFiles, renderCrdYaml, runCrdWriter, staleCrdFiles, writeCrdFiles } from './crd-writer.ts';
export type { CrdDirectoryOptions, CrdFile, CrdRenderOptions, CrdWriterIo, StaleCrdFile } from './crd-writer.ts';
export { DEFAULT_DRIFT_CHECK_INTERVAL_MS, DEFAULT_DRIFT_JITTER, jittered, parseDuration } from './drift.ts';
export type { DeleteTarget, ExternalAdapter, ExternalContext, ExternalObservation } from './external-adapter.ts';
export { byExternalName, claimWinner, storeClaimIndex } from './external-claims.ts';
export type { ClaimIndex } from './external-claims.ts';
export { ExternalConditions, ExternalEvents, ExternalResourceReconciler, finalizerRunner } from './external-resource.ts';
export type {
  ExternalResourceDeps,
  ExternalResourceOptions,
  ExternalResourceStatus,
  FinalizerRunner,
  Ownership,
  StatusWriter,
} from './external-resource.ts';
export { LeaderElectionLostError, Manager, operatorNamespace } from './manager.ts';
export type { ManagerDeps, ManagerTuning, Runnable } from './manager.ts';
export { defaultIdentity, KubeLeaseLock, LeaderElector } from './leader-election.ts';
export type { LeaderElectorDeps, LeaderElectorOptions, LeaderMetrics, LeadershipEnd, LeaseLock, LeaseRecord, VersionedLease } from './leader-election.ts';
export { informerChecks, probeResponse } from './health.ts';
export type { CheckResult, InformerCheckOptions, InformerHealth, ProbeResponse } from './health.ts';
export { EndpointServer, parseBindAddress } from './endpoint-server.ts';
export type { EndpointHandler, EndpointResponse } from './endpoint-server.ts';
export { MultiNamespaceInformers } from './multi-namespace-informers.ts';
export type { InformerCache } from './multi-namespace-informers.ts';
export { shutdownSignal, ShutdownRequestedError } from './shutdown-signal.ts';
export type { SignalProcess } from './shutdown-signal.ts';
export { createLogger, defaultLogFormat, formatLine, REDACTED_PATHS } from './log.ts';
export type { CreateLoggerOptions, LogDestination, LogFormat } from './log.ts';
