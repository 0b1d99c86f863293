// Issue #19 on the real node: a planned switchover requested by annotation, and write fencing. The operator runs as
// its chart's ServiceAccount, the members are redis-server containers started by the kubelet; writes go through the
// primary Service's ClusterIP (kube-proxy) or straight to a Pod IP, as an independent client. SIGSTOP/SIGCONT reach a
// member's redis-server by its host pid (containerd's shim state, `freezeRedis`).
import type { V1Pod } from '@kubernetes/client-node';
import { coreTypes } from '@domain-operators/reconcile';
import type { KubeEvent } from '@domain-operators/reconcile';
import { eventsOnceSeen, startOperator, targetsExistingCluster } from '@domain-operators/e2e-harness';
import type { OperatorProcess } from '@domain-operators/e2e-harness';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cluster,
  command,
  connect,
  connectTo,
  deleteNamespace,
  eventually,
  freezeRedis,
  freshNamespace,
  getReplication,
  memberInfo,
  memberPods,
  objectNames,
  operatorPassword,
  podNamed,
  readyAtGeneration,
  redisImage,
  redisReplications,
  ROLE_LABEL,
  secretValue,
  serviceSelects,
} from './fixtures.ts';
import type { Cluster, RedisReplication } from './fixtures.ts';

const NAME = 'fence';
const SWITCHOVER = 'redis.domain-operators.io/switchover';
let c: Cluster;
let ns = '';
let operator: OperatorProcess | undefined;
let password = '';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

const info = (pod: V1Pod): Promise<Map<string, string>> => memberInfo(pod, password);

/** The message of `SET key value` on `host` (a fresh connection), or 'OK'. */
async function trySet(host: string, key: string, value: string): Promise<string> {
  let redis: Redis | undefined;
  try {
    redis = await connectTo(host, password, 'redis-operator', 2_000);
    return await redis.set(key, value);
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  } finally {
    redis?.disconnect();
  }
}

/** Ready at its generation, every member its linked replica or the labelled primary, the Service on the primary. */
async function converged(): Promise<{ rr: RedisReplication; primary: V1Pod; replicas: V1Pod[] }> {
  return eventually(async () => {
    const rr = await getReplication(c, ns, NAME);
    if (!readyAtGeneration(rr) || rr.status?.readyReplicas !== 3) return undefined;
    const pods = await memberPods(c, ns, NAME);
    const primary = pods.find((p) => p.metadata?.name === rr.status?.primary);
    if (primary === undefined || primary.metadata?.labels?.[ROLE_LABEL] !== 'primary') return undefined;
    const replicas = pods.filter((p) => p !== primary);
    for (const r of replicas) {
      const i = await info(r);
      if (i.get('master_host') !== primary.status?.podIP || i.get('master_link_status') !== 'up' || r.metadata?.labels?.[ROLE_LABEL] !== 'replica') return undefined;
    }
    if (JSON.stringify(await serviceSelects(c, ns, NAME)) !== JSON.stringify([primary.metadata.name])) return undefined;
    return { rr, primary, replicas };
  }, 120_000, 'the replication converged, the primary Service on its primary');
}

function switchoverCondition(rr: RedisReplication): { status: string; reason: string; message: string } | undefined {
  return rr.status?.conditions?.find((x) => x.type === 'Switchover');
}

async function annotate(value: string): Promise<void> {
  await c.client.patch(redisReplications.type, { namespace: ns, name: NAME }, { type: 'merge', body: { metadata: { annotations: { [SWITCHOVER]: value } } } });
}

/** Waits until the operator removed the annotation and reported `reason` in the Switchover condition. */
async function switchoverReported(reason: string): Promise<RedisReplication> {
  return eventually(async () => {
    const rr = await getReplication(c, ns, NAME);
    return rr.metadata.annotations?.[SWITCHOVER] === undefined && switchoverCondition(rr)?.reason === reason ? rr : undefined;
  }, 60_000, `the switchover reported as ${reason}, its annotation removed`);
}

/** Freezes the primary until a replica is promoted and the Service selects it; resumes it; returns both. */
async function failOverFrozen(primary: V1Pod): Promise<{ resumedAt: number; newPrimary: V1Pod }> {
  const resume = await freezeRedis(primary);
  try {
    const newPrimary = await eventually(async () => {
      const rr = await getReplication(c, ns, NAME);
      if (rr.status?.primary === undefined || rr.status.primary === primary.metadata?.name) return undefined;
      const pods = await memberPods(c, ns, NAME);
      const promoted = podNamed(pods, rr.status.primary);
      if (JSON.stringify(await serviceSelects(c, ns, NAME)) !== JSON.stringify([promoted.metadata?.name])) return undefined;
      return promoted;
    }, 60_000, 'a replica promoted and selected by the primary Service');
    return { resumedAt: Date.now(), newPrimary };
  } finally {
    resume();
  }
}

