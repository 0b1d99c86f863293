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
  /** The OpenSearchConnection's credentials Secret (or a key in it) is missing. */
  credentialsNotFound: 'CredentialsNotFound',
  /** The OpenSearchRole a role binding names is not cached. Retried. */
  roleNotFound: 'RoleNotFound',

  // Index changes OpenSearch cannot make in place (TerminalError).
  /** The number of shards is fixed once an index exists. */
  shardCountImmutable: 'ShardCountImmutable',
  /** A static setting cannot change on an existing index. */
  settingImmutable: 'SettingImmutable',
  /** A mapping change conflicts with the existing mapping. */
  mappingConflict: 'MappingConflict',
} as const;
