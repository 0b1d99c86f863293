// The shared table of admission cases (issue #20): one list of objects and verdicts that both an operator's CEL
// policies (against the real apiserver) and its TypeScript checks must agree on.

/** The placeholder for the test namespace in a case's strings; replaced everywhere before use. */
export const CASE_NAMESPACE = '{ns}';

/** The placeholder for the name of the table's connection in a case's strings; replaced everywhere before use. */
export const CASE_CONNECTION = '{connection}';

/** One object and the verdict both layers must reach. `Spec` types the object's spec (plain JSON by default). */
export interface AdmissionCase<Spec extends object = Readonly<Record<string, unknown>>> {
  /** What the case shows, as a test title. */
  readonly title: string;
  /** Kind of the object (in the operator's API group and version). */
  readonly kind: string;
  /** `metadata.name` of the object. */
  readonly name: string;
  /**
   * The object's `spec`. With a connection, `connectionRef` names the table's connection unless the spec names
   * another (one that does not exist, say). Strings may hold {@link CASE_NAMESPACE} and {@link CASE_CONNECTION}.
   */
  readonly spec: Spec;
  /**
   * `undefined`: admitted. Otherwise a text the refusal message must contain, in the admission message and in the
   * operator's message alike (so write the part both phrase the same). May hold the placeholders.
   */
  readonly refused?: string;
}

/** A table: the namespace labels and connection tenancy its cases run under, and the cases. */
export interface AdmissionCaseTable<Case extends AdmissionCase<object> = AdmissionCase> {
  /** The connection's `spec.tenancy` (strings may hold {@link CASE_NAMESPACE}); absent: none. */
  readonly tenancy?: Readonly<Record<string, unknown>>;
  /** Labels of the test namespace. */
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  readonly cases: readonly Case[];
}

/** The names a run gives the placeholders. */
export interface CaseNames {
  readonly namespace: string;
  /** The table's connection; absent for object policies (then {@link CASE_CONNECTION} stays as it is). */
  readonly connection?: string;
}

/** A deep copy of `value` (plain JSON) with the placeholders replaced by `names` in every string and object key. Pure. */
export function fillCase<T>(value: T, names: CaseNames): T {
  const text = (t: string): string => {
    const withNamespace = t.replaceAll(CASE_NAMESPACE, names.namespace);
    return names.connection === undefined ? withNamespace : withNamespace.replaceAll(CASE_CONNECTION, names.connection);
  };
  const fill = (v: unknown): unknown => {
    if (typeof v === 'string') return text(v);
    if (Array.isArray(v)) return v.map(fill);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([key, inner]) => [text(key), fill(inner)]));
    return v;
  };
  return fill(value) as T;
}

/** The outcome of one case in one layer: admitted (`undefined`) or the refusal message. */
export type CaseVerdict = string | undefined;

/**
 * The disagreements between the expectation and a layer's verdicts (same order as `cases`), as readable lines; an
 * empty list means the layer decides every case as the table says. Pure.
 */
export function caseDisagreements(layer: string, cases: readonly AdmissionCase<object>[], verdicts: readonly CaseVerdict[], names: CaseNames): string[] {
  return cases.flatMap((c, i) => {
    const verdict = verdicts[i];
    const expected = c.refused === undefined ? undefined : fillCase(c.refused, names);
    if (expected === undefined && verdict !== undefined) return [`${layer}: "${c.title}" should be admitted, was refused: ${verdict}`];
    if (expected !== undefined && verdict === undefined) return [`${layer}: "${c.title}" should be refused (${expected}), was admitted`];
    if (expected !== undefined && verdict !== undefined && !verdict.includes(expected)) return [`${layer}: "${c.title}" refused with ${JSON.stringify(verdict)}, which lacks ${JSON.stringify(expected)}`];
    return [];
  });
}
