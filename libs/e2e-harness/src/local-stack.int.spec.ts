import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { KubernetesObject } from '@kubernetes/client-node';
import { coreTypes, isNotFound, resourceType } from '@domain-operators/reconcile';
import type { Client, ResourceType } from '@domain-operators/reconcile';
import { resolvePaths } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, randomSuffix } from './cluster.ts';
import { helm } from './helm.ts';
import { describeObject, forInstance, isCustomResource, localReleaseNamespace, readLocalExamples, typeOfExample, typesOfCrds } from './local-examples.ts';
import { LOCAL_STACK_READY } from './local-stack.ts';
import { parseManifests } from './manifests.ts';
import { OPERATOR_SYSTEMS } from './system.ts';
import { eventually, hasCondition } from './wait.ts';
import type { ObjectWithConditions } from './wait.ts';

// `npm start`'s last step run as a process, as a newcomer runs it, but as its own instance (suffixed namespaces,
// connections and Helm releases) so that it neither sees nor touches the objects of an `npm start` running beside
// it. Real apiserver, Kafka, OpenSearch and node (the operators and the Redis members run as Pods); the stack brings
// up whatever testenv component is missing.

const root = resolvePaths().root;
const instance = `t${randomSuffix(6)}`;
const objects = forInstance(readLocalExamples(root), instance);
const resources = objects.filter(isCustomResource);
const namespaces = objects.filter((object) => object.kind === 'Namespace').map((object) => object.metadata?.name ?? '');
const customTypes = typesOfCrds(
  OPERATOR_SYSTEMS.flatMap((system) => {
    const dir = join(root, 'charts', `${system}-operator`, 'crds');
    return readdirSync(dir).flatMap((file) => parseManifests(readFileSync(join(dir, file), 'utf8')));
  }),
);
/** Namespaced kinds before the cluster-scoped connections they reference (deleted in this order). */
const deletionOrder = [...resources.filter((o) => o.metadata?.namespace !== undefined), ...resources.filter((o) => o.metadata?.namespace === undefined)];

let client: Client;
let stack: ChildProcess | undefined;
let exited: Promise<number | null> | undefined;
let output = '';
/** What each operator's "ready" line names: its release namespace and Pod. */
const operatorPods = new Map<string, { namespace: string; pod: string }>();
const deploymentType = resourceType({ group: 'apps', version: 'v1', kind: 'Deployment', plural: 'deployments', namespaced: true });

const request = (object: KubernetesObject): { namespace: string | undefined; name: string } => ({ namespace: object.metadata?.namespace, name: object.metadata?.name ?? '' });
const typeOf = (object: KubernetesObject): ResourceType<ObjectWithConditions> => typeOfExample(object, customTypes);

async function gone(object: KubernetesObject): Promise<boolean> {
  try {
    await client.get(typeOf(object), request(object));
    return false;
  } catch (err) {
    if (isNotFound(err)) return true;
    throw err;
  }
}

/**
 * Deletes the example resources while the operators still run, so that their finalizers clean Kafka and OpenSearch
 * up: the topic and the index are switched to `deletionPolicy: Delete` first (Retain would leave them behind).
 */
async function deleteResourcesThroughOperators(): Promise<void> {
  for (const object of resources.filter((o) => o.kind === 'KafkaTopic' || o.kind === 'OpenSearchIndex')) {
    await client.patch(typeOf(object), request(object), { type: 'merge', body: { spec: { deletionPolicy: 'Delete' } } }).catch(() => undefined);
  }
  // The namespaced resources first: their finalizers need the connection to reach Kafka and OpenSearch.
  for (const batch of [deletionOrder.filter((o) => o.metadata?.namespace !== undefined), deletionOrder.filter((o) => o.metadata?.namespace === undefined)]) {
    for (const object of batch) await client.delete(typeOf(object), request(object)).catch(() => undefined);
    await eventually(async () => ((await Promise.all(batch.map(gone))).every(Boolean) ? true : undefined), { timeoutMs: 60_000, what: 'the example resources deleted' });
  }
}

