/**
 * The condition and Event reasons about connections, the same in every operator. A dependent is a resource that
 * names a `*Connection` (a KafkaTopic, an OpenSearchIndex); the connection is a cluster-scoped object the platform
 * admin owns.
 */
export const ConnectionReasons = {
  /** The connection's check passed (`Ready=True` on the connection, and its Normal Event). */
  connected: 'Connected',
  /** The dependent's connection does not exist. Retried: it may appear, and its creation wakes the dependent. */
  notFound: 'ConnectionNotFound',
  /** A dependent was released on deletion without calling its system, because its connection no longer exists (Warning Event). */
  gone: 'ConnectionGone',
  /** The connection has a namespace selector and the dependent's namespace is not in the cache yet. Retried. */
  namespaceNotFound: 'NamespaceNotFound',
  /**
   * The connection's tenancy does not admit the dependent: its namespace is not selected by `tenancy.namespaceSelector`
   * (and, in each operator, a name outside the namespace's prefix). Waits for a change of the dependent, its
   * connection or its namespace's labels.
   */
  tenancyViolation: 'TenancyViolation',
  /**
   * The dependent's name matches the connection's `spec.ignoredNames`: another tool manages that object, and nothing
   * is created, changed or deleted. Waits for a change of the dependent or its connection.
   */
  ignoredName: 'IgnoredName',
} as const;

/** One of {@link ConnectionReasons}. */
export type ConnectionReason = (typeof ConnectionReasons)[keyof typeof ConnectionReasons];
