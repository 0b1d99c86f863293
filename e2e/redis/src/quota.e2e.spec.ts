// Admission and quota as a real cluster has them: testenv's kube-controller-manager runs every default controller,
// so ResourceQuotas are enforced on the Pods and claims the StatefulSet controller creates. The operator is installed
// by Helm into a namespace of its own that has a ResourceQuota on requests and limits of cpu and memory (and Pod
// Security `restricted`), and watches only this suite's namespaces (other suites may run operators at the same time).
import type { V1ResourceQuota } from '@kubernetes/client-node';
import { deleteNamespace, freshNamespace, operatorContainer, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { resourceType } from '@domain-operators/reconcile';
import type { Condition, CustomResourceObject } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, cluster, eventually, memberPods } from './fixtures.ts';
import type { Cluster } from './fixtures.ts';

/** A RedisReplication with the fields this suite sets (the shared fixture's type has no `resources` or `storage`). */
type QuotaReplication = CustomResourceObject<
  {
    replicas: number;
    image: string;
    resources: { requests: Record<string, string>; limits: Record<string, string> };
    storage?: { size: string; storageClassName?: string };
  },
  { conditions?: Condition[]; readyReplicas?: number }
>;

const replicationType = resourceType<QuotaReplication>({ group: 'redis.domain-operators.io', version: 'v1alpha1', kind: 'RedisReplication', plural: 'redisreplications', namespaced: true });
const quotaType = resourceType<V1ResourceQuota>({ group: '', version: 'v1', kind: 'ResourceQuota', plural: 'resourcequotas', namespaced: true });

/** Pod Security `restricted`, as a platform team labels an operator namespace (and as the harness labels its own). */
const RESTRICTED = { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted' };
/** Each member requests 100m: a 250m quota fits two of three. */
const MEMBER_RESOURCES = { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '256Mi' } };
/** Long enough for the StatefulSet controller's own retry after the quota is raised (its backoff doubles per refusal). */
const RECOVERY_TIMEOUT_MS = 480_000;

let c: Cluster;
let image = '';
let operatorNamespace = '';
let cpuNamespace = '';
let claimNamespace = '';
let operator: OperatorProcess | undefined;

/** The Redis image members run: testenv's node has Debian's 7.0 (nothing can be pulled there); a cluster `redis:7.2`. */
async function redisImage(): Promise<string> {
  if (targetsExistingCluster()) return 'redis:7.2';
  const env = await ensureTestEnv(['apiserver']);
  if (env.node === undefined) throw new Error('testenv: the node is not up (env.json has no node)');
  return env.node.redisImage;
}

async function createQuota(namespace: string, name: string, hard: Record<string, string>): Promise<void> {
  await c.client.create(quotaType, { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { namespace, name }, spec: { hard } });
}

/** The RedisReplication's Ready condition once it is about the current generation. */
async function readyCondition(namespace: string, name: string, wanted: (ready: Condition) => boolean, timeoutMs: number, what: string): Promise<Condition> {
  return eventually(
    async () => {
      const rr = await c.client.get(replicationType, { namespace, name });
      const ready = rr.status?.conditions?.find((x) => x.type === 'Ready' && x.observedGeneration === rr.metadata.generation);
      return ready !== undefined && wanted(ready) ? ready : undefined;
    },
    timeoutMs,
    what,
  );
}

/** The member Pod names `name-0` … that do not exist, as the test sees them. */
async function missingMembers(namespace: string, name: string, replicas: number): Promise<string[]> {
  const present = new Set((await memberPods(c, namespace, name)).map((p) => p.metadata?.name));
  return Array.from({ length: replicas }, (_, n) => `${name}-${n}`).filter((pod) => !present.has(pod));
}

beforeAll(async () => {
  c = await cluster();
  image = await redisImage();
  operatorNamespace = await freshNamespace(RESTRICTED, 'e2e-redis-quota-op');
  await createQuota(operatorNamespace, 'operator-quota', { 'requests.cpu': '500m', 'requests.memory': '512Mi', 'limits.cpu': '2', 'limits.memory': '1Gi' });
  cpuNamespace = await freshNamespace({}, 'e2e-redis-quota');
  claimNamespace = await freshNamespace({}, 'e2e-redis-quota-pvc');
  operator = await startOperator({ system: 'redis', releaseNamespace: operatorNamespace, values: { watchNamespaces: [cpuNamespace, claimNamespace] } });
});

afterAll(async () => {
  await operator?.stop();
  for (const namespace of [cpuNamespace, claimNamespace, operatorNamespace]) if (namespace !== '') await deleteNamespace(namespace);
});