beforeAll(async () => {
  client = await adminClient();
  const child = spawn(process.execPath, [join(root, 'libs', 'e2e-harness', 'src', 'local-stack.main.ts'), '--instance', instance], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  stack = child;
  exited = new Promise((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  // Resolves with 'ready', or with 'exited' at once when the process ends first (a rejection would only be retried).
  const outcome = await eventually(() => Promise.resolve(child.exitCode !== null ? 'exited' : output.includes(`\n${LOCAL_STACK_READY}`) ? 'ready' : undefined), {
    timeoutMs: 20 * 60_000,
    intervalMs: 500,
    what: `the line "${LOCAL_STACK_READY}"`,
  }).catch((err: unknown) => {
    throw new Error(`${(err as Error).message}\n--- local-stack output ---\n${output.slice(-3_000)}`);
  });
  if (outcome === 'exited') throw new Error(`local-stack exited with ${child.exitCode ?? '?'} before it was ready\n--- local-stack output ---\n${output.slice(-3_000)}`);
  for (const match of output.matchAll(/\] (\w+)-operator: ready: Pod ([a-z0-9-]+)\/([a-z0-9-]+) /g)) operatorPods.set(match[1] ?? '', { namespace: match[2] ?? '', pod: match[3] ?? '' });
}, 21 * 60_000);

afterAll(async () => {
  // On a failure before the SIGINT test: clean up through the operators while they run, then stop them.
  if (stack?.exitCode === null) {
    await deleteResourcesThroughOperators().catch(() => undefined);
    stack.kill('SIGINT');
    await exited;
  }
  // Whatever is left (the stack never got as far as its operators): release finalizers by hand.
  for (const object of deletionOrder) {
    await client.patch(typeOf(object), request(object), { type: 'merge', body: { metadata: { finalizers: null } } }).catch(() => undefined);
    await client.delete(typeOf(object), request(object)).catch(() => undefined);
  }
  for (const namespace of namespaces) await client.delete(coreTypes.namespace, { namespace: undefined, name: namespace }).catch(() => undefined);
}, 5 * 60_000);

describe("npm start's local stack as a process", () => {
  it('runs the three operators as Ready Pods of their releases and brings every example resource to Ready, as the apiserver shows', async () => {
    expect([...operatorPods.keys()].sort()).toEqual([...OPERATOR_SYSTEMS]);
    for (const [system, { namespace, pod }] of operatorPods) {
      expect(namespace).toBe(localReleaseNamespace(system as (typeof OPERATOR_SYSTEMS)[number], instance));
      const live = await client.get(coreTypes.pod, { namespace, name: pod });
      expect(live.status?.conditions?.find((c) => c.type === 'Ready')?.status, `${namespace}/${pod}`).toBe('True');
      expect(live.spec?.containers[0]?.image, 'the chart\'s default image').toMatch(new RegExp(`^ghcr\\.io/domain-operators/${system}-operator:`));
    }
    expect(resources.map((o) => o.kind)).toEqual(expect.arrayContaining(['KafkaConnection', 'KafkaTopic', 'KafkaUser', 'OpenSearchConnection', 'OpenSearchIndex', 'RedisReplication']));
    for (const object of resources) {
      const live = await client.get(typeOf(object), request(object));
      expect(hasCondition(live, 'Ready', 'True'), describeObject(object)).toBe(true);
    }
  });

  it('prints the operator Pods, kubectl get kafka,opensearch,redis -A with every resource, the log commands, and no password', () => {
    for (const [system, { namespace, pod }] of operatorPods) {
      expect(output).toContain(`$ kubectl --kubeconfig .testenv/kubeconfig get pods -n ${namespace}\n`);
      expect(output).toMatch(new RegExp(`\\n${pod} +1/1 +Running `));
      expect(output).toMatch(new RegExp(`kubectl -n ${namespace} logs deploy/e2e-[a-z0-9]+-${system}-operator`));
    }
    expect(output).toContain('$ kubectl --kubeconfig .testenv/kubeconfig get kafka,opensearch,redis -A');
    for (const name of [`kafkaconnection.kafka.domain-operators.io/local-${instance}`, `opensearchindex.opensearch.domain-operators.io/orders`, 'redisreplication.redis.domain-operators.io/cache']) {
      expect(output).toContain(name);
    }
    const env = JSON.parse(readFileSync(resolvePaths().envFile, 'utf8')) as { kafka?: { superUser: { password: string } }; opensearch?: { adminUser: { password: string } } };
    for (const password of [env.kafka?.superUser.password, env.opensearch?.adminUser.password]) if (password !== undefined) expect(output).not.toContain(password);
  });

  it('uninstalls the operators\' releases on SIGINT (Deployment, Pods, ServiceAccount go) and leaves the environment up', async () => {
    await deleteResourcesThroughOperators();
    stack?.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('local-stack: operators uninstalled');
    for (const system of OPERATOR_SYSTEMS) {
      const namespace = localReleaseNamespace(system, instance);
      const releases = await helm(['list', '--namespace', namespace, '--short', '--kubeconfig', join(resolvePaths().stateDir, 'kubeconfig')]);
      expect(releases.stdout.trim(), `helm releases in ${namespace}`).toBe('');
      expect((await client.list(deploymentType, { namespace })).items, `Deployments in ${namespace}`).toEqual([]);
      // The Pods go after their Deployment (garbage collection in the background).
      await eventually(async () => ((await client.list(coreTypes.pod, { namespace })).items.length === 0 ? true : undefined), { timeoutMs: 60_000, what: `no Pods left in ${namespace}` });
      const accounts = await client.list(coreTypes.serviceAccount, { namespace });
      expect(accounts.items.map((a) => a.metadata?.name).filter((name) => name?.endsWith(`${system}-operator`) === true)).toEqual([]);
    }
    // The apiserver still answers: the stack leaves testenv up.
    expect((await client.get(coreTypes.namespace, { namespace: undefined, name: 'default' })).metadata?.name).toBe('default');
  });
});
