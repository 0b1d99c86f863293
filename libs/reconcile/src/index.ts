/**
 * `@domain-operators/reconcile`: a controller runtime for Kubernetes operators in TypeScript.
 * This file is the package's whole public API.
 */
export { ConfigError, parseManagerOptions } from './manager/manager-options.ts';
export { loadKubeConfig } from './manager/kubeconfig.ts';
export { runOperator, startOperator } from './manager/run-operator.ts';
export type { OperatorDefinition, OperatorProcess, OperatorRuntime, WiredOperator } from './manager/run-operator.ts';
export type { LeaderElectionOptions, ManagerOptions, ManagerOptionsDefaults } from './manager/manager-options.ts';
export { LOG_LEVELS } from './core/logger.ts';
export type { LogLevel } from './core/logger.ts';
export { flushMicrotasks, sleep, systemClock, VirtualClock } from './core/clock.ts';
export type { Clock, TimerHandle } from './core/clock.ts';
export { objectKey, parseRequestKey, requestFor, requestKey } from './core/request.ts';
export type { Request } from './core/request.ts';
export { Result } from './core/result.ts';
export {
  apiStatusOf,
  isAlreadyExists,
  isConflict,
  isForbidden,
  isGone,
  isInvalid,
  isNamespaceTerminating,
  isNotFound,
  isResourceVersionTooLarge,
  isRetryable,
  isTerminalError,
  stallsProgress,
  KubeApiError,
  TerminalError,
} from './core/errors.ts';
export type { TerminalErrorOptions } from './core/errors.ts';
export { and, annotationsChanged, generationChanged, labelsChanged, not, or } from './controller/predicate.ts';
export type { ChangeEvent, Predicate } from './controller/predicate.ts';
export { controllerRefOf, enqueueControllerOwner, groupOf, isControlledBy } from './controller/handler.ts';
export { controllerReference } from './client/owner-reference.ts';
export { generatePassword } from './secret/password.ts';
export type { PasswordRules } from './secret/password.ts';
export { credentialsSecretName, MANAGED_BY_LABEL, ownedSecret, ownedSecretScope } from './secret/owned-secret.ts';
export type { OwnedSecretInput } from './secret/owned-secret.ts';
export { cachedSecrets, ownedOrReferencedSecrets, secretValue, storeSecrets } from './secret/secret-source.ts';
export { referencedSecrets } from './secret/referenced-secrets.ts';
export type { SecretMetadataCache } from './secret/referenced-secrets.ts';
export type { SecretSource } from './secret/secret-source.ts';
export { ensureSecret } from './secret/ensure-secret.ts';
export type { EnsuredSecret, EnsureSecretDeps } from './secret/ensure-secret.ts';
export { FORCE_ROTATE, forceRotation, ROTATED_FOR, rotationPending } from './secret/force-rotation.ts';
export type { Rotation } from './secret/force-rotation.ts';
export { RECONCILE_TRIGGERS } from './core/reconcile-trigger.ts';
export type { ReconcileTrigger } from './core/reconcile-trigger.ts';
export type { MapFunc } from './controller/handler.ts';
export { apiVersionOf } from './client/resource-type.ts';
export type { GroupVersionKind } from './client/resource-type.ts';
export {
  BucketRateLimiter,
  defaultControllerRateLimiter,
  ItemExponentialRateLimiter,
  ItemFastSlowRateLimiter,
  MaxOfRateLimiter,
} from './queue/rate-limiter.ts';
export type {
  BucketRateLimiterOptions,
  ItemExponentialRateLimiterOptions,
  ItemFastSlowRateLimiterOptions,
  RateLimiter,
} from './queue/rate-limiter.ts';
export { WorkQueue } from './queue/queue.ts';
export type { WorkQueueKey, WorkQueueOptions, WorkQueuePriority } from './queue/queue.ts';
export { noopWorkQueueMetricsProvider } from './observability/queue-metrics.ts';
export type { UnfinishedWork, WorkQueueMetrics, WorkQueueMetricsProvider } from './observability/queue-metrics.ts';
export { NetworkError, isNetworkError } from './core/network-error.ts';
export type { ListPage, ListRequest, WatchEvent, WatchRequest, WatchTransport } from './cache/watch-transport.ts';
export { INITIAL_EVENTS_END_ANNOTATION } from './cache/watch-transport.ts';
export { HttpWatchTransport, METADATA_LIST_ACCEPT, METADATA_WATCH_ACCEPT } from './cache/http-watch-transport.ts';
export type { HttpWatchTransportDeps, HttpWatchTransportOptions } from './cache/http-watch-transport.ts';
export { WatchBackoff } from './cache/watch-backoff.ts';
export type { WatchBackoffOptions } from './cache/watch-backoff.ts';
export { ShortWatchError, Watcher, WatchListIncompleteError, WatchListUnsupportedError, WatchStalledError } from './cache/watcher.ts';
export type { InitialListStrategy, WatcherDeps, WatcherEvent, WatcherHealth, WatcherOptions, WatcherStateKind } from './cache/watcher.ts';
export { byOwnerUid, bySecretRef, storeReader, StoreWriter, stripManagedFields } from './cache/store.ts';
export type { IndexFunc, SecretRef, Store, StoreChange, StoreOptions } from './cache/store.ts';
export { Reflector } from './cache/reflector.ts';
export type { ChangeListener, ReflectorDeps, ReflectorOptions, WatcherEventSource } from './cache/reflector.ts';
export { Client, retryOnConflict } from './client/client.ts';
export type { DeleteOptions, JsonPatchOperation, ListOptions, ObjectReader, Patch, RetryOnConflictOptions, WriteOptions } from './client/client.ts';
export type { ListPage as ClientListPage } from './client/client.ts';
export { HttpsRestTransport } from './client/rest.ts';
export type { RestRequest, RestTransport } from './client/rest.ts';
export { collectionPath, coreTypes, objectPath, resourceType } from './client/resource-type.ts';
export type { ListScope, ResourceType } from './client/resource-type.ts';
export { isMetadataOnly, metadataOnly } from './client/metadata-only.ts';
export type { PartialObjectMetadata } from './client/metadata-only.ts';
export { errorFields, silentLogger } from './core/logger.ts';
export type { LogFields, Logger } from './core/logger.ts';
export type { ReconcileContext, Reconciler } from './controller/reconciler.ts';
export { noopControllerMetrics } from './observability/controller-metrics.ts';
export type { ControllerMetrics, ReconcileOutcome } from './observability/controller-metrics.ts';
export { SharedInformers } from './cache/informer.ts';
export type { Informer, InformerRequest, SharedInformersDeps, SharedInformersOptions } from './cache/informer.ts';
export { InformerScopeConflictError } from './cache/informer-scope.ts';
export type { InformerScope } from './cache/informer-scope.ts';
export { Controller, ControllerBuilder } from './controller/controller.ts';
export type { ControllerOptions, InformerSource, WatchOptions } from './controller/controller.ts';
export { RuntimeMetrics } from './observability/metrics.ts';
export {
  conditionsEqual,
  getCondition,
  isFalse,
  isReasonValue,
  isTrue,
  MAX_CONDITION_MESSAGE_LENGTH,
  READY_CONDITION,
  RECONCILING_CONDITION,
  STALLED_CONDITION,
  removeCondition,
  rfc3339,
  setCondition,
  SYNCED_CONDITION,
} from './core/conditions.ts';
export { Reasons } from './core/reasons.ts';
export type { Reason } from './core/reasons.ts';
export { errorReason, ReasonedError } from './core/reasoned-error.ts';
export type { Condition, ConditionStatus, ConditionUpdate, ReasonValue } from './core/conditions.ts';
export { patchStatusIfChanged, statusChange, writeStatusIfChanged } from './status/status.ts';
export type { DesiredStatus, PatchStatusOptions } from './status/status.ts';
export { reconciling, settled, stalled } from './status/progress.ts';
export type { Progress } from './status/progress.ts';
export { OwnWrites } from './status/own-writes.ts';
export { clientEventSink, EventRecorder, eventType, MAX_EVENT_NOTE_BYTES, microTime, truncateUtf8 } from './observability/events.ts';
export type { EventInput, EventObjectReference, EventRecorderDeps, EventRecorderOptions, EventSeries, EventSink, KubeEvent, Recorder } from './observability/events.ts';
export { WritePriority } from './observability/write-priority.ts';
export type { WritePriorityOptions } from './observability/write-priority.ts';
export { forceDeleteAnnotation, releaseFinalizer, withFinalizer } from './controller/finalizer.ts';
export type { FinalizerDeps, FinalizerHandlers } from './controller/finalizer.ts';
export { defineCustomResource, deletionPolicy } from './crd/crd.ts';
export type {
  CustomResourceDefinitionManifest,
  CustomResourceKind,
  CustomResourceObject,
  CustomResourceOptions,
  DeletionPolicy,
  PrinterColumn,
  ResourceFor,
  ResourceOf,
} from './crd/crd.ts';
export { conditionColumn } from './crd/condition-column.ts';
export { ConditionSchema, conditionsField, externalResourceStatusFields } from './crd/status-schema.ts';
export { ignoredNamesField } from './crd/ignored-names-schema.ts';
export { caSecretRef, loginSecretRef } from './crd/secret-ref-schema.ts';
export type { ConditionColumnOptions } from './crd/condition-column.ts';
export { CrdError, immutable, toStructuralSchema } from './crd/crd-schema.ts';
export type { StructuralSchema, ValidationRule } from './crd/crd-schema.ts';
export { renderCrdFiles, renderCrdYaml, runCrdWriter, staleCrdFiles, writeCrdFiles } from './crd/crd-writer.ts';
export type { CrdDirectoryOptions, CrdFile, CrdRenderOptions, CrdWriterIo, StaleCrdFile } from './crd/crd-writer.ts';
export { APPLIES_EXPRESSION, defineConnectionPolicy, defineObjectPolicy, policyObjects, SPEC_WRITE_EXPRESSION } from './admission/admission-policy.ts';
export type {
  AdmissionPolicy,
  AdmissionPolicyOptions,
  AdmissionValidation,
  AdmissionVariable,
  ConnectionKind,
  ConnectionPolicyOptions,
  PolicyObjectOptions,
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidationAction,
  ValidationActions,
} from './admission/admission-policy.ts';
export { admissionTypes } from './admission/admission-types.ts';
export { celPresent, celRenderedPrefix, celSelectorMatches, celString, celStringList } from './admission/cel.ts';
export { renderAdmissionTemplate, runAdmissionTemplate } from './admission/admission-template.ts';
export type { AdmissionTemplateIo } from './admission/admission-template.ts';
export { CASE_CONNECTION, CASE_NAMESPACE, caseDisagreements, fillCase } from './admission/admission-case.ts';
export type { AdmissionCase, AdmissionCaseTable, CaseNames, CaseVerdict } from './admission/admission-case.ts';
// Schedules: five-field cron expressions read in an IANA time zone, and the slots they give (next, latest); pure.
export { CronSchedule, parseSchedule } from './schedule/cron.ts';
export type { ScheduleResult } from './schedule/cron.ts';
export { DEFAULT_DRIFT_CHECK_INTERVAL_MS, DEFAULT_DRIFT_JITTER, jittered, parseDuration } from './external/drift.ts';
export type { DeleteTarget, ExternalAdapter, ExternalContext, ExternalCreation, ExternalObservation, ExternalStatusFields, ExternalUpdate } from './external/external-adapter.ts';
export { byExternalName, claimWinner, storeClaimIndex } from './external/external-claims.ts';
export type { ClaimIndex } from './external/external-claims.ts';
export type { CreateClaims } from './external/create-claims.ts';
export { ClaimsLedger } from './external/claims-ledger.ts';
export type { ClaimsLedgerDeps, ClaimsLedgerOptions, LedgerDocument, LedgerVersion } from './external/claims-ledger.ts';
export { configMapLedgerDocument } from './external/configmap-ledger-document.ts';
export type { ConfigMapLedgerRef } from './external/configmap-ledger-document.ts';
export { ExternalConditions, ExternalEvents, ExternalResourceReconciler, finalizerRunner, statusWriterFor } from './external/external-resource.ts';
export type {
  ExternalResourceDeps,
  Connected,
  ExternalResourceOptions,
  ExternalResourceStatus,
  FinalizerRunner,
  Ownership,
  StatusWriter,
} from './external/external-resource.ts';
export { LeaderElectionLostError, Manager, operatorNamespace } from './manager/manager.ts';
export type { ManagerDeps, ManagerTuning, Runnable } from './manager/manager.ts';
export { defaultIdentity, KubeLeaseLock, LeaderElector } from './manager/leader-election.ts';
export type { LeaderElectorDeps, LeaderElectorOptions, LeaderMetrics, LeadershipEnd, LeaseLock, LeaseRecord, VersionedLease } from './manager/leader-election.ts';
export { informerChecks, probeResponse } from './manager/health.ts';
export type { CheckResult, InformerCheckOptions, ProbeResponse } from './manager/health.ts';
export type { InformerHealth } from './cache/informer.ts';
export { EndpointServer, parseBindAddress } from './manager/endpoint-server.ts';
export type { EndpointHandler, EndpointResponse } from './manager/endpoint-server.ts';
export { MultiNamespaceInformers } from './cache/multi-namespace-informers.ts';
export type { InformerCache } from './cache/multi-namespace-informers.ts';
export { shutdownSignal, ShutdownRequestedError } from './manager/shutdown-signal.ts';
export type { SignalProcess } from './manager/shutdown-signal.ts';
export { createLogger, defaultLogFormat, formatLine, REDACTED_PATHS } from './observability/log.ts';
export type { CreateLoggerOptions, LogDestination, LogFormat } from './observability/log.ts';
// Connections: resolving a dependent's *Connection, its Ready check and gate, ConnectionGone, waking dependents,
// tenancy selection by namespace labels, external names, the claim index computed on change, one client per connection.
export { ConnectionReasons } from './connection/connection-reasons.ts';
export type { ConnectionReason } from './connection/connection-reasons.ts';
export { DependencyError, isDependencyError } from './connection/dependency-error.ts';
export { foreignPrefixes, NAMESPACE_PLACEHOLDER, renderNamePrefix } from './connection/name-prefix.ts';
export type { ForeignPrefix } from './connection/name-prefix.ts';
export { requiredSecret, requiredSecretValue } from './connection/required-secret.ts';
export type { SecretLocation } from './connection/required-secret.ts';
export type { ConnectionDependent, ConnectionObject, StoreSource } from './connection/connection-object.ts';
export { matchesSelector } from './connection/label-selector.ts';
export type { LabelSelector } from './connection/label-selector.ts';
export { ConnectionKit } from './connection/connection-kit.ts';
export type { ConnectionKitDeps, ConnectionKitKind } from './connection/connection-kit.ts';
export { connectionExternalName, parseConnectionExternalName } from './connection/external-name.ts';
export { ConnectionLookup } from './connection/connection-lookup.ts';
export type { ConnectionLookupDeps, ConnectionLookupOptions } from './connection/connection-lookup.ts';
export { NamespaceAdmission } from './connection/namespace-admission.ts';
export type { NamespaceAdmissionDeps } from './connection/namespace-admission.ts';
export { ClientCache, connectionVersion, forgetClientsOfDeleted } from './connection/client-cache.ts';
export type { ClientCacheDeps } from './connection/client-cache.ts';
export { releasingWhenConnectionGone } from './connection/connection-gone.ts';
export type { ConnectionGoneOptions } from './connection/connection-gone.ts';
export { byConnectionRef, CONNECTION_INDEX, connectionUsabilityChanged, watchConnectionDependents } from './connection/dependents.ts';
export { connectionClaimIndex } from './connection/claim-index.ts';
export type { ConnectionClaimIndex, ConnectionClaimIndexDeps } from './connection/claim-index.ts';
export { managedResourceDeps } from './connection/managed-deps.ts';
export type { ManagedKindParts, ManagedProcessParts, ManagedSystem } from './connection/managed-deps.ts';
export { dependentsBy, managedController, workersFor } from './connection/managed-controller.ts';
export { assertNotIgnored, ignoringPattern } from './connection/ignored-names.ts';
export type { ManagedControllerDeps, ManagedKind } from './connection/managed-controller.ts';
export type { ManagedConnections } from './connection/managed-connections.ts';
export { CONNECTED, ConnectionReconciler } from './connection/connection-reconciler.ts';
export type { ConnectionCheck, ConnectionHealth, ConnectionReconcilerDeps, ConnectionReconcilerOptions } from './connection/connection-reconciler.ts';
