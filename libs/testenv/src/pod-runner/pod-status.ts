import type { V1ContainerState, V1ContainerStatus, V1Pod, V1PodCondition, V1PodStatus } from '@kubernetes/client-node';
import type { NotRunnable } from './runnable.ts';
import { NOT_RUNNABLE_REASON, RUNNABLE_CONDITION } from './runnable.ts';

/** The host's address, reported as hostIP. */
export const HOST_IP = '127.0.0.1';
/** Reported as imageID: no image is pulled, the host's redis-server runs. */
export const IMAGE_ID = 'testenv://host/redis-server';

/** How a container process ended. */
export interface Termination {
  readonly exitCode: number;
  readonly signal?: string;
  readonly reason: string;
  readonly startedAt: Date;
  readonly finishedAt: Date;
}

/** What the runner knows about one container. */
export type ContainerPhase =
  | { readonly kind: 'waiting'; readonly reason: string; readonly message?: string }
  | { readonly kind: 'running'; readonly startedAt: Date; readonly pid: number }
  | ({ readonly kind: 'terminated' } & Termination);

/** One container's state as tracked by the runner. */
export interface ContainerRuntime {
  readonly name: string;
  readonly image: string;
  readonly restartCount: number;
  readonly phase: ContainerPhase;
  readonly lastTermination?: Termination;
  readonly ready: boolean;
  /** True while a restart is scheduled (so the pod still counts as running). */
  readonly restarting: boolean;
}

/** Everything {@link podStatus} needs about a runnable pod. */
export interface PodRuntime {
  readonly podIP: string;
  readonly startTime: Date;
  readonly containers: readonly ContainerRuntime[];
}

function iso(date: Date): Date {
  return new Date(Math.floor(date.getTime() / 1000) * 1000);
}

function terminatedState(t: Termination): V1ContainerState {
  return {
    terminated: {
      exitCode: t.exitCode,
      reason: t.reason,
      startedAt: iso(t.startedAt),
      finishedAt: iso(t.finishedAt),
      ...(t.signal === undefined ? {} : { message: `killed by ${t.signal}` }),
    },
  };
}

function containerState(phase: ContainerPhase): V1ContainerState {
  switch (phase.kind) {
    case 'waiting':
      return { waiting: { reason: phase.reason, ...(phase.message === undefined ? {} : { message: phase.message }) } };
    case 'running':
      return { running: { startedAt: iso(phase.startedAt) } };
    case 'terminated':
      return terminatedState(phase);
  }
}

/** One container's status. Pure. */
export function containerStatus(uid: string, c: ContainerRuntime): V1ContainerStatus {
  return {
    name: c.name,
    image: c.image,
    imageID: IMAGE_ID,
    ...(c.phase.kind === 'running' ? { containerID: `testenv://${uid}/${c.name}/${c.phase.pid}` } : {}),
    ready: c.ready,
    started: c.phase.kind === 'running',
    restartCount: c.restartCount,
    state: containerState(c.phase),
    lastState: c.lastTermination === undefined ? {} : terminatedState(c.lastTermination),
  };
}

/**
 * The pod phase the kubelet would report: Pending while a container has never started, Running while one runs
 * or is about to restart, then Succeeded when every container exited 0, else Failed. Pure.
 */
export function podPhase(containers: readonly ContainerRuntime[]): 'Pending' | 'Running' | 'Succeeded' | 'Failed' {
  const neverStarted = (c: ContainerRuntime): boolean => c.phase.kind === 'waiting' && c.lastTermination === undefined && c.restartCount === 0;
  if (containers.length === 0 || containers.some(neverStarted)) return 'Pending';
  if (containers.some((c) => c.phase.kind === 'running' || c.restarting || c.phase.kind === 'waiting')) return 'Running';
  return containers.every((c) => c.phase.kind === 'terminated' && c.phase.exitCode === 0) ? 'Succeeded' : 'Failed';
}

const OWNED_CONDITIONS = new Set(['PodScheduled', 'Initialized', 'ContainersReady', 'Ready', RUNNABLE_CONDITION]);

/**
 * Merges the runner's conditions into the pod's current ones: keeps conditions others own (readiness gates…),
 * keeps `lastTransitionTime` when a condition's status did not change. Pure.
 */
