/**
 * The Kafka operator's domain reasons: what only Kafka says. What every operator says alike (`AuthenticationFailed`,
 * `NotAuthorized`, `AlreadyExists`, `InvalidSpec`, `SecretNotFound`, …) is the runtime's `Reasons`; connections'
 * reasons are its `ConnectionReasons`. Declared once here and written by these names, never as literals.
 */
export const KafkaReasons = {
  // Retryable failures of the cluster.
  /** A broker is unreachable, or the connection was reset, closed or timed out. Retried. */
  unavailable: 'KafkaUnavailable',
  /** Kafka answered an error that may pass, or anything the classifier does not know. Retried. */
  error: 'KafkaError',

  // A KafkaConnection that works, with something its admin must know.
  /**
   * The cluster behind the connection's bootstrap servers has another cluster id than the last check saw (rebuilt,
   * restored from a backup, or the connection now points at another cluster): `Ready=True` with this reason until
   * the next check, and a Warning Event naming the old and the new id. Topics and users are woken and recreated.
   */
  clusterReplaced: 'ClusterReplaced',

  // A KafkaConnection that cannot work as written.
  
  /** A KafkaConnection's tenancy prefix template is invalid, seen by a dependent. */
  invalidConnection: 'InvalidConnection',

  // Topics the plan refuses (TerminalError).
  /** The spec asks for fewer partitions than the topic has. */
  partitionDecreaseNotSupported: 'PartitionDecreaseNotSupported',
  /** The replication factor exceeds the broker count (rechecked: a broker may join). */
  invalidReplicationFactor: 'InvalidReplicationFactor',

  // Kafka's error codes for input that keeps failing until the spec changes (TerminalError).
  invalidConfig: 'InvalidConfig',
  policyViolation: 'PolicyViolation',
  invalidPartitions: 'InvalidPartitions',
  invalidTopic: 'InvalidTopic',
  invalidReplicaAssignment: 'InvalidReplicaAssignment',
  unacceptableCredential: 'UnacceptableCredential',
  invalidPrincipal: 'InvalidPrincipal',
  unsupportedSaslMechanism: 'UnsupportedSaslMechanism',
} as const;
