/**
 * The domain types of the OpenSearch operator's custom resources (issue #7), as plain interfaces. The TypeBox
 * schemas in `src/api/v1alpha1/` will produce the same shapes; the adapter layer depends only on these.
 */
import type { LabelSelector } from '@domain-operators/reconcile';
import type { JsonObject } from './json.ts';

/** What happens in OpenSearch when the Kubernetes object is deleted. */
export type DeletionPolicy = 'Retain' | 'Delete';

/** A reference to the cluster-scoped `OpenSearchConnection` a namespaced resource uses. */
export interface ConnectionRef {
  readonly name: string;
}

/** A key of a Secret in a given namespace. */
export interface SecretKeyRef {
  readonly namespace?: string;
  readonly name: string;
  readonly key?: string;
}

/** A Kubernetes label selector: the runtime's, shared by every operator's connection tenancy. */
export type { LabelSelector };

// ---------------------------------------------------------------------------------------------------------------
// OpenSearchConnection

/** The tenancy rule of a connection: which namespaces may use it and what their names must start with. */
export interface TenancySpec {
  /** Namespaces allowed to use the connection; absent means every namespace. */
  readonly namespaceSelector?: LabelSelector;
  /**
   * Prefix template for every name created on behalf of a namespace and every index pattern granted; `{namespace}`
   * is replaced by the namespace, e.g. `"{namespace}-"`. Absent or empty: no name rule (trusted namespaces only).
   */
  readonly indexPrefix?: string;
  /** Existing OpenSearch roles that an `OpenSearchRoleBinding` may name in `externalRole`. */
  readonly bindableRoles?: readonly string[];
}

/** `OpenSearchConnection.spec` (cluster-scoped). */
export interface OpenSearchConnectionSpec {
  readonly urls: readonly string[];
  readonly credentialsSecretRef: {
    readonly namespace: string;
    readonly name: string;
    readonly usernameKey?: string;
    readonly passwordKey?: string;
  };
  readonly tls?: { readonly caSecretRef?: SecretKeyRef; readonly insecureSkipVerify?: boolean };
  readonly tenancy?: TenancySpec;
}

// ---------------------------------------------------------------------------------------------------------------
// OpenSearchIndex

/** Scalar value of an index setting; OpenSearch stores and returns it as a string. */
export type SettingValue = string | number | boolean;

/**
 * Index settings. `numberOfShards` is fixed once the index exists. `index` holds any other setting, keyed with or
 * without the `index.` prefix, flat (`"blocks.write"`) or nested (`{ blocks: { write: true } }`).
 */
export interface IndexSettings {
  readonly numberOfShards?: number;
  readonly numberOfReplicas?: number;
  /** e.g. `"1s"`, `"30s"`, `"-1"`. */
  readonly refreshInterval?: string;
  readonly index?: JsonObject;
}

/** One alias of an index. `routing` sets both index and search routing. */
export interface AliasSpec {
  readonly filter?: JsonObject;
  readonly routing?: string;
  readonly isWriteIndex?: boolean;
}

/** `OpenSearchIndex.spec` (namespaced). */
export interface OpenSearchIndexSpec {
  readonly connectionRef: ConnectionRef;
  /** Defaults to prefix + `metadata.name`; immutable. */
  readonly indexName?: string;
  readonly settings?: IndexSettings;
  /** The index mappings as OpenSearch takes them (`properties`, `dynamic`, `_meta`, …). */
  readonly mappings?: JsonObject;
  readonly aliases?: Readonly<Record<string, AliasSpec>>;
  /** Default `Retain`. */
  readonly deletionPolicy?: DeletionPolicy;
}

