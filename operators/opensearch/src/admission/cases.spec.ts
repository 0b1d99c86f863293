// The shared tables of OpenSearch tenancy cases through the operator's own checks: the functions the reconcilers call
// before they ask OpenSearch (the connection registry's tenancy, then each kind's desired state and, for the security
// kinds, the protected-name guard every write passes), over in-memory caches holding the table's namespace and
// connection. The same tables go through the chart's admission policies in a real apiserver (policies.int.spec.ts).
import type { KubernetesObject, V1Namespace } from '@kubernetes/client-node';
import { caseDisagreements, fillCase, isDependencyError, isTerminalError, StoreWriter } from '@domain-operators/reconcile';
import type { AdmissionCase, AdmissionCaseTable, CaseNames, CaseVerdict, SecretSource } from '@domain-operators/reconcile';
import { describe, expect, it } from 'vitest';
import type {
  OpenSearchActionGroup,
  OpenSearchComponentTemplate,
  OpenSearchConnection,
  OpenSearchDataStream,
  OpenSearchIndex,
  OpenSearchIndexTemplate,
  OpenSearchRole,
  OpenSearchRoleBinding,
  OpenSearchSnapshotPolicy,
  OpenSearchSnapshotRestore,
  OpenSearchTenant,
  OpenSearchUser,
} from '../api/v1alpha1/index.ts';
import { ConnectionRegistry } from '../controllers/connection-registry.ts';
import { actionGroupDesired } from '../controllers/opensearchactiongroup.reconciler.ts';
import { componentTemplateDesired } from '../controllers/opensearchcomponenttemplate.reconciler.ts';
import { dataStreamDesired } from '../controllers/opensearchdatastream.reconciler.ts';
import { indexDesired } from '../controllers/opensearchindex.reconciler.ts';
import { indexTemplateDesired } from '../controllers/opensearchindextemplate.reconciler.ts';
import { roleDesired } from '../controllers/opensearchrole.reconciler.ts';
import { bindingDesired } from '../controllers/opensearchrolebinding.reconciler.ts';
import { tenantDesired } from '../controllers/opensearchtenant.reconciler.ts';
import { scopeOf } from '../controllers/scope.ts';
import { planRestore } from '../opensearch/restore-plan.ts';
import { checkSecurityObject, checkUser, indexPatternProblems, TENANCY_VIOLATION, tenancyError, violation } from '../opensearch/tenancy.ts';
import { tenancyTables } from './cases.ts';

/** The names the operator-side run gives the placeholders. */
const NAMES: CaseNames = { namespace: 'team-a', connection: 'main' };

const source = <T extends KubernetesObject>(objects: readonly T[]) => {
  const writer = new StoreWriter<T>();
  writer.replace([...objects]);
  return { store: writer.reader() };
};

/** Throws the refusal of a security object the adapter would never write (its name alone; OpenSearch's flags are unknown here). */
function guardSecurityObject(kind: Parameters<typeof checkSecurityObject>[0], name: string): void {
  const refusal = checkSecurityObject(kind, name);
  if (refusal !== undefined) throw tenancyError(refusal);
}

