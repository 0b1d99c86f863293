/**
 * The condition and Event reasons every operator writes alike, declared once (crossplane's shape: one block of
 * constants). An operator writes these for the same failure or outcome, whatever its system calls it, and keeps only
 * its domain reasons (`KafkaUnavailable`, `MappingConflict`, `PrimaryUnavailable`, …) as its own constants. Reasons
 * about connections are {@link ConnectionReasons} (`connection/`). A test in each operator (`vocabulary.spec.ts`) fails
 * when its production code spells one of these as a string literal.
 *
 * Renamed in 0.2 (ADR 0020, addendum): the authorization failure was `Forbidden` in the OpenSearch operator and
 * `NoPermission` in the Redis operator; all three now write {@link Reasons.notAuthorized}.
 */
export const Reasons = {
  // Failures of the operator's login to its system (retryable: fix the Secret or the permissions).
  /** The system refused the operator's credentials (HTTP 401, SASL failure, `WRONGPASS`). Retried. */
  authenticationFailed: 'AuthenticationFailed',
  /** The operator's login lacks a permission (HTTP 403, a Kafka `*_AUTHORIZATION_FAILED`, Redis `NOPERM`). Retried. */
  notAuthorized: 'NotAuthorized',

  // The spec and what it names.
  /** The spec cannot be applied as written; waits for a change (a `TerminalError`). */
  invalidSpec: 'InvalidSpec',
  /** A Secret the resource names (or a key in it) does not exist. */
  secretNotFound: 'SecretNotFound',
  /** A Secret the operator would generate exists and is not its own; it is never overwritten. */
  secretConflict: 'SecretConflict',

  // Ownership of the external object (ADR 0007).
  /** The external object exists and this resource does not own it; not taken over without the adopt annotation. */
  alreadyExists: 'AlreadyExists',
  /** Another resource claims the same external name and wins; this one makes no external call. */
  resourceConflict: 'ResourceConflict',
  /** The spec now names another external object than the one this resource manages; refused. */
  externalNameChanged: 'ExternalNameChanged',

  // Outcomes of a reconcile, on `Synced` and `Ready`.
  /** `Synced=True`: the last reconcile applied the spec. */
  reconcileSuccess: 'ReconcileSuccess',
  /** A failure that carried no reason of its own. */
  reconcileError: 'ReconcileError',
  /** `Ready=True`: the external object exists and is usable. */
  available: 'Available',
  /** `Synced=False`: the paused annotation stops all external calls (or keeps a delete from cleaning up). */
  paused: 'Paused',
  /** `Synced=True` of an observe-only resource: the external object was read into status; nothing was written. */
  observed: 'Observed',
  /** `Ready=False` of an observe-only resource: its external object does not exist (it is never created). Retried. */
  externalNotFound: 'ExternalNotFound',
  /** The default reason of a `TerminalError` that was given none. */
  terminalError: 'TerminalError',

  // Events of the external-resource reconciler (Normal).
  /** The external object was created. */
  created: 'Created',
  /** An existing external object was adopted (annotation or exact match). */
  adopted: 'Adopted',
  /** The external object was changed to match a new spec. */
  updated: 'Updated',
  /** A change made outside the resource (or a deletion) was corrected at an unchanged generation. */
  driftCorrected: 'DriftCorrected',
  /** The external object was deleted (`deletionPolicy: Delete`). */
  deleted: 'Deleted',

  // Events of the finalizer (Warning).
  /** Cleanup on delete failed; the finalizer stays and the delete is retried. */
  cleanupFailed: 'CleanupFailed',
  /** The force-delete annotation released the finalizer without cleanup. */
  forceDeleted: 'ForceDeleted',
} as const;

/** One of {@link Reasons}. */
export type Reason = (typeof Reasons)[keyof typeof Reasons];
