// "Redis as containers": a RedisReplication whose members run from the Redis image as containers on the node (on
// testenv: containerd, runc, the CNI bridge, the kubelet, kube-proxy and CoreDNS), with a PersistentVolumeClaim each
// from the default StorageClass, in a namespace that enforces Pod Security `restricted`. Checked through the real
// data path: a client Pod that resolves the Service's DNS name and logs in with the generated password, the
// Service's EndpointSlices (what kube-proxy programs), a real container kill and a real freeze (SIGSTOP of the
// container's processes), and every write acknowledged by `WAIT 1` read back from the new primary.
import type { V1EndpointSlice, V1Pod } from '@kubernetes/client-node';
import { eventsOnceSeen, freshNamespace as freshNs, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import { coreTypes, eventType, isNotFound } from '@domain-operators/reconcile';
import type { KubeEvent } from '@domain-operators/reconcile';
import { ensureTestEnv } from '@domain-operators/testenv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cluster,
  command,
  defaultStorageClass,
  deleteNamespace,
  eventually,
  freezeRedis,
  getReplication,
  killRedis,
  kinds,
  memberInfo,
  memberPods,
  objectNames,
  operatorPassword,
  podLog,
  podNamed,
  readyAtGeneration,
  redisImage,
  redisReplications,
  replicationReady,
  restartCount,
  ROLE_LABEL,
} from './fixtures.ts';
import type { Cluster, RedisReplication } from './fixtures.ts';

const NAME = 'app';
const DOWN_AFTER_MS = 5_000;
let c: Cluster;
let ns = '';
let image = '';
let operator: OperatorProcess | undefined;
let password = '';

/** The RedisReplication once Ready at its generation with every member linked. */
function readyReplication(timeoutMs?: number): Promise<RedisReplication> {
  return replicationReady(c, ns, NAME, timeoutMs);
}

async function primaryPod(): Promise<V1Pod> {
  const rr = await readyReplication();
  return podNamed(await memberPods(c, ns, NAME), rr.status?.primary);
}

const info = (pod: V1Pod, section = 'replication'): Promise<Map<string, string>> => memberInfo(pod, password, section);

/** Every endpoint of the Service's EndpointSlices, ready or not: which Pod, its addresses, whether ready. */
async function endpointsOf(service: string): Promise<{ pod: string; addresses: string[]; ready: boolean }[]> {
  const slices = await c.client.list(kinds.endpointSlice, { namespace: ns, labelSelector: `kubernetes.io/service-name=${service}` });
  return slices.items.flatMap((slice: V1EndpointSlice) =>
    (slice.endpoints ?? []).map((e) => ({ pod: e.targetRef?.name ?? '', addresses: [...e.addresses], ready: e.conditions?.ready !== false })),
  );
}

/** Resolves once the primary Service's EndpointSlices hold exactly one endpoint, `pod` at its Pod IP, ready. */
async function sliceHoldsOnly(pod: string, timeoutMs: number): Promise<void> {
  const ip = podNamed(await memberPods(c, ns, NAME), pod).status?.podIP;
  await eventually(async () => {
    const endpoints = await endpointsOf(objectNames(NAME).primary);
    return endpoints.length === 1 && endpoints[0]?.pod === pod && endpoints[0].ready && endpoints[0].addresses.join() === ip;
  }, timeoutMs, `the EndpointSlice of Service ${NAME} holds only ${pod} (${ip ?? 'no IP'})`).catch(() => undefined);
  expect(await endpointsOf(objectNames(NAME).primary)).toEqual([{ pod, addresses: [ip], ready: true }]);
}

/** Writes `count` keys `<prefix>:<i>` on the primary, each followed by `WAIT 1 1000`; resolves with those a replica acknowledged. */
async function acknowledgedWrites(primary: V1Pod, prefix: string, count: number): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let i = 0; i < count; i++) {
    await command(primary, password, ['SET', `${prefix}:${i}`, String(i)]);
    if (Number(await command(primary, password, ['WAIT', '1', '1000'])) >= 1) acknowledged.push(`${prefix}:${i}`);
  }
  return acknowledged;
}

