// The shared table of RedisUser cases through the chart's ValidatingAdmissionPolicy in the real apiserver: the policy
// is bound to this run's namespace only, and each user is created with a server-side dry run. The verdicts must be the
// table's, which user-cases.spec.ts holds the operator's own checks to: so the two layers agree on every case.
import type { V1CustomResourceDefinition, V1ValidatingAdmissionPolicy, V1ValidatingAdmissionPolicyBinding } from '@kubernetes/client-node';
import { KubeConfig } from '@kubernetes/client-node';
import { Client, coreTypes, HttpsRestTransport, isAlreadyExists, isNotFound, resourceType } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisUsers } from '../api/v1alpha1/index.ts';
import type { RedisUser } from '../api/v1alpha1/index.ts';
import { redisUserPolicies } from './policies.ts';
import { REDIS_USER_CASES } from './user-cases.ts';
import type { RedisUserCase } from './user-cases.ts';

const policies = resourceType<V1ValidatingAdmissionPolicy>({ group: 'admissionregistration.k8s.io', version: 'v1', kind: 'ValidatingAdmissionPolicy', plural: 'validatingadmissionpolicies', namespaced: false });
const bindings = resourceType<V1ValidatingAdmissionPolicyBinding>({
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  kind: 'ValidatingAdmissionPolicyBinding',
  plural: 'validatingadmissionpolicybindings',
  namespaced: false,
});

let client: Client;
const run = randomBytes(4).toString('hex');
const namespace = `redis-adm-${run}`;
const name = `redis-users-int-${run}`;

beforeAll(async () => {
  const env = await ensureTestEnv([]);
  const kubeConfig = new KubeConfig();
  if (env.apiserver === undefined) throw new Error('testenv has no apiserver');
  kubeConfig.loadFromFile(env.apiserver.kubeconfig);
  client = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
  // The CRD as this tree defines it, created when missing (never replaced: other suites may be using it).
  await client.create(coreTypes.customResourceDefinition, redisUsers.crd as unknown as V1CustomResourceDefinition).catch((err: unknown) => {
    if (!isAlreadyExists(err)) throw err;
  });
  await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'redis-admission-int': run } } });
  const [policy, binding] = redisUserPolicies({ name, namespaceSelector: { matchLabels: { 'redis-admission-int': run } } });
  await client.create(policies, policy);
  await client.create(bindings, binding);
  // A new binding takes effect once the apiserver's policy cache has it: wait until a refused case is refused, so
  // that an admitted case below proves something.
  const reserved = REDIS_USER_CASES.find((c) => c.refused !== undefined);
  for (let i = 0; reserved !== undefined && !(await apiserverVerdict(reserved)).includes(reserved.refused ?? ''); i++) {
    if (i === 60) throw new Error('the admission policy never took effect');
    await sleep(250);
  }
}, 600_000);

afterAll(async () => {
  for (const [type, ns, n] of [[bindings, undefined, name], [policies, undefined, name], [coreTypes.namespace, undefined, namespace]] as const) {
    await client.delete(type, { namespace: ns, name: n }).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
});

/** The apiserver's verdict on the case's user, by server-side dry run: `admitted`, or the refusal's message. */
async function apiserverVerdict(c: RedisUserCase): Promise<string> {
  const user: RedisUser = {
    apiVersion: redisUsers.apiVersion,
    kind: 'RedisUser',
    metadata: { name: 'u', namespace },
    spec: { replicationRef: { name: 'cache' }, username: c.username, rules: [...c.rules] },
  };
  try {
    await client.create(redisUsers.type, user, { dryRun: true });
    return 'admitted';
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

describe('the shared RedisUser cases, through the admission policy in the real apiserver', () => {
  it.each(REDIS_USER_CASES.map((c) => [c.title, c] as const))('%s', async (_title, c) => {
    const verdict = await apiserverVerdict(c);
    if (c.refused === undefined) expect(verdict).toBe('admitted');
    else expect(verdict).toContain(c.refused);
    expect(verdict).not.toContain('hunter2');
  });
});
