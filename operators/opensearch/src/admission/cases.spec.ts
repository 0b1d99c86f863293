import { caseDisagreements, fillCase } from '@domain-operators/reconcile';
import type { AdmissionCase, CaseVerdict } from '@domain-operators/reconcile';
import { expect, it } from 'vitest';
import { checkRole, checkUser, resolveName, tenancyFor } from '../opensearch/tenancy.ts';
import type { OpenSearchRoleSpec } from '../opensearch/types.ts';
import { tenancyCases } from './cases.ts';

const NAMESPACE = 'team-a';

/** The operator's verdict on one case: the same functions its reconcilers call. */
function operatorVerdict(c: AdmissionCase): CaseVerdict {
  const result = tenancyFor(fillCase(tenancyCases.tenancy, { namespace: NAMESPACE }), NAMESPACE);
  if (!result.ok) return result.violation.message;
  const spec = fillCase(c.spec, { namespace: NAMESPACE });
  if (c.kind === 'OpenSearchIndex') {
    const name = resolveName(result.tenancy, 'index', c.name, spec['indexName'] as string | undefined);
    return name.ok ? undefined : name.violation.message;
  }
  if (c.kind === 'OpenSearchRole') return checkRole(result.tenancy, spec as unknown as OpenSearchRoleSpec)?.message;
  if (c.kind === 'OpenSearchUser') return checkUser(result.tenancy, spec)?.message;
  throw new Error(`no operator check wired for ${c.kind}`);
}

it('the operator tenancy checks decide every case of the shared table as the table says', () => {
  const verdicts = tenancyCases.cases.map(operatorVerdict);
  expect(caseDisagreements('operator', tenancyCases.cases, verdicts, { namespace: NAMESPACE })).toEqual([]);
  expect(verdicts.filter((v) => v !== undefined)).toHaveLength(tenancyCases.cases.filter((c) => c.refused !== undefined).length);
});
