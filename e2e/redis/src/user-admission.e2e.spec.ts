// RedisUser rules at admission (issue #20), as a team meets them: `kubectl apply` of a RedisUser the operator would
// refuse (its own reserved users, reset, a password written as a rule, an unknown category) is refused by the chart's
// ValidatingAdmissionPolicy, at server-side dry run and at real apply, with the operator's words (and never the
// password); a user inside the rules is admitted; with the binding on [Warn, Audit] a refused user is admitted with a
// warning and the operator still refuses it with its own reason. The policy and binding are the chart's, rendered by
// helm; the binding is narrowed to this run's namespace so that nothing else on the shared cluster is judged by it.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { KubernetesObject } from '@kubernetes/client-node';
import { adminClient, eventually, freshNamespace, helmTemplate, parseManifests, randomSuffix, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { isNotFound, resourceType } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, redisUsers } from './fixtures.ts';

const run = promisify(execFile);
const id = randomSuffix();
const runLabel = { 'redis-admission-e2e': id };
const chartDir = fileURLToPath(new URL('../../../charts/redis-operator', import.meta.url));

type Admission = KubernetesObject & { spec: { validationActions?: string[]; [key: string]: unknown } };
const policies = resourceType<Admission>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', namespaced: false });
const bindings = resourceType<Admission>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicyBinding', plural: 'validatingadmissionpolicybindings', namespaced: false });

let client: Client;
let operator: OperatorProcess | undefined;
let kubeconfig: string;
let namespace: string;
let policyName = '';
let bindingName = '';

/** `kubectl apply [--dry-run=server] -f -` of `object`: whether it succeeded, and what it printed. */
async function kubectlApply(object: object, dryRun: boolean): Promise<{ ok: boolean; output: string }> {
  const child = run('kubectl', ['--kubeconfig', kubeconfig, 'apply', ...(dryRun ? ['--dry-run=server'] : []), '-f', '-'], { encoding: 'utf8' });
  child.child.stdin?.end(JSON.stringify(object));
  try {
    const { stdout, stderr } = await child;
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const user = (name: string, username: string, rules: string[]) => ({
  apiVersion: API_VERSION,
  kind: 'RedisUser',
  metadata: { namespace, name },
  spec: { replicationRef: { name: 'cache' }, username, rules },
});

beforeAll(async () => {
  client = await adminClient();
  kubeconfig = targetsExistingCluster() ? (process.env['E2E_KUBECONFIG'] ?? '') : (await ensureTestEnv(['apiserver'])).apiserver.kubeconfig;
  namespace = await freshNamespace(runLabel, 'e2e-redis-adm');
  const rendered = parseManifests(await helmTemplate({ chartDir, releaseName: `adm-${id}`, namespace: 'redis-operator-system' }));
  const policy = rendered.find((o) => o.kind === 'ValidatingAdmissionPolicy') as Admission | undefined;
  const binding = rendered.find((o) => o.kind === 'ValidatingAdmissionPolicyBinding') as Admission | undefined;
  if (policy === undefined || binding === undefined) throw new Error('the chart rendered no admission policy by default');
  expect(binding.spec.validationActions).toEqual(['Deny']);
  policyName = policy.metadata?.name ?? '';
  bindingName = binding.metadata?.name ?? '';
  await client.create(policies, policy);
  await client.create(bindings, { ...binding, spec: { ...binding.spec, matchResources: { namespaceSelector: { matchLabels: runLabel } } } });
  await eventually(async () => ((await kubectlApply(user('probe', 'redis-operator', ['+@read']), true)).ok ? undefined : true), { timeoutMs: 30_000, what: 'the admission policy in effect' });
  operator = await startOperator({ system: 'redis' });
});

afterAll(async () => {
  await operator?.stop();
  for (const [type, name] of [[bindings, bindingName], [policies, policyName]] as const) {
    await client.delete(type, { namespace: undefined, name }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
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
        const applied = await kubectlApply(object, dryRun);
        expect(applied.ok, applied.output).toBe(false);
        // What a person sees (the docs show one).
        if (dryRun) console.info(applied.output.trim());
        expect(applied.output).toContain(`ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}' denied request: `);
        expect(applied.output).toContain(message);
        expect(applied.output).not.toContain('hunter2');
      }
    }
    expect(await client.listAll(redisUsers.type, { namespace })).toEqual([]);
  });

  it('admits a user inside the rules, without a warning', async () => {
    const inside = user('reader', 'reader', ['+@read ~app:*', '-@dangerous']);
    expect((await kubectlApply(inside, true)).ok).toBe(true);
    const applied = await kubectlApply(inside, false);
    expect(applied.ok, applied.output).toBe(true);
    expect(applied.output).not.toContain('Warning');
  });

  it('with the binding on [Warn, Audit], admits with a warning, and the operator still refuses the user with its own reason', async () => {
    await client.patch(bindings, { namespace: undefined, name: bindingName }, { type: 'merge', body: { spec: { validationActions: ['Warn', 'Audit'] } } });
    const object = user('typo', 'app', ['+@reed']);
    await eventually(async () => ((await kubectlApply(object, true)).ok ? true : undefined), { timeoutMs: 30_000, what: 'the binding switched to Warn' });
    const applied = await kubectlApply(object, false);
    expect(applied.ok, applied.output).toBe(true);
    expect(applied.output).toContain(`Warning: Validation failed for ValidatingAdmissionPolicy '${policyName}' with binding '${bindingName}': +@reed: unknown ACL category "reed"`);
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
