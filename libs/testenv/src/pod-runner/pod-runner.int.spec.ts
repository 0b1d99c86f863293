import { AppsV1Api, CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { V1Pod, V1StatefulSet } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureTestEnv } from '../ensure.ts';
import { redisCommand } from '../redis/redis.ts';
import { isPodIp } from './ip-allocator.ts';

let core: CoreV1Api;
let apps: AppsV1Api;
const namespaces: string[] = [];

async function redisCli(ip: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('redis-cli', ['-h', ip, '-p', '6379', ...args]);
  return stdout.trim();
}

async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 90_000, intervalMs = 200): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      lastError = err instanceof Error ? err.message : String(err);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} ${lastError}`);
    await sleep(intervalMs);
  }
}

async function namespace(prefix: string): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await core.createNamespace({ body: { metadata: { name } } });
  namespaces.push(name);
  return name;
}

async function deleteNamespace(name: string): Promise<void> {
  await core.deleteNamespace({ name }).catch(() => undefined);
}

function isReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
}

async function readyPods(ns: string, count: number): Promise<V1Pod[]> {
  return waitFor(`${count} ready pods in ${ns}`, async () => {
    const pods = (await core.listNamespacedPod({ namespace: ns })).items.filter((p) => p.metadata?.deletionTimestamp === undefined);
    return pods.length === count && pods.every(isReady) ? pods : undefined;
  });
}

function redisStatefulSet(ns: string, replicas: number): V1StatefulSet {
  const labels = { app: 'redis' };
  return {
    metadata: { name: 'redis', namespace: ns },
    spec: {
      serviceName: 'redis',
      replicas,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          terminationGracePeriodSeconds: 5,
          containers: [
            {
              name: 'redis',
              image: 'redis:7.2',
              args: ['/etc/redis/redis.conf'],
              ports: [{ name: 'redis', containerPort: 6379 }],
              readinessProbe: { exec: { command: ['redis-cli', 'ping'] }, periodSeconds: 2, failureThreshold: 1 },
              volumeMounts: [
                { name: 'config', mountPath: '/etc/redis' },
                { name: 'data', mountPath: '/data' },
              ],
            },
          ],
          volumes: [{ name: 'config', configMap: { name: 'redis-conf' } }],
        },
      },
      volumeClaimTemplates: [
        { metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
      ],
    },
  };
}

async function createRedis(ns: string, replicas: number): Promise<void> {
  await core.createNamespacedConfigMap({
    namespace: ns,
    body: { metadata: { name: 'redis-conf' }, data: { 'redis.conf': 'appendonly yes\nappendfsync always\ndir /data\nsave ""\n' } },
  });
  await apps.createNamespacedStatefulSet({ namespace: ns, body: redisStatefulSet(ns, replicas) });
}

beforeAll(async () => {
  const env = await ensureTestEnv(['apiserver']);
  const kc = new KubeConfig();
  kc.loadFromFile(env.apiserver.kubeconfig);
  core = kc.makeApiClient(CoreV1Api);
  apps = kc.makeApiClient(AppsV1Api);
});

afterAll(async () => {
  await Promise.all(namespaces.map(deleteNamespace));
});

describe('pod runner', () => {
  it('registers a Ready node', async () => {
    const node = await core.readNode({ name: 'testenv-node' });
    expect(node.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
    expect(node.status?.addresses).toContainEqual({ type: 'InternalIP', address: '127.0.0.1' });
    const heartbeat = node.status?.conditions?.find((c) => c.type === 'Ready')?.lastHeartbeatTime;
    expect(Date.now() - new Date(heartbeat ?? 0).getTime()).toBeLessThan(30_000);
  });

  it('runs a 3-replica redis StatefulSet with a ConfigMap redis.conf as 3 Ready pods answering PING', async () => {
    const ns = await namespace('pr-sts');
    try {
      const started = Date.now();
      await createRedis(ns, 3);
      const pods = await readyPods(ns, 3);
      console.log(`3 pods Ready ${Date.now() - started} ms after the StatefulSet was created`);
      const ips = pods.map((p) => p.status?.podIP ?? '');
      expect(new Set(ips).size).toBe(3);
      for (const pod of pods) {
        const ip = pod.status?.podIP ?? '';
        expect(isPodIp(ip)).toBe(true);
        expect(pod.spec?.nodeName).toBe('testenv-node');
        expect(pod.status?.phase).toBe('Running');
        expect(pod.status?.hostIP).toBe('127.0.0.1');
        expect(pod.status?.containerStatuses?.[0]).toMatchObject({ ready: true, started: true, restartCount: 0 });
        expect(await redisCommand(ip, 6379, 'PING')).toBe('+PONG');
        expect(await redisCli(ip, 'PING')).toBe('PONG');
        // The mounted redis.conf was used: appendonly on, and `dir /data` mapped to the claim's directory.
        expect(await redisCli(ip, 'CONFIG', 'GET', 'appendonly')).toBe('appendonly\nyes');
        expect(await redisCli(ip, 'CONFIG', 'GET', 'dir')).toMatch(new RegExp(`/pvc/${ns}/data-${pod.metadata?.name ?? ''}$`));
      }
    } finally {
      await deleteNamespace(ns);
    }
  });

  it('restarts a killed redis-server: not ready at once, then Ready with restartCount 1', async () => {
    const ns = await namespace('pr-kill');
    try {
      await createRedis(ns, 1);
      const [pod] = await readyPods(ns, 1);
      const ip = pod?.status?.podIP ?? '';
      const pid = Number(/\/(\d+)$/.exec(pod?.status?.containerStatuses?.[0]?.containerID ?? '')?.[1]);
      expect(pid).toBeGreaterThan(0);
      const killedAt = Date.now();
      process.kill(pid, 'SIGKILL');
      const notReady = await waitFor('pod not ready', async () => {
        const p = await core.readNamespacedPod({ name: 'redis-0', namespace: ns });
        return isReady(p) ? undefined : p;
      }, 10_000, 50);
      console.log(`not ready ${Date.now() - killedAt} ms after kill -9`);
      expect(notReady.status?.containerStatuses?.[0]?.ready).toBe(false);
      const restarted = await waitFor('pod ready again', async () => {
        const p = await core.readNamespacedPod({ name: 'redis-0', namespace: ns });
        return isReady(p) && p.status?.containerStatuses?.[0]?.restartCount === 1 ? p : undefined;
      });
      console.log(`Ready again with restartCount 1 ${Date.now() - killedAt} ms after kill -9`);
      expect(restarted.status?.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
      expect(restarted.status?.podIP).toBe(ip);
      expect(await redisCommand(ip, 6379, 'PING')).toBe('+PONG');
    } finally {
      await deleteNamespace(ns);
    }
  });

  it('re-creates a deleted pod, which runs again on the same claim directory', async () => {
    const ns = await namespace('pr-del');
    try {
      await createRedis(ns, 1);
      const [first] = await readyPods(ns, 1);
      const firstIp = first?.status?.podIP ?? '';
      const dir = await redisCli(firstIp, 'CONFIG', 'GET', 'dir');
      expect(await redisCli(firstIp, 'SET', 'survivor', 'yes')).toBe('OK');
      const deletedAt = Date.now();
      await core.deleteNamespacedPod({ name: 'redis-0', namespace: ns });
      const second = await waitFor('re-created pod ready', async () => {
        const p = await core.readNamespacedPod({ name: 'redis-0', namespace: ns });
        return p.metadata?.uid !== first?.metadata?.uid && isReady(p) ? p : undefined;
      });
      console.log(`re-created pod Ready ${Date.now() - deletedAt} ms after deletion`);
      const ip = second.status?.podIP ?? '';
      expect(await redisCommand(ip, 6379, 'PING')).toBe('+PONG');
      expect(await redisCli(ip, 'CONFIG', 'GET', 'dir')).toBe(dir);
      expect(await redisCli(ip, 'GET', 'survivor')).toBe('yes');
    } finally {
      await deleteNamespace(ns);
    }
  });

  it('keeps a non-redis Deployment pod Pending with reason ImageNotRunnable', async () => {
    const ns = await namespace('pr-nginx');
    try {
      const labels = { app: 'web' };
      await apps.createNamespacedDeployment({
        namespace: ns,
        body: {
          metadata: { name: 'web' },
          spec: { replicas: 1, selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
        },
      });
      const pod = await waitFor('nginx pod marked not runnable', async () => {
        const [p] = (await core.listNamespacedPod({ namespace: ns })).items;
        return p?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'ImageNotRunnable' ? p : undefined;
      });
      expect(pod.spec?.nodeName).toBe('testenv-node');
      expect(pod.status?.phase).toBe('Pending');
      expect(pod.status?.podIP).toBeUndefined();
      const condition = pod.status?.conditions?.find((c) => c.type === 'testenv.domain-operators.io/Runnable');
      expect(condition).toMatchObject({ status: 'False', reason: 'ImageNotRunnable' });
      expect(condition?.message).toBe("testenv's pod runner runs only redis images; nginx:1.27 cannot run here");
      expect(isReady(pod)).toBe(false);
    } finally {
      await deleteNamespace(ns);
    }
  });
});