export function mergeConditions(current: readonly V1PodCondition[], desired: readonly V1PodCondition[], now: Date): V1PodCondition[] {
  const byType = new Map(current.map((c) => [c.type, c]));
  const owned = desired.map((d) => {
    const before = byType.get(d.type);
    const lastTransitionTime = before?.status === d.status && before.lastTransitionTime !== undefined ? before.lastTransitionTime : iso(now);
    return {
      type: d.type,
      status: d.status,
      ...(d.reason === undefined ? {} : { reason: d.reason }),
      ...(d.message === undefined ? {} : { message: d.message }),
      lastTransitionTime,
    };
  });
  const foreign = current.filter((c) => !OWNED_CONDITIONS.has(c.type) && !desired.some((d) => d.type === c.type));
  return [...owned, ...foreign];
}

function condition(type: string, ok: boolean, reason?: string, message?: string): V1PodCondition {
  return {
    type,
    status: ok ? 'True' : 'False',
    ...(reason === undefined ? {} : { reason }),
    ...(message === undefined ? {} : { message }),
  };
}

function gatesPass(pod: V1Pod): boolean {
  const conditions = pod.status?.conditions ?? [];
  return (pod.spec?.readinessGates ?? []).every((g) => conditions.some((c) => c.type === g.conditionType && c.status === 'True'));
}

/**
 * The status of a pod the runner runs: phase, podIP(s), hostIP(s), startTime, container statuses and the
 * PodScheduled, Initialized, ContainersReady and Ready conditions (Ready also needs the readiness gates). Pure.
 */
export function podStatus(pod: V1Pod, runtime: PodRuntime, now: Date): V1PodStatus {
  const uid = pod.metadata?.uid ?? '';
  const containersReady = runtime.containers.length > 0 && runtime.containers.every((c) => c.ready);
  const notReady = runtime.containers.filter((c) => !c.ready).map((c) => c.name);
  const notReadyMessage = `containers with unready status: [${notReady.join(' ')}]`;
  const ready = containersReady && gatesPass(pod);
  const desired = [
    condition('PodScheduled', true),
    condition('Initialized', true),
    containersReady ? condition('ContainersReady', true) : condition('ContainersReady', false, 'ContainersNotReady', notReadyMessage),
    ready ? condition('Ready', true) : condition('Ready', false, containersReady ? 'ReadinessGatesNotReady' : 'ContainersNotReady', containersReady ? 'the readiness gates are not satisfied' : notReadyMessage),
  ];
  return {
    phase: podPhase(runtime.containers),
    conditions: mergeConditions(pod.status?.conditions ?? [], desired, now),
    hostIP: HOST_IP,
    hostIPs: [{ ip: HOST_IP }],
    podIP: runtime.podIP,
    podIPs: [{ ip: runtime.podIP }],
    startTime: iso(runtime.startTime),
    containerStatuses: runtime.containers.map((c) => containerStatus(uid, c)),
  };
}

/**
 * The status of a pod the runner will not run: phase Pending, every container waiting with reason
 * `ImageNotRunnable` and the runner's condition False with the explanation. Pure.
 */
export function notRunnableStatus(pod: V1Pod, why: NotRunnable, now: Date): V1PodStatus {
  const waiting = (name: string, image: string | undefined): V1ContainerStatus => ({
    name,
    image: image ?? '',
    imageID: '',
    ready: false,
    started: false,
    restartCount: 0,
    state: { waiting: { reason: NOT_RUNNABLE_REASON, message: why.message } },
  });
  const hasInit = (pod.spec?.initContainers ?? []).length > 0;
  const message = `containers with unready status: [${(pod.spec?.containers ?? []).map((c) => c.name).join(' ')}]`;
  const desired = [
    condition('PodScheduled', true),
    hasInit ? condition('Initialized', false, 'ContainersNotInitialized', why.message) : condition('Initialized', true),
    condition('ContainersReady', false, 'ContainersNotReady', message),
    condition('Ready', false, 'ContainersNotReady', message),
    condition(RUNNABLE_CONDITION, false, NOT_RUNNABLE_REASON, why.message),
  ];
  return {
    phase: 'Pending',
    conditions: mergeConditions(pod.status?.conditions ?? [], desired, now),
    hostIP: HOST_IP,
    hostIPs: [{ ip: HOST_IP }],
    ...(pod.status?.startTime === undefined ? { startTime: iso(now) } : {}),
    containerStatuses: (pod.spec?.containers ?? []).map((c) => waiting(c.name, c.image)),
    ...(hasInit ? { initContainerStatuses: (pod.spec?.initContainers ?? []).map((c) => waiting(c.name, c.image)) } : {}),
  };
}
