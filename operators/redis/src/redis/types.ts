/**
 * Domain types of the Redis operator's custom resources, as plain interfaces. The TypeBox schemas of
 * `src/api/v1alpha1/` will produce these same shapes; until then these are the contract the adapter layer is
 * written against. Defaults named here are applied by the schemas, not by readers of these types.
 */
import { READY_CONDITION } from '@domain-operators/reconcile';

/** A key of a Secret in the same namespace. */
export interface SecretKeyRef {
  readonly name: string;
  /** Key inside the Secret; default `password`. */
  readonly key?: string;
}

/** Compute resources of the Redis container, in Kubernetes quantity strings (`cpu: 100m`, `memory: 256Mi`). */
export interface ResourceRequirements {
  readonly requests?: Readonly<Record<string, string>>;
  readonly limits?: Readonly<Record<string, string>>;
}

/** A persistent volume claim template for each member's `/data`. Without one, members use an emptyDir. */
export interface RedisStorage {
  /** Requested size, a Kubernetes quantity, e.g. `1Gi`. */
  readonly size: string;
  readonly storageClassName?: string;
  /** Default `[ReadWriteOnce]`. */
  readonly accessModes?: readonly string[];
}

/** A Pod toleration, as in `core/v1`. */
export interface Toleration {
  readonly key?: string;
  readonly operator?: 'Exists' | 'Equal';
  readonly value?: string;
  readonly effect?: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  readonly tolerationSeconds?: number;
}

/** Overrides merged into the members' Pod template. `affinity` is passed through as written (a `core/v1` Affinity). */
export interface RedisPodTemplate {
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly nodeSelector?: Readonly<Record<string, string>>;
  readonly tolerations?: readonly Toleration[];
  readonly affinity?: Readonly<Record<string, unknown>>;
}

/** Client authentication of a RedisReplication. */
export interface RedisAuth {
  /** The password of the `default` user; without it one is generated into a Secret. */
  readonly secretRef?: SecretKeyRef;
}

/** Automatic failover settings. */
export interface RedisFailoverSpec {
  /** Default `true`. When `false` the operator only reports an unavailable primary. */
  readonly enabled?: boolean;
  /** How long the primary must be unreachable before a replica is promoted. Default 5000. */
  readonly downAfterMilliseconds?: number;
}

/** `RedisReplication.spec`: one primary and `replicas - 1` replicas. */
export interface RedisReplicationSpec {
  /** Total members (1 primary + N−1 replicas), at least 1. */
  readonly replicas: number;
  readonly image: string;
  readonly resources?: ResourceRequirements;
  readonly storage?: RedisStorage;
  /** redis.conf parameters; dynamic ones are applied live with CONFIG SET, static ones by a rolling restart. */
  readonly config?: Readonly<Record<string, string>>;
  readonly auth?: RedisAuth;
  readonly failover?: RedisFailoverSpec;
  readonly podTemplate?: RedisPodTemplate;
}

/** A member's role as Redis reports it; `unknown` while the member cannot be asked. */
export type MemberRole = 'primary' | 'replica' | 'unknown';

/** One member in `RedisReplication.status.members`. */
export interface RedisMemberStatus {
  /** Pod name, e.g. `cache-1`. */
  readonly pod: string;
  readonly role: MemberRole;
  /** Replica: its link to the current primary is up. Primary: it answers. */
  readonly linkUp: boolean;
  /** Replica: bytes it is behind the primary's replication offset, when both are known. */
  readonly lagBytes?: number;
}

/** A status condition, the shape of `metav1.Condition`. */
export interface RedisCondition {
  readonly type: string;
  readonly status: 'True' | 'False' | 'Unknown';
  readonly reason: string;
  readonly message: string;
  readonly lastTransitionTime: string;
  readonly observedGeneration?: number;
}

/** `RedisReplication.status`. */
export interface RedisReplicationStatus {
  /** `Ready`, `Degraded`, `FailoverInProgress` (see {@link CONDITION_TYPES}). */
  readonly conditions?: readonly RedisCondition[];
  readonly observedGeneration?: number;
  /** Pod name of the current primary. */
  readonly primary?: string;
  readonly members?: readonly RedisMemberStatus[];
  /** Members serving correctly: the primary when it answers plus replicas linked to it. */
  readonly readyReplicas?: number;
  /** RFC 3339 time of the last promotion. */
  readonly lastFailoverTime?: string;
}

/** `RedisUser.spec`: one ACL user applied on every member of a RedisReplication. */
export interface RedisUserSpec {
  readonly replicationRef: { readonly name: string };
  /** The ACL user name; immutable. */
  readonly username: string;
  /** Without it a password is generated into the Secret `<name>-redis-credentials`. */
  readonly passwordSecretRef?: SecretKeyRef;
  /** ACL rules, e.g. `['+@read', '-flushall', '~app:*', '&chan']`; passwords are not allowed here. */
  readonly rules: readonly string[];
}

/** The condition types of a RedisReplication. */
export const CONDITION_TYPES = {
  ready: READY_CONDITION,
  degraded: 'Degraded',
  failoverInProgress: 'FailoverInProgress',
} as const;

/** The pod label that the primary Service selects on (`primary` or `replica`). */
export const ROLE_LABEL = 'redis.domain-operators.io/role';

/** Values of {@link ROLE_LABEL}. */
export type RoleLabel = 'primary' | 'replica';
