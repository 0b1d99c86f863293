/** A Kubernetes label selector (`metav1.LabelSelector`): `matchLabels` and `matchExpressions`, ANDed. */
export interface LabelSelector {
  readonly matchLabels?: Readonly<Record<string, string>>;
  readonly matchExpressions?: readonly {
    readonly key: string;
    readonly operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
    readonly values?: readonly string[];
  }[];
}

/**
 * Whether `labels` satisfy a Kubernetes label selector: every `matchLabels` pair and every `matchExpressions`
 * requirement (ANDed). An absent selector matches everything; an empty one too, as in Kubernetes. Pure.
 */
export function matchesSelector(selector: LabelSelector | undefined, labels: Readonly<Record<string, string>> | undefined): boolean {
  if (selector === undefined) return true;
  const have = labels ?? {};
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (have[key] !== value) return false;
  for (const requirement of selector.matchExpressions ?? []) {
    const value = have[requirement.key];
    const values = requirement.values ?? [];
    switch (requirement.operator) {
      case 'In':
        if (value === undefined || !values.includes(value)) return false;
        break;
      case 'NotIn':
        if (value !== undefined && values.includes(value)) return false;
        break;
      case 'Exists':
        if (value === undefined) return false;
        break;
      case 'DoesNotExist':
        if (value !== undefined) return false;
        break;
    }
  }
  return true;
}