beforeAll(async () => {
  c = await cluster();
  operator = await startOperator({ system: 'redis' });
  ns = await freshNamespace(c, 'redis-fence');
  await c.client.create(redisReplications.type, {
    apiVersion: redisReplications.apiVersion,
    kind: redisReplications.kind,
    metadata: { name: NAME, namespace: ns },
    // minReplicasMaxLagSeconds 2, below downAfterMilliseconds: a primary cut off stops taking writes before a promotion.
    spec: { replicas: 3, image: await redisImage(), failover: { enabled: true, downAfterMilliseconds: 5000, minReplicasToWrite: 1, minReplicasMaxLagSeconds: 2 } },
  });
  password = await eventually(() => operatorPassword(c, ns, NAME).catch(() => undefined), 60_000, "the operator's internal Secret");
  await converged();
}, 300_000);

afterAll(async () => {
  await operator?.stop();
  if (ns !== '') await deleteNamespace(c, ns);
});

describe('planned switchover (#19)', () => {
  it('a requested switchover moves the primary and the Service endpoints, and every write acknowledged with WAIT 1 through the Service survives', async () => {
    const { primary, replicas } = await converged();
    const target = replicas[replicas.length - 1]?.metadata?.name ?? '';
    const service = await c.client.get(coreTypes.service, { namespace: ns, name: objectNames(NAME).primary });
    const host = service.spec?.clusterIP ?? '';
    const defaultPassword = secretValue(await c.client.get(coreTypes.secret, { namespace: ns, name: objectNames(NAME).authSecret }), 'password');
    const acknowledged: string[] = [];
    const failures: string[] = [];
    let unacknowledged = 0;
    let switchedAt: number | undefined;
    let acknowledgedAfter = 0;
    const stop = new AbortController();
    const writing = (async () => {
      let writer: Redis | undefined;
      for (let n = 0; !stop.signal.aborted; n++) {
        try {
          // A connection to the old primary (kube-proxy keeps an established one on its Pod) is replaced after an
          // error: a new one goes to whatever the Service selects now.
          writer ??= await connectTo(host, defaultPassword, 'default', 3_000);
          await writer.set(`w:${n}`, String(n));
          if (Number(await writer.call('WAIT', '1', '2000')) >= 1) {
            acknowledged.push(`w:${n}`);
            if (switchedAt !== undefined) acknowledgedAfter++;
          } else {
            unacknowledged++;
          }
        } catch (err) {
          failures.push(err instanceof Error ? err.message : String(err));
          writer?.disconnect();
          writer = undefined;
          await sleep(50);
        }
        await sleep(5);
      }
      writer?.disconnect();
    })();
    try {
      await sleep(1_000);
      const before = acknowledged.length;
      const requestedAt = Date.now();
      await annotate(target);
      const rr = await switchoverReported('SwitchoverCompleted');
      expect(switchoverCondition(rr)?.status).toBe('True');
      await eventually(async () => JSON.stringify(await serviceSelects(c, ns, NAME)) === JSON.stringify([target]), 30_000, 'the primary Service selects the new primary');
      switchedAt = Date.now();
      await eventually(() => Promise.resolve(acknowledgedAfter >= 20 || undefined), 30_000, 'acknowledged writes through the Service after the switchover');
      stop.abort();
      await writing;
      console.info(
        `switchover ${primary.metadata?.name ?? ''} -> ${target}: Service endpoints moved ${switchedAt - requestedAt} ms after the request; ` +
          `${acknowledged.length} writes acknowledged (${before} before the request, ${acknowledgedAfter} after), ${unacknowledged} unacknowledged, ${failures.length} failed: ${[...new Set(failures)].slice(0, 4).join(' | ')}`,
      );
      console.info(`condition: ${switchoverCondition(rr)?.message ?? ''}`);
      expect(before).toBeGreaterThan(0);
      const after = await converged();
      expect(after.primary.metadata?.name).toBe(target);
      const reader = await connect(after.primary, password);
      try {
        const missing: string[] = [];
        for (let i = 0; i < acknowledged.length; i += 500) {
          const keys = acknowledged.slice(i, i + 500);
          const values = await reader.mget(...keys);
          keys.forEach((k, j) => {
            if (values[j] !== k.slice(2)) missing.push(k);
          });
        }
        expect(missing).toEqual([]);
      } finally {
        reader.disconnect();
      }
      const requested = (e: KubeEvent): boolean => e.reason === 'Switchover' && e.action === 'Requested';
      expect((await eventsOnceSeen(c.client, ns, requested, { what: 'a Switchover Event of the request' })).some(requested)).toBe(true);
    } finally {
      stop.abort();
      await writing;
    }
  }, 240_000);

  it('minReplicasToWrite 1: Ready only once the primary takes writes; the first write right after Ready, after a switchover, is accepted (never NOREPLICAS)', async () => {
    const { replicas } = await converged();
    const target = replicas[0]?.metadata?.name ?? '';
    await annotate(target);
    // As `kubectl wait --for=condition=Ready` polls: the first read with Ready=True at the generation and the new primary.
    const waitedOn = new Set<string>();
    const ready = await eventually(async () => {
      const rr = await getReplication(c, ns, NAME);
      const condition = rr.status?.conditions?.find((x) => x.type === 'Ready');
      if (condition?.status === 'False') waitedOn.add(condition.reason);
      return readyAtGeneration(rr) && rr.status?.primary === target ? rr : undefined;
    }, 60_000, `Ready with ${target} as the primary`);
    const pod = podNamed(await memberPods(c, ns, NAME), ready.status?.primary ?? '');
    const answer = await trySet(pod.status?.podIP ?? '', 'after-ready', '1');
    console.info(`first write to ${target} right after Ready: ${answer}; Ready=False reasons seen on the way: ${[...waitedOn].join(', ') || 'none'}`);
    expect(answer).toBe('OK');
    await switchoverReported('SwitchoverCompleted');
  }, 180_000);

  it('a request for a Pod that is not a member is refused with MemberNotFound, the annotation removed and nothing moved', async () => {
    const { primary } = await converged();
    await annotate(`${NAME}-9`);
    const rr = await switchoverReported('MemberNotFound');
    expect(switchoverCondition(rr)?.status).toBe('False');
    expect(rr.status?.primary).toBe(primary.metadata?.name);
  }, 120_000);
});

