/**
 * Schema parts shared by the kinds of `opensearch.domain-operators.io/v1alpha1`: references, settings, aliases,
 * template bodies and the status every managed kind carries. Each part has a description, so `kubectl explain`
 * shows one on every field.
 */
import { conditionColumn, ConditionSchema, externalResourceStatusFields, immutable, READY_CONDITION, SYNCED_CONDITION } from '@domain-operators/reconcile';
import type { ValidationRule } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static, TUnsafe } from '@sinclair/typebox';
import { API_GROUP } from '../../config.ts';
import type { JsonObject } from '../../opensearch/json.ts';

/** The API group and version every kind of this operator is served at. */
export const GROUP = API_GROUP;
/** The one served and stored version. */
export const VERSION = 'v1alpha1';
/** The `kubectl get opensearch` category of every kind. */
export const CATEGORIES: readonly string[] = ['opensearch'];

/** A free-form JSON object (mappings, filters, `_meta`), kept as it is by the apiserver. */
export function jsonObject(description: string): TUnsafe<JsonObject> {
  return Type.Unsafe<JsonObject>(Type.Record(Type.String(), Type.Unknown(), { description }));
}

/**
 * The CEL rule on a spec that makes an optional name field immutable: it may not be added, removed or changed after
 * creation (a field-level `self == oldSelf` rule would still let it be added or removed).
 */
export function immutableOptional(field: string): ValidationRule {
  return {
    rule: `has(self.${field}) == has(oldSelf.${field}) && (!has(self.${field}) || self.${field} == oldSelf.${field})`,
    message: `${field} is immutable`,
    fieldPath: `.${field}`,
  };
}

/** One requirement of a label selector (`matchExpressions[]`). */
export const LabelSelectorRequirement = Type.Object(
  {
    key: Type.String({ description: 'The label key.', minLength: 1 }),
    operator: Type.Union([Type.Literal('In'), Type.Literal('NotIn'), Type.Literal('Exists'), Type.Literal('DoesNotExist')], {
      description: 'How the key relates to the values.',
    }),
    values: Type.Optional(Type.Array(Type.String(), { description: 'Values for In and NotIn; empty for Exists and DoesNotExist.' })),
  },
  { description: 'A label selector requirement.' },
);

/**
 * A label selector over namespaces (`matchLabels` and `matchExpressions`, as Kubernetes' LabelSelector), with the
 * given description saying what the selected namespaces may do and what an absent selector means.
 */
export function namespaceSelector(description: string) {
  return Type.Object(
    {
      matchLabels: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Labels a namespace must carry.' })),
      matchExpressions: Type.Optional(Type.Array(LabelSelectorRequirement, { description: 'Requirements a namespace must meet.' })),
    },
    { description },
  );
}

/** `spec.connectionRef`: the cluster-scoped `OpenSearchConnection` to use; immutable. */
export const ConnectionRef = Type.Object(
  { name: Type.String({ description: 'The name of the OpenSearchConnection (cluster-scoped).', minLength: 1, maxLength: 253 }) },
  { description: 'The OpenSearchConnection this resource uses. Immutable.', 'x-kubernetes-validations': [immutable('connectionRef is immutable')] },
);

/** The settings of an index besides its shard count, shared by indices and templates. */
const OTHER_SETTINGS = {
  numberOfReplicas: Type.Optional(Type.Integer({ description: 'index.number_of_replicas: replicas of each primary shard.', minimum: 0, maximum: 100 })),
  refreshInterval: Type.Optional(
    Type.String({ description: 'index.refresh_interval, e.g. "1s", "30s", or "-1" to disable refreshes.', pattern: '^(-1|[0-9]+(ms|s|m|h|d|nanos|micros))$' }),
  ),
  index: Type.Optional(
    Type.Unsafe<JsonObject>(
      Type.Record(Type.String(), Type.Unknown(), {
        description:
          'Any other index setting, keyed with or without the "index." prefix, flat ("blocks.write") or nested. Only the settings named here are managed.',
      }),
    ),
  ),
};

const SHARD_LIMITS = { minimum: 1, maximum: 1024 } as const;

/**
 * `settings` of an `OpenSearchIndex`. `numberOfShards` is fixed once the index exists, so the API server refuses a
 * change of it (the operator also refuses a value that differs from the index's, `ShardCountImmutable`).
 */
export const IndexSettings = Type.Object(
  {
    numberOfShards: Type.Optional(
      Type.Integer({
        description: 'index.number_of_shards: the number of primary shards. Fixed once the index exists.',
        ...SHARD_LIMITS,
        'x-kubernetes-validations': [immutable('numberOfShards is fixed once the index exists')],
      }),
    ),
    ...OTHER_SETTINGS,
  },
  { description: 'Index settings. Only the settings named here are compared and updated.' },
);

/**
 * `settings` of a template's `template` (index and component templates): the same fields as {@link IndexSettings},
 * but `numberOfShards` may change, since a template only shapes indices created after the change.
 */
export const TemplateSettings = Type.Object(
  {
    numberOfShards: Type.Optional(
      Type.Integer({
        description: 'index.number_of_shards of the indices created from this template. May change: indices created afterwards get the new count, existing ones keep theirs.',
        ...SHARD_LIMITS,
      }),
    ),
    ...OTHER_SETTINGS,
  },
  { description: 'Index settings given to matching indices when they are created.' },
);

/** One alias of an index or template. */
export const AliasSpec = Type.Object(
  {
    filter: Type.Optional(jsonObject('A query that limits the documents the alias sees.')),
    routing: Type.Optional(Type.String({ description: 'Routing value for both indexing and search through the alias.', minLength: 1 })),
    isWriteIndex: Type.Optional(Type.Boolean({ description: 'Whether this index is the write index of the alias.' })),
  },
  { description: 'An alias definition.' },
);

/** The `template` part of an index or component template. */
export const TemplateContent = Type.Object(
  {
    settings: Type.Optional(TemplateSettings),
    mappings: Type.Optional(jsonObject('Mappings given to matching indices, as OpenSearch takes them (properties, dynamic, _meta, …).')),
    aliases: Type.Optional(Type.Record(Type.String(), AliasSpec, { description: 'Aliases given to matching indices; "{index}" in a name is the index name.' })),
  },
  { description: 'What an index created from this template gets: settings, mappings and aliases.' },
);

/** `status.conditions[]`: the runtime's one condition schema. */
export { ConditionSchema };

/** The status fields every kind managed through `ExternalResourceReconciler` carries. */
export const managedStatusFields = externalResourceStatusFields({
  conditions: 'Ready (the object exists in OpenSearch as specified) and Synced (the last reconcile succeeded), with reasons.',
  externalName: 'The object this resource manages: <connection>/<name in OpenSearch>.',
});

/** The `Ready` printer column. */
export const READY_COLUMN = conditionColumn(READY_CONDITION);
/** The `Reason` printer column (wide output). */
export const REASON_COLUMN = conditionColumn(SYNCED_CONDITION, 'reason', { priority: 1 });

/** The settings of an `OpenSearchIndex`, as the apiserver stores them. */
export type IndexSettings = Static<typeof IndexSettings>;
/** The settings a template's `template` gives matching indices. */
export type TemplateSettings = Static<typeof TemplateSettings>;
/** One alias of an index or template. */
export type AliasSpec = Static<typeof AliasSpec>;
/** The `template` part of an index or component template: settings, mappings and aliases. */
export type TemplateContent = Static<typeof TemplateContent>;