/** The keys of `keys` that `pod` does not hold. */
async function missing(pod: V1Pod, keys: readonly string[]): Promise<string[]> {
  const values = (await command(pod, password, ['MGET', ...keys])) as (string | null)[];
  return keys.filter((_, i) => values[i] === null || values[i] === undefined);
}

/** Resolves with the new primary in status once it is not `old`. */
async function promotedOtherThan(old: string): Promise<string> {
  return eventually(async () => {
    const rr = await getReplication(c, ns, NAME);
    return rr.status?.primary !== undefined && rr.status.primary !== old ? rr.status.primary : undefined;
  }, 60_000, `a primary other than ${old}`);
}

/** Resolves once `name` is a linked replica of the current primary, labelled replica. */
async function rejoinsAsReplica(name: string, timeoutMs: number): Promise<void> {
  await eventually(async () => {
    const rr = await getReplication(c, ns, NAME);
    const pods = await memberPods(c, ns, NAME);
    const pod = podNamed(pods, name);
    const primary = podNamed(pods, rr.status?.primary);
    const i = await info(pod);
    return pod !== primary && i.get('role') === 'slave' && i.get('master_host') === primary.status?.podIP && i.get('master_link_status') === 'up' && pod.metadata?.labels?.[ROLE_LABEL] === 'replica';
  }, timeoutMs, `${name} replicates from the primary again`);
}

beforeAll(async () => {
  c = await cluster();
  image = await redisImage();
  operator = await startOperator({ system: 'redis' });
  // The members and the client Pod must pass Pod Security `restricted`, as in a locked-down team namespace.
  ns = await freshNs(
    { 'pod-security.kubernetes.io/enforce': 'restricted', 'pod-security.kubernetes.io/warn': 'restricted', 'pod-security.kubernetes.io/audit': 'restricted' },
    'redis-ctr',
  );
  await c.client.create(redisReplications.type, {
    apiVersion: redisReplications.apiVersion,
    kind: redisReplications.kind,
    metadata: { name: NAME, namespace: ns },
    spec: { replicas: 3, image, storage: { size: '64Mi' }, failover: { enabled: true, downAfterMilliseconds: DOWN_AFTER_MS } },
  });
  await readyReplication();
  password = await operatorPassword(c, ns, NAME);
});

afterAll(async () => {
  await operator?.stop();
  if (ns !== '') await deleteNamespace(c, ns);
});