describe('admission and quota', () => {
  it("installs the chart into a namespace whose ResourceQuota covers requests and limits, which counts the operator's Pod", async () => {
    const container = operatorContainer(operator?.installation.deployment ?? {});
    const requests = container.resources?.requests ?? {};
    const limits = container.resources?.limits ?? {};
    const used = await eventually(
      async () => {
        const quota = await c.client.get(quotaType, { namespace: operatorNamespace, name: 'operator-quota' });
        const counted = quota.status?.used;
        return counted?.['requests.cpu'] === requests['cpu'] ? counted : undefined;
      },
      60_000,
      'the operator quota counts the operator Pod',
    );
    expect(used).toEqual({ 'requests.cpu': requests['cpu'], 'requests.memory': requests['memory'], 'limits.cpu': limits['cpu'], 'limits.memory': limits['memory'] });
  });

  it(
    'reports QuotaExceeded with the apiserver message while the quota fits two members of three, and becomes Ready once it is raised',
    async () => {
      await createQuota(cpuNamespace, 'test-cpu-quota', { 'requests.cpu': '250m' });
      await c.client.create(replicationType, {
        apiVersion: API_VERSION,
        kind: 'RedisReplication',
        metadata: { namespace: cpuNamespace, name: 'cache' },
        spec: { replicas: 3, image, resources: MEMBER_RESOURCES },
      });

      const refused = await readyCondition(cpuNamespace, 'cache', (r) => r.status === 'False' && r.reason === 'QuotaExceeded', 180_000, 'Ready=False QuotaExceeded');
      const missing = await missingMembers(cpuNamespace, 'cache', 3);
      expect(missing).toHaveLength(1);
      const [pod] = missing;
      expect(refused.message).toBe(
        `2 of 3 members exist; ${pod} cannot be created: pods "${pod}" is forbidden: exceeded quota: test-cpu-quota, requested: requests.cpu=100m, used: requests.cpu=200m, limited: requests.cpu=250m`,
      );

      // The quota grows; nothing else changes: the StatefulSet controller retries by itself.
      await c.client.patch(quotaType, { namespace: cpuNamespace, name: 'test-cpu-quota' }, { type: 'merge', body: { spec: { hard: { 'requests.cpu': '1' } } } });
      const ready = await readyCondition(cpuNamespace, 'cache', (r) => r.status === 'True', RECOVERY_TIMEOUT_MS, 'Ready=True after the quota was raised');
      expect(ready.reason).toBe('TopologyConverged');
      expect(await missingMembers(cpuNamespace, 'cache', 3)).toEqual([]);
      const rr = await c.client.get(replicationType, { namespace: cpuNamespace, name: 'cache' });
      expect(rr.metadata.generation).toBe(1);
      expect(rr.status?.readyReplicas).toBe(3);
    },
    RECOVERY_TIMEOUT_MS + 300_000,
  );

  it(
    "reports QuotaExceeded when the quota refuses a member's volume claim, and becomes Ready once it is raised",
    async () => {
      await createQuota(claimNamespace, 'test-claim-quota', { persistentvolumeclaims: '2' });
      await c.client.create(replicationType, {
        apiVersion: API_VERSION,
        kind: 'RedisReplication',
        metadata: { namespace: claimNamespace, name: 'data' },
        spec: { replicas: 3, image, resources: MEMBER_RESOURCES, storage: { size: '16Mi' } },
      });

      // Settled once two members exist (on a loaded machine the first QuotaExceeded can come while the second
      // member's Pod is still being created, and says so).
      const refused = await readyCondition(
        claimNamespace,
        'data',
        (r) => r.status === 'False' && r.reason === 'QuotaExceeded' && r.message.startsWith('2 of 3 members exist; '),
        180_000,
        'Ready=False QuotaExceeded with two members',
      );
      const missing = await missingMembers(claimNamespace, 'data', 3);
      expect(missing).toHaveLength(1);
      const claim = `data-${missing[0] ?? ''}`;
      // The claim's refusal, either as the StatefulSet controller reports it for the claim or for the Pod that needs it.
      expect(refused.message).toContain(
        `persistentvolumeclaims "${claim}" is forbidden: exceeded quota: test-claim-quota, requested: persistentvolumeclaims=1, used: persistentvolumeclaims=2, limited: persistentvolumeclaims=2`,
      );
      expect(refused.message.startsWith(`2 of 3 members exist; ${missing[0] ?? ''} cannot be created: `)).toBe(true);

      await c.client.patch(quotaType, { namespace: claimNamespace, name: 'test-claim-quota' }, { type: 'merge', body: { spec: { hard: { persistentvolumeclaims: '3' } } } });
      const ready = await readyCondition(claimNamespace, 'data', (r) => r.status === 'True', RECOVERY_TIMEOUT_MS, 'Ready=True after the quota was raised');
      expect(ready.reason).toBe('TopologyConverged');
      expect(await missingMembers(claimNamespace, 'data', 3)).toEqual([]);
    },
    RECOVERY_TIMEOUT_MS + 300_000,
  );
});
