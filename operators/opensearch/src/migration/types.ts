/**
 * The shapes the Opster migration works with: one of their `opensearch.opster.io/v1` objects in, our
 * `opensearch.domain-operators.io/v1alpha1` objects and the findings out. Plain data, ready for YAML.
 */

/** The API groups of the objects the converter reads: opensearch-k8s-operator's old group and its renamed one. */
export const OPSTER_API_VERSIONS: readonly string[] = ['opensearch.opster.io/v1', 'opensearch.org/v1'];

/** One of their objects as parsed from YAML or JSON: nothing about it is trusted yet. */
export interface OpsterObject {
  readonly apiVersion?: unknown;
  readonly kind?: unknown;
  readonly metadata?: unknown;
  readonly spec?: unknown;
}

/** What the conversion needs to know besides the object. */
export interface ConvertOptions {
  /** The name of our (cluster-scoped) OpenSearchConnection; every `spec.opensearchCluster.name` maps to it. */
  readonly connection: string;
  /**
   * The connection's `tenancy.indexPrefix`, when it has one (`{namespace}` is replaced): names and patterns outside
   * it are reported, since our admission would refuse them. Absent or empty: no name rule is checked.
   */
  readonly indexPrefix?: string;
}

/** One of our objects, as YAML-ready plain data. */
export interface ConvertedObject {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly namespace: string; readonly annotations: Readonly<Record<string, string>> };
  readonly spec: Readonly<Record<string, unknown>>;
}

/** A finding about one source object, named `Kind namespace/name`. */
export interface Finding {
  /** `Kind namespace/name` of their object. */
  readonly source: string;
  readonly message: string;
}

/** The result for one or more source objects. */
export interface Conversion {
  /** Our objects, in the order their sources came. */
  readonly objects: readonly ConvertedObject[];
  /** What the user must know or do: fields we do not carry, names to allow on the connection, manual steps. */
  readonly warnings: readonly Finding[];
  /** Objects that could not be converted at all (nothing was output for them). */
  readonly errors: readonly Finding[];
}
