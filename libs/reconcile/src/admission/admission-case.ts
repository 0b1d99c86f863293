// The shared table of admission cases (issue #20): one list of objects and verdicts that both an operator's CEL
// policies (against the real apiserver) and its TypeScript checks must agree on.

/** The placeholder for the test namespace in a case's strings; replaced everywhere before use. */
export const CASE_NAMESPACE = '{ns}';

/** One object and the verdict both layers must reach. */
export interface AdmissionCase {
  /** What the case shows, as a test title. */
  readonly title: string;
  /** Kind of the object (in the operator's API group and version). */
  readonly kind: string;
  /** `metadata.name` of the object. */
  readonly name: string;
  /** The object's `spec` without `connectionRef` (the runner sets it). Strings may hold {@link CASE_NAMESPACE}. */
  readonly spec: Readonly<Record<string, unknown>>;
  /**
   * `undefined`: admitted. Otherwise a text the refusal message must contain, in the admission message and in the
   * operator's `TenancyViolation` message alike (so write the part both phrase the same). May hold {@link CASE_NAMESPACE}.
   */
  readonly refused?: string;
}

/** A table: the connection's tenancy and namespace labels the cases run under, and the cases. */
export interface AdmissionCaseTable {
  /** The connection's `spec.tenancy` (strings may hold {@link CASE_NAMESPACE}). */
  readonly tenancy: Readonly<Record<string, unknown>>;
  /** Labels of the test namespace. */
  readonly namespaceLabels?: Readonly<Record<string, string>>;
  readonly cases: readonly AdmissionCase[];
}

/** A deep copy of `value` with {@link CASE_NAMESPACE} replaced by `namespace` in every string. Pure. */
export function withNamespace<T>(value: T, namespace: string): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? v.replaceAll(CASE_NAMESPACE, namespace) : v))) as T;
}

/** The outcome of one case in one layer: admitted (`undefined`) or the refusal message. */
export type CaseVerdict = string | undefined;

/**
 * The disagreements between the expectation and a layer's verdicts (same order as `cases`), as readable lines; an
 * empty list means the layer decides every case as the table says. Pure.
 */
export function caseDisagreements(layer: string, cases: readonly AdmissionCase[], verdicts: readonly CaseVerdict[], namespace: string): string[] {
  return cases.flatMap((c, i) => {
    const verdict = verdicts[i];
    const expected = c.refused === undefined ? undefined : withNamespace(c.refused, namespace);
    if (expected === undefined && verdict !== undefined) return [`${layer}: "${c.title}" should be admitted, was refused: ${verdict}`];
    if (expected !== undefined && verdict === undefined) return [`${layer}: "${c.title}" should be refused (${expected}), was admitted`];
    if (expected !== undefined && verdict !== undefined && !verdict.includes(expected)) return [`${layer}: "${c.title}" refused with ${JSON.stringify(verdict)}, which lacks ${JSON.stringify(expected)}`];
    return [];
  });
}
