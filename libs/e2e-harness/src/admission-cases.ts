// Runs a shared table of admission cases (issue #20) through an operator's ValidatingAdmissionPolicies on the real
// apiserver: each case is created with a server-side dry run, and the refusal message (or none) is its verdict.
import type { KubernetesObject } from '@kubernetes/client-node';
import { isNotFound, KubeApiError, policyObjects, resourceType, withNamespace } from '@domain-operators/reconcile';
import type { AdmissionCaseTable, CaseVerdict, Client, ConnectionPolicy, ResourceType } from '@domain-operators/reconcile';
import { randomSuffix } from './cluster.ts';
import { eventually } from './wait.ts';

const VAP = resourceType({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', namespaced: false });
const BINDING = resourceType({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings', namespaced: false });

/** What {@link runAdmissionCases} needs. */
export interface AdmissionRunOptions {
  /** An admin client of the cluster under test. */
  readonly client: Client;
  /** The operator's policies (installed for the run under a random name prefix, with `validationActions: [Deny]`). */
  readonly policies: readonly ConnectionPolicy[];
  /** The connection kind; cluster-scoped. */
  readonly connectionType: ResourceType;
  /** A valid connection spec without `tenancy` (the table's tenancy is added); it need not reach anything. */
  readonly connectionSpec: Readonly<Record<string, unknown>>;
  /** The resource type of each kind the table uses, by kind. */
  readonly types: Readonly<Record<string, ResourceType>>;
  readonly table: AdmissionCaseTable;
}

/** The verdicts of a run, in the order of the table's cases, and the namespace the cases ran in. */
export interface AdmissionRun {
  readonly namespace: string;
  readonly connection: string;
  readonly verdicts: readonly CaseVerdict[];
}

/**
 * Creates a namespace (with the table's labels), a connection with the table's tenancy, and the policies bound
 * with `[Deny]`; waits until the first refused case is refused (policies take a moment to load); then dry-run
 * creates every case (`spec.connectionRef` = the connection) and records the refusal message of a 403/422, or
 * `undefined` when admitted. Other API errors reject. Deletes what it created, whatever happens. The table must
 * hold at least one refused case.
 */
export async function runAdmissionCases(options: AdmissionRunOptions): Promise<AdmissionRun> {
  const { client, table } = options;
  const suffix = randomSuffix();
  const namespace = `adm-${suffix}`;
  const connection = `adm-${suffix}`;
  const created: { type: ResourceType; name: string }[] = [];
  const create = async (type: ResourceType, object: KubernetesObject): Promise<void> => {
    await client.create(type, object);
    created.push({ type, name: object.metadata?.name ?? '' });
  };
  try {
    await create(resourceType({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false }), {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace, labels: { ...table.namespaceLabels } },
    });
    const connectionType = options.connectionType;
    await create(connectionType, {
      apiVersion: apiVersionOf(connectionType),
      kind: connectionType.kind,
      metadata: { name: connection },
      spec: { ...options.connectionSpec, tenancy: withNamespace(table.tenancy, namespace) },
    } as KubernetesObject);
    for (const policy of options.policies) {
      const [vap, binding] = policyObjects(policy, { namePrefix: `adm-${suffix}`, validationActions: ['Deny'] });
      await create(VAP, vap);
      await create(BINDING, binding);
    }
    const attempt = async (index: number): Promise<CaseVerdict> => {
      const c = table.cases[index];
      if (c === undefined) throw new Error(`no case ${index}`);
      const type = options.types[c.kind];
      if (type === undefined) throw new Error(`no resource type given for kind ${c.kind}`);
      const object = {
        apiVersion: apiVersionOf(type),
        kind: c.kind,
        metadata: { name: c.name, namespace },
        spec: { ...withNamespace(c.spec, namespace), connectionRef: { name: connection } },
      } as KubernetesObject;
      try {
        await client.create(type, object, { dryRun: true });
        return undefined;
      } catch (err) {
        if (err instanceof KubeApiError && (err.status === 403 || err.status === 422)) return err.message;
        throw err;
      }
    };
    const probe = table.cases.findIndex((c) => c.refused !== undefined);
    if (probe < 0) throw new Error('the table has no refused case to tell when the policies are loaded');
    await eventually(async () => ((await attempt(probe)) === undefined ? undefined : true), { timeoutMs: 30_000, intervalMs: 250, what: 'the admission policies to be enforced' });
    const verdicts: CaseVerdict[] = [];
    for (let i = 0; i < table.cases.length; i++) verdicts.push(await attempt(i));
    return { namespace, connection, verdicts };
  } finally {
    for (const object of created.reverse()) {
      // Best effort: a cleanup failure must not hide the run's own error; a leftover is named in the output.
      await client.delete(object.type, { namespace: undefined, name: object.name }).catch((err: unknown) => {
        if (!isNotFound(err)) process.stderr.write(`admission cases: could not delete ${object.type.kind} ${object.name}: ${String(err)}\n`);
      });
    }
  }
}

function apiVersionOf(type: ResourceType): string {
  return type.group === '' ? type.version : `${type.group}/${type.version}`;
}