describe('Redis as containers', () => {
  it('members run from the Redis image in a restricted namespace, each on a claim Bound from the default StorageClass', async () => {
    const storageClass = await defaultStorageClass(c);
    if (!targetsExistingCluster()) expect(storageClass).toBe((await ensureTestEnv(['apiserver'])).node?.storageClass ?? 'standard');
    const pods = await memberPods(c, ns, NAME);
    expect(pods).toHaveLength(3);
    for (const pod of pods) {
      const container = pod.spec?.containers.find((x) => x.name === 'redis');
      expect(container?.image).toBe(image);
      expect(pod.status?.containerStatuses?.find((x) => x.name === 'redis')?.ready).toBe(true);
      const claim = await c.client.get(kinds.persistentVolumeClaim, { namespace: ns, name: `data-${pod.metadata?.name ?? ''}` });
      expect(claim.status?.phase).toBe('Bound');
      expect(claim.spec?.storageClassName).toBe(storageClass);
      const volume = await c.client.get(kinds.persistentVolume, { namespace: undefined, name: claim.spec?.volumeName ?? '' });
      expect(volume.spec?.claimRef?.uid).toBe(claim.metadata?.uid);
      expect(volume.spec?.storageClassName).toBe(storageClass);
    }
  });

  it('a client Pod reaches the primary by the Service DNS name with the generated password (SET, then GET)', async () => {
    const primary = await primaryPod();
    await sliceHoldsOnly(primary.metadata?.name ?? '', 10_000);
    const host = `${objectNames(NAME).primary}.${ns}.svc.cluster.local`;
    const value = `from-a-pod-${Date.now()}`;
    await c.client.create(coreTypes.pod, {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'client', namespace: ns },
      spec: {
        restartPolicy: 'Never',
        terminationGracePeriodSeconds: 1,
        securityContext: { runAsNonRoot: true, runAsUser: 999, runAsGroup: 999, seccompProfile: { type: 'RuntimeDefault' } },
        containers: [
          {
            name: 'redis-cli',
            image,
            imagePullPolicy: targetsExistingCluster() ? 'IfNotPresent' : 'Never',
            // The password comes in through the environment from the generated Secret, never in the Pod spec.
            env: [{ name: 'REDIS_PASSWORD', valueFrom: { secretKeyRef: { name: objectNames(NAME).authSecret, key: 'password' } } }],
            command: ['sh', '-c', `redis-cli -h ${host} -a "$REDIS_PASSWORD" --no-auth-warning SET client:greeting ${value} && redis-cli -h ${host} -a "$REDIS_PASSWORD" --no-auth-warning GET client:greeting`],
            securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true },
          },
        ],
      },
    });
    const done = await eventually(async () => {
      const pod = await c.client.get(coreTypes.pod, { namespace: ns, name: 'client' });
      return pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed' ? pod : undefined;
    }, 60_000, 'the client Pod finished');
    const log = await podLog(ns, 'client', 'redis-cli');
    expect({ phase: done.status?.phase, exitCode: done.status?.containerStatuses?.[0]?.state?.terminated?.exitCode, log: log.trim().split('\n') }).toEqual({
      phase: 'Succeeded',
      exitCode: 0,
      log: ['OK', value],
    });
    // The write went to the primary (an independent client at its Pod IP), not to a replica (which would say READONLY).
    expect(await command(primary, password, ['GET', 'client:greeting'])).toBe(value);
  });

  it.skipIf(targetsExistingCluster())('after the primary container is killed, the EndpointSlice holds only the new primary and every write acknowledged by WAIT 1 is on it', async () => {
    const primary = await primaryPod();
    const old = primary.metadata?.name ?? '';
    const restarts = restartCount(primary);
    const acknowledged = await acknowledgedWrites(primary, 'kill', 200);
    expect(acknowledged.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    const killed = killRedis(primary);
    const promoted = await promotedOtherThan(old);
    const promotedAfter = Date.now() - killedAt;
    await sliceHoldsOnly(promoted, 15_000);
    const sliceAfter = Date.now() - killedAt;
    const newPrimary = podNamed(await memberPods(c, ns, NAME), promoted);
    expect((await info(newPrimary)).get('role')).toBe('master');
    expect(await missing(newPrimary, acknowledged)).toEqual([]);
    // The kubelet restarts the container in the same Pod (a new container id, the same claim): the first time at
    // once, after CrashLoopBackOff's 10 s, 20 s, … on later deaths. It comes back as a replica of the new primary.
    await rejoinsAsReplica(old, 90_000);
    const back = podNamed(await memberPods(c, ns, NAME), old);
    expect(restartCount(back)).toBe(restarts + 1);
    expect(back.status?.containerStatuses?.find((x) => x.name === 'redis')?.containerID).not.toContain(killed);
    expect(await missing(back, acknowledged)).toEqual([]);
    await readyReplication();
    await sliceHoldsOnly(promoted, 10_000);
    console.info(`container kill of primary ${old} (${acknowledged.length}/200 writes acknowledged by WAIT 1): ${promoted} primary in status after ${(promotedAfter / 1000).toFixed(2)} s, EndpointSlice holds only ${promoted} after ${(sliceAfter / 1000).toFixed(2)} s`);
  });

  it.skipIf(targetsExistingCluster())('after the primary container is frozen (SIGSTOP), the EndpointSlice holds only the new primary, acknowledged writes are kept, and the resumed member rejoins as a replica', async () => {
    const primary = await primaryPod();
    const frozen = primary.metadata?.name ?? '';
    const restarts = restartCount(primary);
    const acknowledged = await acknowledgedWrites(primary, 'freeze', 200);
    expect(acknowledged.length).toBeGreaterThan(0);
    const frozenAt = Date.now();
    const resume = await freezeRedis(primary);
    let promoted: string;
    let promotedAfter: number;
    let sliceAfter: number;
    try {
      promoted = await promotedOtherThan(frozen);
      promotedAfter = Date.now() - frozenAt;
      // A frozen process accepts connections but never answers: only downAfterMilliseconds of silence triggers it.
      expect(promotedAfter).toBeGreaterThanOrEqual(DOWN_AFTER_MS);
      await sliceHoldsOnly(promoted, 15_000);
      sliceAfter = Date.now() - frozenAt;
      const newPrimary = podNamed(await memberPods(c, ns, NAME), promoted);
      expect(await missing(newPrimary, acknowledged)).toEqual([]);
    } finally {
      resume();
    }
    await rejoinsAsReplica(frozen, 60_000);
    const back = podNamed(await memberPods(c, ns, NAME), frozen);
    expect(restartCount(back)).toBe(restarts); // no liveness probe: a frozen container is not restarted
    await readyReplication();
    await sliceHoldsOnly(promoted, 10_000);
    const demoted = (e: KubeEvent): boolean => e.reason === 'PrimaryDemoted' && (e.note ?? '').includes(frozen);
    expect((await eventsOnceSeen(c.client, ns, demoted, { what: `a PrimaryDemoted Event naming ${frozen}` })).some(demoted)).toBe(true);
    console.info(`freeze of primary ${frozen} (${acknowledged.length}/200 writes acknowledged by WAIT 1): ${promoted} primary in status after ${(promotedAfter / 1000).toFixed(2)} s, EndpointSlice holds only ${promoted} after ${(sliceAfter / 1000).toFixed(2)} s (downAfterMilliseconds ${DOWN_AFTER_MS})`);
  });

  it.skipIf(targetsExistingCluster())('a primary killed after a snapshot comes back at once with the older data on its claim: every write acknowledged since is kept', async () => {
    // A fresh replication, so that the primary's container has never died: the kubelet restarts it at once (no
    // CrashLoopBackOff yet), well within downAfterMilliseconds, with the dump.rdb its claim holds. That snapshot is
    // older than the writes acknowledged since; replicas that resynchronised from it would drop them.
    const name = 'snap';
    await c.client.create(redisReplications.type, {
      apiVersion: redisReplications.apiVersion,
      kind: redisReplications.kind,
      metadata: { name, namespace: ns },
      spec: { replicas: 3, image, storage: { size: '64Mi' }, failover: { enabled: true, downAfterMilliseconds: DOWN_AFTER_MS } },
    });
    const ready = async (): Promise<RedisReplication> =>
      eventually(async () => {
        const rr = await getReplication(c, ns, name);
        return readyAtGeneration(rr) && rr.status?.readyReplicas === 3 ? rr : undefined;
      }, 120_000, `RedisReplication ${name} Ready`);
    const snapPassword = await eventually(async () => operatorPassword(c, ns, name), 30_000, 'internal Secret');
    const rr = await ready();
    const primary = podNamed(await memberPods(c, ns, name), rr.status?.primary);
    const old = primary.metadata?.name ?? '';
    const write = async (prefix: string, count: number): Promise<string[]> => {
      const acked: string[] = [];
      for (let i = 0; i < count; i++) {
        await command(primary, snapPassword, ['SET', `${prefix}:${i}`, String(i)]);
        if (Number(await command(primary, snapPassword, ['WAIT', '1', '1000'])) >= 1) acked.push(`${prefix}:${i}`);
      }
      return acked;
    };
    const before = await write('snap:before', 100);
    expect(await command(primary, snapPassword, ['SAVE'])).toBe('OK');
    const after = await write('snap:after', 200);
    expect(after.length).toBeGreaterThan(0);
    const killedAt = Date.now();
    killRedis(primary);
    // Whatever path the operator takes, the replication must settle with every acknowledged write on its primary.
    const restartedPod = await eventually(async () => {
      const pod = podNamed(await memberPods(c, ns, name), old);
      return restartCount(pod) > 0 && pod.status?.containerStatuses?.find((x) => x.name === 'redis')?.ready === true ? pod : undefined;
    }, 60_000, `${old} restarted`);
    // The premise of the scenario: the container was back (with its claim's snapshot) within downAfterMilliseconds,
    // so no "has not answered" failover could have saved the writes (the kubelet's times have a 1 s resolution).
    const status = restartedPod.status?.containerStatuses?.find((x) => x.name === 'redis');
    const gapMs = Date.parse(String(status?.state?.running?.startedAt ?? '')) - Date.parse(String(status?.lastState?.terminated?.finishedAt ?? ''));
    expect(gapMs).toBeLessThan(DOWN_AFTER_MS);
    const settled = await ready();
    const now = podNamed(await memberPods(c, ns, name), settled.status?.primary);
    const acknowledged = [...before, ...after];
    const values = (await command(now, snapPassword, ['MGET', ...acknowledged])) as (string | null)[];
    const missingKeys = acknowledged.filter((_, i) => values[i] === null);
    const events = (await c.client.list(eventType, { namespace: ns })).items.filter((e) => e.regarding.name === name && /^(Failover|Primary)/.test(e.reason));
    console.info(`snapshot kill of primary ${old} (container back after ${gapMs / 1000} s): primary after ${settled.status?.primary ?? ''} (${((Date.now() - killedAt) / 1000).toFixed(2)} s to Ready); ${missingKeys.length} of ${acknowledged.length} acknowledged writes missing; events: ${events.map((e) => `${e.reason}: ${e.note ?? ''}`).join(' | ') || 'none'}`);
    expect(missingKeys).toEqual([]);
  });

  it('a deleted member Pod comes back on the same claim and PersistentVolume, with the data it saved there', async () => {
    const rr = await readyReplication();
    const replica = (await memberPods(c, ns, NAME)).find((p) => p.metadata?.name !== rr.status?.primary);
    if (replica === undefined) throw new Error('no replica');
    const name = replica.metadata?.name ?? '';
    const claimBefore = await c.client.get(kinds.persistentVolumeClaim, { namespace: ns, name: `data-${name}` });
    const keys = Number((await info(replica, 'keyspace')).get('db0')?.match(/keys=(\d+)/)?.[1] ?? '0');
    expect(keys).toBeGreaterThan(0);
    await c.client.delete(coreTypes.pod, { namespace: ns, name });
    const recreated = await eventually(async () => {
      const pod = (await memberPods(c, ns, NAME)).find((p) => p.metadata?.name === name);
      return pod !== undefined && pod.metadata?.uid !== replica.metadata?.uid && pod.status?.containerStatuses?.find((x) => x.name === 'redis')?.ready === true ? pod : undefined;
    }, 120_000, `${name} re-created and ready`);
    const claimAfter = await c.client.get(kinds.persistentVolumeClaim, { namespace: ns, name: `data-${name}` });
    expect({ uid: claimAfter.metadata?.uid, volume: claimAfter.spec?.volumeName, phase: claimAfter.status?.phase }).toEqual({ uid: claimBefore.metadata?.uid, volume: claimBefore.spec?.volumeName, phase: 'Bound' });
    // redis-server saved an RDB at SIGTERM (the Redis defaults for `save` apply with storage) and the new container
    // loaded it from the same volume before any resynchronisation.
    const log = await podLog(ns, name, 'redis');
    expect(log).toMatch(/DB loaded from disk/);
    const loaded = Number(/keys loaded: (\d+)/.exec(log)?.[1] ?? '0');
    expect(loaded).toBeGreaterThan(0);
    await rejoinsAsReplica(name, 60_000);
    await readyReplication();
    expect(restartCount(recreated)).toBe(0);
    console.info(`deleted Pod ${name}: re-created on claim ${claimAfter.metadata?.name ?? ''} (volume ${claimAfter.spec?.volumeName ?? ''}), loaded ${loaded} of ${keys} keys from disk`);
  });

  it('deleting the RedisReplication leaves the claims (the StatefulSet does not delete them)', async () => {
    await c.client.delete(redisReplications.type, { namespace: ns, name: NAME });
    await eventually(async () => {
      try {
        await c.client.get(kinds.statefulSet, { namespace: ns, name: NAME });
        return false;
      } catch (err) {
        return isNotFound(err);
      }
    }, 60_000, 'StatefulSet gone');
    const claims = await c.client.list(kinds.persistentVolumeClaim, { namespace: ns, labelSelector: `redis.domain-operators.io/replication=${NAME}` });
    expect(claims.items.map((claim) => claim.metadata?.name).sort()).toEqual([`data-${NAME}-0`, `data-${NAME}-1`, `data-${NAME}-2`]);
    expect(claims.items.every((claim) => claim.status?.phase === 'Bound')).toBe(true);
  });
});
