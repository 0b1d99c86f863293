// RedisUser rules at admission (issue #20), as a team meets them: `kubectl apply` of a RedisUser the operator would
// refuse (its own reserved users, reset, a password written as a rule, an unknown category) is refused by the chart's
// ValidatingAdmissionPolicy, at server-side dry run and at real apply, with the operator's words (and never the
// password); a user inside the rules is admitted; with the chart on [Warn, Audit] a refused user is admitted with a
// warning and the operator still refuses it with its own reason. The policy and binding are the chart's, rendered by
// helm; the binding is narrowed to this run's namespace so that nothing else on the shared cluster is judged by it.
import { adminClient, adminKubeconfig, eventually, freshNamespace, installChartAdmission, kubectlApply, randomSuffix, startOperator } from '@domain-operators/e2e-harness';
import type { Applied, ChartAdmission, OperatorProcess } from '@domain-operators/e2e-harness';
import type { Client } from '@domain-operators/reconcile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, redisUsers } from './fixtures.ts';

const id = randomSuffix();
const runLabel = { 'redis-admission-e2e': id };

let client: Client;
let operator: OperatorProcess | undefined;
let admission: ChartAdmission | undefined;
let kubeconfig: string;
let namespace: string;
let policyName = '';

/** `kubectl apply [--dry-run=server] -f -` of `object`: whether it succeeded, and what it printed. */
const kubectl = (object: object, dryRun: boolean): Promise<Applied> => kubectlApply(kubeconfig, object, { dryRun });

const user = (name: string, username: string, rules: string[]) => ({
  apiVersion: API_VERSION,
  kind: 'RedisUser',
  metadata: { namespace, name },
  spec: { replicationRef: { name: 'cache' }, username, rules },
});

beforeAll(async () => {
  client = await adminClient();
  kubeconfig = await adminKubeconfig();
  namespace = await freshNamespace(runLabel, 'e2e-redis-adm');
  admission = await installChartAdmission({ client, system: 'redis', release: `adm-${id}`, namespaceLabels: runLabel });
  expect(admission.bindings.map((b) => b.spec['validationActions'])).toEqual([['Deny']]);
  policyName = admission.names[0] ?? '';
  await eventually(async () => ((await kubectl(user('probe', 'redis-operator', ['+@read']), true)).ok ? undefined : true), { timeoutMs: 30_000, what: 'the admission policy in effect' });
  operator = await startOperator({ system: 'redis' });
});

afterAll(async () => {
  await operator?.stop();
  await admission?.remove();
  for (const u of await client.listAll(redisUsers.type, { namespace }).catch(() => [])) {
    await client.patch(redisUsers.type, { namespace, name: u.metadata.name ?? '' }, { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
  }
  await client.delete({ group: '', version: 'v1', kind: 'Namespace', plural: 'namespaces', namespaced: false }, { namespace: undefined, name: namespace }).catch(() => undefined);
});

describe('RedisUser rules at kubectl apply', () => {
  it('refuses, at server-side dry run and at real apply, each user the operator would refuse, without echoing a password', async () => {
    const refusals: [object, string][] = [
      [user('admin', 'redis-operator', ['+@all']), 'the username redis-operator is reserved for the operator'],
      [user('wipe', 'app', ['+@read reset']), 'reset: reset is not allowed: the operator already starts every user from reset'],
      [user('leaky', 'app', ['+@read', '>hunter2']), 'passwords are not rules: they come from passwordSecretRef'],
      [user('typo', 'app', ['+@reed']), '+@reed: unknown ACL category "reed"'],
    ];
    for (const [object, message] of refusals) {
      for (const dryRun of [true, false]) {
        const applied = await kubectl(object, dryRun);
        expect(applied.ok, applied.output).toBe(false);
        // What a person sees (the docs show one).
        if (dryRun) console.info(applied.output.trim());
        expect(applied.output).toContain(`ValidatingAdmissionPolicy '${policyName}' with binding '${policyName}' denied request: `);
        expect(applied.output).toContain(message);
        expect(applied.output).not.toContain('hunter2');
      }
    }
    expect(await client.listAll(redisUsers.type, { namespace })).toEqual([]);
  });

  it('admits a user inside the rules, without a warning', async () => {
    const inside = user('reader', 'reader', ['+@read ~app:*', '-@dangerous']);
    expect((await kubectl(inside, true)).ok).toBe(true);
    const applied = await kubectl(inside, false);
    expect(applied.ok, applied.output).toBe(true);
    expect(applied.output).not.toContain('Warning');
  });

  it('with the chart on [Warn, Audit], admits with a warning, and the operator still refuses the user with its own reason', async () => {
    await admission?.setValidationActions(['Warn', 'Audit']);
    const object = user('typo', 'app', ['+@reed']);
    await eventually(async () => ((await kubectl(object, true)).ok ? true : undefined), { timeoutMs: 30_000, what: 'the binding switched to Warn' });
    const applied = await kubectl(object, false);
    expect(applied.ok, applied.output).toBe(true);
    expect(applied.output).toContain(`Warning: Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${policyName}': +@reed: unknown ACL category "reed"`);
    const refused = await eventually(
      async () => {
        const current = await client.get(redisUsers.type, { namespace, name: 'typo' });
        const ready = current.status?.conditions?.find((c) => c.type === 'Ready');
        return ready?.status === 'False' && ready.reason === 'InvalidAclRule' ? ready : undefined;
      },
      { timeoutMs: 60_000, what: 'the operator refusing the admitted user' },
    );
    expect(refused.message).toContain('+@reed: unknown ACL category "reed"');
  });
});