/** `OpenSearchIndex.status` fields the adapter layer fills. */
export interface OpenSearchIndexStatusFields {
  readonly uuid?: string;
  readonly health?: string;
  /** Aliases this resource added; only these are ever removed by it. */
  readonly aliases?: readonly string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Templates

/** The `template` part of an index or component template. Settings use the same shape as {@link IndexSettings}. */
export interface TemplateContent {
  readonly settings?: IndexSettings;
  readonly mappings?: JsonObject;
  readonly aliases?: Readonly<Record<string, AliasSpec>>;
}

/** A composable index template body (`_index_template`). */
export interface IndexTemplateBody {
  readonly indexPatterns: readonly string[];
  /** Present: matching names are data streams (`timestampField` default `@timestamp`). */
  readonly dataStream?: { readonly timestampField?: string };
  readonly template?: TemplateContent;
  readonly composedOf?: readonly string[];
  readonly priority?: number;
  readonly version?: number;
  readonly _meta?: JsonObject;
}

/** `OpenSearchIndexTemplate.spec`. */
export interface OpenSearchIndexTemplateSpec extends IndexTemplateBody {
  readonly connectionRef: ConnectionRef;
  /** Defaults to prefix + `metadata.name`; immutable. */
  readonly templateName?: string;
  /** Default `Delete`. */
  readonly deletionPolicy?: DeletionPolicy;
}

/** A component template body (`_component_template`). */
export interface ComponentTemplateBody {
  readonly template: TemplateContent;
  readonly version?: number;
  readonly _meta?: JsonObject;
}

/** `OpenSearchComponentTemplate.spec`. */
export interface OpenSearchComponentTemplateSpec extends ComponentTemplateBody {
  readonly connectionRef: ConnectionRef;
  /** Defaults to prefix + `metadata.name`; immutable. */
  readonly templateName?: string;
  /** Default `Delete`. */
  readonly deletionPolicy?: DeletionPolicy;
}

// ---------------------------------------------------------------------------------------------------------------
// Security

/** Permissions on indices matching `indexPatterns`. */
export interface IndexPermission {
  readonly indexPatterns: readonly string[];
  readonly allowedActions: readonly string[];
  /** Document-level security query (a JSON query as a string). */
  readonly dls?: string;
  /** Field-level security: fields included, or excluded with a leading `~`. */
  readonly fls?: readonly string[];
  readonly maskedFields?: readonly string[];
}

/** Permissions on OpenSearch Dashboards tenants. */
export interface TenantPermission {
  readonly tenantPatterns: readonly string[];
  /** `kibana_all_read` or `kibana_all_write` (the schema admits nothing else). */
  readonly allowedActions: readonly string[];
}

/** `OpenSearchRole.spec`. */
export interface OpenSearchRoleSpec {
  readonly connectionRef: ConnectionRef;
  /** Defaults to prefix + `metadata.name`; immutable. */
  readonly roleName?: string;
  readonly clusterPermissions?: readonly string[];
  readonly indexPermissions?: readonly IndexPermission[];
  readonly tenantPermissions?: readonly TenantPermission[];
}

/** `OpenSearchRoleBinding.spec`: exactly one of `roleRef` and `externalRole`. */
export interface OpenSearchRoleBindingSpec {
  readonly connectionRef: ConnectionRef;
  /** An `OpenSearchRole` in the same namespace. */
  readonly roleRef?: { readonly name: string };
  /** An existing OpenSearch role listed in the connection's `tenancy.bindableRoles`. */
  readonly externalRole?: string;
  readonly users?: readonly string[];
  readonly backendRoles?: readonly string[];
}

/** `OpenSearchRoleBinding.status` fields: the role-mapping entries this binding added (and may remove). */
export interface RoleBindingApplied {
  readonly roleName: string;
  readonly users: readonly string[];
  readonly backendRoles: readonly string[];
}

/** `OpenSearchUser.spec`. */
export interface OpenSearchUserSpec {
  readonly connectionRef: ConnectionRef;
  /** Defaults to prefix + `metadata.name`; immutable. */
  readonly username?: string;
  /** Absent: a generated Secret `<name>-opensearch-credentials`. */
  readonly passwordSecretRef?: { readonly name: string; readonly key?: string };
  readonly backendRoles?: readonly string[];
  readonly attributes?: Readonly<Record<string, string>>;
}

/** `OpenSearchUser.status` fields: what password was applied, as a salted fingerprint (never the password). */
export interface PasswordApplied {
  /** Random per user, base64url; a new salt forces the password to be applied again. */
  readonly salt: string;
  /** `HMAC-SHA256(salt, password)`, see `passwordFingerprint`. */
  readonly fingerprint: string;
}
