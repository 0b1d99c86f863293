/**
 * The OpenSearch operator's domain reasons: what only OpenSearch says. What every operator says alike
 * (`AuthenticationFailed`, `NotAuthorized`, `AlreadyExists`, `InvalidSpec`, `SecretNotFound`, …) is the runtime's
 * `Reasons`; connections' reasons are its `ConnectionReasons`. Declared once here and written by these names, never
 * as literals.
 */
export const OpenSearchReasons = {
  // Retryable failures of the cluster.
  /** No answer (refused, reset, timeout, no living node), 429, 5xx, a busy master, or health red. Retried. */
  unavailable: 'OpenSearchUnavailable',
  /** Any other failure of a call. Retried. */
  error: 'OpenSearchError',
  /** 404 from a call that expected the object. Retried. */
  notFound: 'NotFound',
  /** A 400 about another object that time fixes (a component template not there yet, or still in use). Retried. */
  dependencyNotReady: 'DependencyNotReady',

  // What a resource names that is missing.
  /** The OpenSearchRole a role binding names is not cached. Retried. */
  roleNotFound: 'RoleNotFound',

  // Index changes OpenSearch cannot make in place (TerminalError).
  /** The number of shards is fixed once an index exists. */
  shardCountImmutable: 'ShardCountImmutable',
  /** A static setting cannot change on an existing index. */
  settingImmutable: 'SettingImmutable',
  /** A mapping change conflicts with the existing mapping. */
  mappingConflict: 'MappingConflict',

  // Snapshot repositories (retried: a plugin, path.repo or the storage can change without the spec).
  /** OpenSearch refused to register the repository: an unknown type, an fs location outside path.repo, unusable settings. Retried. */
  repositoryRefused: 'RepositoryRefused',
  /** The repository is registered but its verification failed on some node (the storage is unreachable or not shared). Retried. */
  repositoryVerificationFailed: 'RepositoryVerificationFailed',

  // Snapshot restores (OpenSearchSnapshotRestore).
  /** A restored index would take the name of an existing index (or alias); refused, nothing changed. Terminal. */
  indexExists: 'IndexExists',
  /** An index the restore names is not in the snapshot, or its patterns select none. Terminal. */
  indexNotInSnapshot: 'IndexNotInSnapshot',
  /** The snapshot (or, for latestOf, a successful snapshot of the policy) is not in the repository. Rechecked. */
  snapshotNotFound: 'SnapshotNotFound',
  /** The snapshot is still being taken. Rechecked. */
  snapshotInProgress: 'SnapshotInProgress',
  /** The snapshot ended FAILED, PARTIAL or INCOMPATIBLE and is not restored. Terminal. */
  snapshotNotRestorable: 'SnapshotNotRestorable',
  /** The OpenSearchSnapshotRepository a restore names is not cached. Retried. */
  snapshotRepositoryNotFound: 'SnapshotRepositoryNotFound',
  /** Event: the restore was started in OpenSearch. */
  restoreStarted: 'RestoreStarted',
  /** `Ready=False` while the restored shards recover. */
  restoreInProgress: 'RestoreInProgress',
  /** `Ready=True` and Event: every restored shard is recovered. */
  restoreSucceeded: 'RestoreSucceeded',
  /** OpenSearch refused or failed the restore (or a restored index vanished while it ran). Terminal. */
  restoreFailed: 'RestoreFailed',

  // Snapshot policies (OpenSearchSnapshotPolicy).
  /** `Ready=True`: the policy is valid, it takes its scheduled snapshots, and its newest finished snapshot (if any) succeeded. */
  scheduled: 'Scheduled',
  /** `Ready=True` of a suspended policy: no scheduled snapshots; snapshot-now and retention still run. */
  suspended: 'Suspended',
  /** `Ready=False`: the policy's newest snapshot ended FAILED, PARTIAL or INCOMPATIBLE, or OpenSearch refused to start it; the message is OpenSearch's reason. */
  lastSnapshotFailed: 'LastSnapshotFailed',
  /** Event: a snapshot was started (for a schedule slot, a snapshot-now token, or both). */
  snapshotStarted: 'SnapshotStarted',
  /** Event: a snapshot ended SUCCESS. */
  snapshotTaken: 'SnapshotTaken',
  /** Event (Warning): a snapshot ended FAILED, PARTIAL or INCOMPATIBLE, or OpenSearch refused to start it. */
  snapshotFailed: 'SnapshotFailed',
  /** Event: retention deleted one of the policy's own snapshots. */
  snapshotDeleted: 'SnapshotDeleted',
} as const;
