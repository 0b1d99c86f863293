// Runs shared tables of admission cases (issue #20) through an operator's ValidatingAdmissionPolicies on the real
// apiserver: each case is created with a server-side dry run, and the refusal message (or none) is its verdict.
import type { KubernetesObject } from '@kubernetes/client-node';
import { admissionTypes, apiVersionOf, coreTypes, fillCase, isNotFound, KubeApiError, policyObjects } from '@domain-operators/reconcile';
import type { AdmissionCase, AdmissionCaseTable, AdmissionPolicy, CaseNames, CaseVerdict, Client, ResourceType } from '@domain-operators/reconcile';
import { randomSuffix } from './cluster.ts';
import { eventually } from './wait.ts';

/** The label that confines a run's bindings to the namespaces the run creates. */
const RUN_LABEL = 'admission-cases.domain-operators.io/run';

/** What {@link runAdmissionCases} needs. */
export interface AdmissionRunOptions {
  /** An admin client of the cluster under test. */
  readonly client: Client;
  /** The operator's policies (installed for the run under a random name prefix, `[Deny]`, bound to the run's namespaces only). */
  readonly policies: readonly AdmissionPolicy[];
  /** The connection kind (cluster-scoped) and a valid spec of it without `tenancy` (it need not reach anything); absent for object policies. */
  readonly connection?: { readonly type: ResourceType; readonly spec: Readonly<Record<string, unknown>> };
  /** The resource type of each kind the tables use, by kind. */
  readonly types: Readonly<Record<string, ResourceType>>;
  readonly tables: readonly AdmissionCaseTable<AdmissionCase<object>>[];
}

/** The verdicts of one table, in the order of its cases, and the names its placeholders stood for. */
export interface AdmissionRun extends CaseNames {
  readonly verdicts: readonly CaseVerdict[];
}

/**
 * Creates per table a namespace (with the table's labels) and, given a connection kind, a connection with the
 * table's tenancy; installs the policies bound with `[Deny]` to these namespaces only; waits until each table's first
 * refused case of every kind is refused (each policy, binding, parameter and namespace reaches the apiserver's caches
 * on its own); then
 * dry-run creates every case and records the refusal message of a 403/422, or `undefined` when admitted. Other API
 * errors reject. Deletes what it created, whatever happens. At least one table must hold a refused case; the tables
 * without one are set up first, so that (the apiserver watching each kind in creation order) a later table's refusal
 * shows that theirs has arrived too. Resolves with one {@link AdmissionRun} per table, in order.
 */
export async function runAdmissionCases(options: AdmissionRunOptions): Promise<AdmissionRun[]> {
  const { client, tables } = options;
  const suffix = randomSuffix();
  const created: { type: ResourceType; name: string }[] = [];
  const create = async (type: ResourceType, object: KubernetesObject): Promise<void> => {
    await client.create(type, object);
    created.push({ type, name: object.metadata?.name ?? '' });
  };
  const probed = tables.map((table) => table.cases.findIndex((c) => c.refused !== undefined));
  if (probed.every((index) => index < 0)) throw new Error('no table has a refused case to tell when the policies are in effect');
  const refuses = (i: number): number => ((probed[i] ?? -1) >= 0 ? 1 : 0);
  const order = tables.map((_table, i) => i).sort((a, b) => refuses(a) - refuses(b));
  const names: CaseNames[] = tables.map((_table, i) => ({ namespace: `adm-${suffix}-${i}`, ...(options.connection === undefined ? {} : { connection: `adm-${suffix}-${i}` }) }));
  try {
    for (const i of order) {
      const table = tables[i];
      const own = names[i];
      if (table === undefined || own === undefined) continue;
      await create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: own.namespace, labels: { ...table.namespaceLabels, [RUN_LABEL]: suffix } } });
      if (options.connection !== undefined && own.connection !== undefined) {
        const type = options.connection.type;
        const spec = { ...options.connection.spec, ...(table.tenancy === undefined ? {} : { tenancy: fillCase(table.tenancy, own) }) };
        await create(type, { apiVersion: apiVersionOf(type), kind: type.kind, metadata: { name: own.connection }, spec } as KubernetesObject);
      }
    }
    for (const policy of options.policies) {
      const [vap, binding] = policyObjects(policy, { namePrefix: `adm-${suffix}`, validationActions: ['Deny'], namespaceLabels: { [RUN_LABEL]: suffix } });
      await create(admissionTypes.policy, vap);
      await create(admissionTypes.binding, binding);
    }
    const attempt = async (c: AdmissionCase<object>, own: CaseNames): Promise<CaseVerdict> => {
      const type = options.types[c.kind];
      if (type === undefined) throw new Error(`no resource type given for kind ${c.kind}`);
      const spec = { ...(own.connection === undefined ? {} : { connectionRef: { name: own.connection } }), ...fillCase(c.spec, own) };
      const object = { apiVersion: apiVersionOf(type), kind: c.kind, metadata: { name: c.name, namespace: own.namespace }, spec } as KubernetesObject;
      try {
        await client.create(type, object, { dryRun: true });
        return undefined;
      } catch (err) {
        if (err instanceof KubeApiError && (err.status === 403 || err.status === 422)) return err.message;
        throw err;
      }
    };
    // Each policy and binding reaches the apiserver's caches on its own: probe one refused case of every kind.
    for (const [i, table] of tables.entries()) {
      const own = names[i];
      if (own === undefined) continue;
      for (const probe of firstRefusedOfEachKind(table.cases)) {
        await eventually(async () => ((await attempt(probe, own)) === undefined ? undefined : true), { timeoutMs: 30_000, intervalMs: 250, what: `the admission policies in effect for "${probe.title}"` });
      }
    }
    const runs: AdmissionRun[] = [];
    for (const [i, table] of tables.entries()) {
      const own = names[i] ?? { namespace: '' };
      const verdicts: CaseVerdict[] = [];
      for (const c of table.cases) verdicts.push(await attempt(c, own));
      runs.push({ ...own, verdicts });
    }
    return runs;
  } finally {
    for (const object of created.reverse()) {
      // Best effort: a cleanup failure must not hide the run's own error; a leftover is named in the output.
      await client.delete(object.type, { namespace: undefined, name: object.name }).catch((err: unknown) => {
        if (!isNotFound(err)) process.stderr.write(`admission cases: could not delete ${object.type.kind} ${object.name}: ${String(err)}\n`);
      });
    }
  }
}

/** The first refused case of each kind in `cases`, in table order. Pure. */
function firstRefusedOfEachKind(cases: readonly AdmissionCase<object>[]): AdmissionCase<object>[] {
  const byKind = new Map<string, AdmissionCase<object>>();
  for (const c of cases) if (c.refused !== undefined && !byKind.has(c.kind)) byKind.set(c.kind, c);
  return [...byKind.values()];
}