describe('write fencing at admission (#19)', () => {
  it('refuses minReplicasToWrite above replicas - 1 and minReplicasMaxLagSeconds below 1, with the reason', async () => {
    const refusal = async (failover: Record<string, number>): Promise<string> => {
      try {
        await c.client.create(
          redisReplications.type,
          { apiVersion: redisReplications.apiVersion, kind: redisReplications.kind, metadata: { name: 'refused', namespace: ns }, spec: { replicas: 3, image: 'redis:7.0', failover } },
          { dryRun: true },
        );
        return 'accepted';
      } catch (err) {
        return err instanceof Error ? err.message : String(err);
      }
    };
    expect(await refusal({ minReplicasToWrite: 3 })).toContain('failover.minReplicasToWrite must be at most replicas - 1');
    expect(await refusal({ minReplicasToWrite: 1, minReplicasMaxLagSeconds: 0 })).toMatch(/minReplicasMaxLagSeconds/);
    expect(await refusal({ minReplicasToWrite: 2 })).toBe('accepted');
  });
});

describe.skipIf(targetsExistingCluster())('write fencing (#19)', () => {
  it('every member runs with min-replicas-to-write 1 and min-replicas-max-lag 2', async () => {
    const { primary, replicas } = await converged();
    for (const pod of [primary, ...replicas]) {
      expect(await command(pod, password, ['CONFIG', 'GET', 'min-replicas-*'])).toEqual(expect.arrayContaining(['min-replicas-to-write', '1', 'min-replicas-max-lag', '2']));
    }
  }, 120_000);

  it('minReplicasToWrite 1: a primary whose replicas are stopped refuses writes with NOREPLICAS, and takes them again once they resume', async () => {
    const { primary, replicas } = await converged();
    const host = primary.status?.podIP ?? '';
    expect(await trySet(host, 'fence:before-stop', '1')).toBe('OK');
    const resumes = [];
    try {
      for (const r of replicas) resumes.push(await freezeRedis(r));
      const refused = await eventually(async () => {
        const answer = await trySet(host, 'fence:while-stopped', '1');
        return answer === 'OK' ? undefined : answer;
      }, 30_000, 'the primary refuses writes');
      console.info(`primary ${primary.metadata?.name ?? ''} with both replicas stopped: ${refused}`);
      expect(refused).toMatch(/^NOREPLICAS/);
      expect((await info(primary)).get('role')).toBe('master');
      // Never Ready while the primary refuses writes: here the frozen replicas do not answer the operator either
      // (MemberUnreachable); replicas that answer but do not acknowledge give WritesFenced (unit-tested).
      const fenced = await eventually(async () => {
        const ready = (await getReplication(c, ns, NAME)).status?.conditions?.find((x) => x.type === 'Ready');
        return ready?.status === 'False' ? ready : undefined;
      }, 10_000, 'Ready=False while the primary refuses writes');
      console.info(`Ready=False while writes are refused: ${fenced.reason}: ${fenced.message}`);
      expect(['WritesFenced', 'MemberUnreachable']).toContain(fenced.reason);
    } finally {
      for (const resume of resumes) resume();
    }
    // Ready again only once the primary takes writes: the first write right after Ready is accepted.
    await eventually(async () => readyAtGeneration(await getReplication(c, ns, NAME)), 60_000, 'Ready again after the replicas resumed');
    expect(await trySet(host, 'fence:after-resume', '1')).toBe('OK');
  }, 180_000);

  it('minReplicasToWrite 1: a frozen-then-resumed old primary refuses a write to its own Pod IP and rejoins as a replica without it', async () => {
    const { primary } = await converged();
    const redis = await connect(primary, password);
    try {
      await redis.set('fence:acknowledged', 'kept');
      expect(Number(await redis.call('WAIT', '2', '5000'))).toBe(2);
    } finally {
      redis.disconnect();
    }
    const { resumedAt, newPrimary } = await failOverFrozen(primary);
    const answer = await trySet(primary.status?.podIP ?? '', 'fence:stale', 'from the old primary');
    console.info(`write to the old primary ${primary.metadata?.name ?? ''} ${Date.now() - resumedAt} ms after SIGCONT (minReplicasToWrite 1): ${answer}`);
    expect(answer).toMatch(/^(NOREPLICAS|READONLY)/);
    await eventually(async () => {
      const i = await info(podNamed(await memberPods(c, ns, NAME), primary.metadata?.name));
      return i.get('role') === 'slave' && i.get('master_host') === newPrimary.status?.podIP && i.get('master_link_status') === 'up';
    }, 60_000, 'the old primary replicates from the new one');
    expect(await command(newPrimary, password, ['GET', 'fence:stale'])).toBeNull();
    expect(await command(newPrimary, password, ['GET', 'fence:acknowledged'])).toBe('kept');
    expect(await command(primary, password, ['GET', 'fence:acknowledged'])).toBe('kept');
  }, 240_000);

  it('minReplicasToWrite 0: the resumed old primary may accept a write until it is demoted, and that write is lost, as the docs state', async () => {
    await c.client.patch(redisReplications.type, { namespace: ns, name: NAME }, { type: 'merge', body: { spec: { failover: { minReplicasToWrite: 0 } } } });
    const { primary, replicas } = await converged();
    for (const pod of [primary, ...replicas]) expect(await command(pod, password, ['CONFIG', 'GET', 'min-replicas-to-write'])).toEqual(['min-replicas-to-write', '0']);
    const { resumedAt, newPrimary } = await failOverFrozen(primary);
    const answer = await trySet(primary.status?.podIP ?? '', 'unfenced:stale', 'from the old primary');
    console.info(`write to the old primary ${primary.metadata?.name ?? ''} ${Date.now() - resumedAt} ms after SIGCONT (minReplicasToWrite 0): ${answer}`);
    expect(answer).toMatch(/^(OK|READONLY)/);
    await eventually(async () => {
      const i = await info(podNamed(await memberPods(c, ns, NAME), primary.metadata?.name));
      return i.get('role') === 'slave' && i.get('master_host') === newPrimary.status?.podIP && i.get('master_link_status') === 'up';
    }, 60_000, 'the old primary replicates from the new one');
    // Accepted or not, the write is on no member: the demoted primary resynchronised from the new one.
    expect(await command(newPrimary, password, ['GET', 'unfenced:stale'])).toBeNull();
    expect(await command(primary, password, ['GET', 'unfenced:stale'])).toBeNull();
  }, 240_000);
});
