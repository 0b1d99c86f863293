// The shared table of RedisUser cases through the chart's ValidatingAdmissionPolicy in the real apiserver
// (runAdmissionCases: the policy bound to the run's namespace only, each user created with a server-side dry run).
// The verdicts must be the table's, which user-cases.spec.ts holds the operator's own checks to: so the two layers
// agree on every case. No refusal may repeat a password.
import { adminClient, installCrds, runAdmissionCases } from '@domain-operators/e2e-harness';
import { caseDisagreements } from '@domain-operators/reconcile';
import { expect, it } from 'vitest';
import { redisUsers } from '../api/v1alpha1/index.ts';
import { admissionPolicies } from './policies.ts';
import { REDIS_USER_CASES } from './user-cases.ts';

it('the admission policy decides every case of the shared table as it says, never echoing a password (real apiserver, dry-run create)', async () => {
  const client = await adminClient();
  await installCrds(client, 'redis');
  const [run] = await runAdmissionCases({ client, policies: admissionPolicies, types: { RedisUser: redisUsers.type }, tables: [REDIS_USER_CASES] });
  if (run === undefined) throw new Error('no run');
  expect(caseDisagreements('admission', REDIS_USER_CASES.cases, run.verdicts, run)).toEqual([]);
  expect(run.verdicts.filter((v) => v?.includes('hunter2'))).toEqual([]);
  expect(run.verdicts.filter((v) => v !== undefined)).toHaveLength(REDIS_USER_CASES.cases.filter((c) => c.refused !== undefined).length);
}, 120_000);
