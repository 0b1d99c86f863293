// An operator chart's admission policies installed by an e2e suite, as helm renders them with the suite's values, but
// bound only to the suite's namespaces (the cluster is shared: other suites' objects must not be judged by them).
import { admissionTypes, isNotFound } from '@domain-operators/reconcile';
import type { Client, ValidatingAdmissionPolicy, ValidatingAdmissionPolicyBinding, ValidationActions } from '@domain-operators/reconcile';
import { helmTemplate } from './helm.ts';
import { parseManifests } from './manifests.ts';
import type { OperatorSystem } from './system.ts';
import { operatorLayout } from './system.ts';

/** What {@link installChartAdmission} needs. */
export interface ChartAdmissionOptions {
  readonly client: Client;
  readonly system: OperatorSystem;
  /** The release name the chart is rendered with (the policies are named `<release>-<system>-operator-<policy>`). */
  readonly release: string;
  /** `admissionPolicies.validationActions`; absent: the chart's default. */
  readonly validationActions?: ValidationActions;
  /** The labels of the namespaces the bindings judge (`matchResources.namespaceSelector`). */
  readonly namespaceLabels: Readonly<Record<string, string>>;
}

/** The installed policies and bindings. */
export interface ChartAdmission {
  /** The names of the policies, each also its binding's name. */
  readonly names: readonly string[];
  /** The bindings as installed (with the chart's rendered `validationActions`). */
  readonly bindings: readonly ValidatingAdmissionPolicyBinding[];
  /** Renders the chart again with `admissionPolicies.validationActions: actions` and updates the bindings to it. */
  setValidationActions(actions: ValidationActions): Promise<void>;
  /** Deletes the bindings and the policies; those already gone are skipped. */
  remove(): Promise<void>;
}

async function render(options: ChartAdmissionOptions, actions: ValidationActions | undefined): Promise<{ policies: ValidatingAdmissionPolicy[]; bindings: ValidatingAdmissionPolicyBinding[] }> {
  const values = actions === undefined ? {} : { admissionPolicies: { enabled: true, validationActions: [...actions] } };
  const objects = parseManifests(await helmTemplate({ chartDir: operatorLayout(options.system).chartDir, releaseName: options.release, namespace: `${options.system}-operator-system`, setJson: values }));
  const confine = (binding: ValidatingAdmissionPolicyBinding): ValidatingAdmissionPolicyBinding => ({
    ...binding,
    spec: { ...binding.spec, matchResources: { namespaceSelector: { matchLabels: { ...options.namespaceLabels } } } },
  });
  return {
    policies: objects.filter((o) => o.kind === 'ValidatingAdmissionPolicy') as unknown as ValidatingAdmissionPolicy[],
    bindings: (objects.filter((o) => o.kind === 'ValidatingAdmissionPolicyBinding') as unknown as ValidatingAdmissionPolicyBinding[]).map(confine),
  };
}

/**
 * Renders the operator's chart (default values, or `validationActions`) and creates its ValidatingAdmissionPolicies
 * and their bindings, each binding confined to `namespaceLabels`. Throws when the chart renders none. The apiserver
 * takes a moment to enforce new bindings: poll for a refusal before relying on them.
 */
export async function installChartAdmission(options: ChartAdmissionOptions): Promise<ChartAdmission> {
  const { client } = options;
  const rendered = await render(options, options.validationActions);
  if (rendered.policies.length === 0) throw new Error(`the ${options.system} chart rendered no admission policy`);
  for (const policy of rendered.policies) await client.create(admissionTypes.policy, policy);
  for (const binding of rendered.bindings) await client.create(admissionTypes.binding, binding);
  const names = rendered.policies.map((p) => p.metadata.name);
  return {
    names,
    bindings: rendered.bindings,
    async setValidationActions(actions) {
      for (const binding of (await render(options, actions)).bindings) {
        await client.patch(admissionTypes.binding, { namespace: undefined, name: binding.metadata.name }, { type: 'merge', body: { spec: { validationActions: binding.spec['validationActions'] } } });
      }
    },
    async remove() {
      for (const [type, name] of names.flatMap((name) => [[admissionTypes.binding, name] as const, [admissionTypes.policy, name] as const])) {
        await client.delete(type, { namespace: undefined, name }).catch((err: unknown) => {
          if (!isNotFound(err)) throw err;
        });
      }
    },
  };
}