/** Runs the operator's checks of one object, throwing what the reconciler would throw. */
function check(connections: ConnectionRegistry, object: KubernetesObject & { spec: Record<string, unknown> }): void {
  const namespace = object.metadata?.namespace ?? '';
  switch (object.kind) {
    case 'OpenSearchIndex':
      indexDesired(connections, object as unknown as OpenSearchIndex);
      return;
    case 'OpenSearchIndexTemplate':
      indexTemplateDesired(connections, object as unknown as OpenSearchIndexTemplate);
      return;
    case 'OpenSearchComponentTemplate':
      componentTemplateDesired(connections, object as unknown as OpenSearchComponentTemplate);
      return;
    case 'OpenSearchRole':
      guardSecurityObject('role', roleDesired(connections, object as unknown as OpenSearchRole).name);
      return;
    case 'OpenSearchRoleBinding':
      guardSecurityObject('role mapping', bindingDesired({ connections, roles: { store: new StoreWriter<OpenSearchRole>().reader() } }, object as unknown as OpenSearchRoleBinding).roleName);
      return;
    case 'OpenSearchUser': {
      // userDesired's checks, before it reads or creates the password Secret.
      const user = object as unknown as OpenSearchUser;
      const scope = scopeOf(connections, user, 'user', user.spec.username);
      const refusal = checkUser(scope.tenancy, user.spec);
      if (refusal !== undefined) throw tenancyError(refusal);
      guardSecurityObject('user', scope.name);
      return;
    }
    case 'OpenSearchActionGroup':
      guardSecurityObject('action group', actionGroupDesired(connections, object as unknown as OpenSearchActionGroup).name);
      return;
    case 'OpenSearchTenant':
      guardSecurityObject('tenant', tenantDesired(connections, object as unknown as OpenSearchTenant).name);
      return;
    case 'OpenSearchDataStream':
      dataStreamDesired(connections, object as unknown as OpenSearchDataStream);
      return;
    case 'OpenSearchSnapshotPolicy': {
      // The reconciler's own checks, less the repository's (the admission policies cannot see it).
      const policy = object as unknown as OpenSearchSnapshotPolicy;
      const problems = indexPatternProblems(connections.tenancy(policy.spec.connectionRef.name, namespace), 'indices', policy.spec.indices);
      if (problems.length > 0) throw tenancyError(violation(problems));
      return;
    }
    case 'OpenSearchSnapshotRestore': {
      // The plan over a snapshot holding exactly the named indices; only its tenancy refusals count here.
      const restore = object as unknown as OpenSearchSnapshotRestore;
      const plan = planRestore(connections.tenancy(restore.spec.connectionRef.name, namespace), { name: 'nightly', indices: restore.spec.indices }, restore.spec);
      if (plan.kind === 'refused' && plan.reason === TENANCY_VIOLATION) throw tenancyError(violation([plan.message]));
      return;
    }
    default:
      throw new Error(`no operator check wired for ${String(object.kind)}`);
  }
}

/**
 * The operator's verdict on `c` of `table`: admitted (`undefined`, also for a missing connection, which the operator
 * reports instead of refusing) or the `TenancyViolation` message. Any other error is thrown.
 */
function operatorVerdict(table: AdmissionCaseTable, c: AdmissionCase): CaseVerdict {
  const namespace: V1Namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMES.namespace, labels: { ...table.namespaceLabels } } };
  const connection: OpenSearchConnection = {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchConnection',
    metadata: { name: NAMES.connection ?? '' },
    spec: {
      urls: ['https://opensearch.invalid:9200'],
      credentialsSecretRef: { namespace: 'default', name: 'none', usernameKey: 'username', passwordKey: 'password' },
      ...(table.tenancy === undefined ? {} : { tenancy: fillCase(table.tenancy, NAMES) }),
    },
  };
  const connections = new ConnectionRegistry({ connections: source([connection]), namespaces: source([namespace]), secrets: {} as unknown as SecretSource });
  const object = {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: c.kind,
    metadata: { name: c.name, namespace: NAMES.namespace, uid: 'u1', generation: 1 },
    spec: { connectionRef: { name: NAMES.connection ?? '' }, ...fillCase(c.spec, NAMES) },
  };
  try {
    check(connections, object);
    return undefined;
  } catch (err) {
    if (isDependencyError(err, 'ConnectionNotFound')) return undefined;
    if (isTerminalError(err) && err.reason === TENANCY_VIOLATION) return err.message;
    throw err;
  }
}

describe('the shared OpenSearch tenancy cases, through the operator\u2019s checks', () => {
  const cases = tenancyTables.flatMap((table) => table.cases);

  it('have unique titles, and an admitted and a refused case of every kind', () => {
    expect(new Set(cases.map((c) => c.title)).size).toBe(cases.length);
    const kinds = [...new Set(cases.map((c) => c.kind))];
    expect(kinds).toHaveLength(11);
    for (const kind of kinds) {
      expect(cases.some((c) => c.kind === kind && c.refused === undefined), kind).toBe(true);
      expect(cases.some((c) => c.kind === kind && c.refused !== undefined), kind).toBe(true);
    }
  });

  it.each(tenancyTables.flatMap((table) => table.cases.map((c) => [c.title, table, c] as const)))('%s', (_title, table, c) => {
    expect(caseDisagreements('operator', [c], [operatorVerdict(table, c)], NAMES)).toEqual([]);
  });
});
