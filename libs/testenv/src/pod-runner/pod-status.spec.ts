import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import type { ContainerRuntime } from './pod-status.ts';
import { mergeConditions, notRunnableStatus, podPhase, podStatus } from './pod-status.ts';

const t0 = new Date('2025-01-01T00:00:00.400Z');
const t1 = new Date('2025-01-01T00:00:05Z');
const pod: V1Pod = { metadata: { uid: 'u1', name: 'r-0', namespace: 'ns' }, spec: { containers: [{ name: 'redis', image: 'redis:7.2' }] } };

function running(ready: boolean, extra: Partial<ContainerRuntime> = {}): ContainerRuntime {
  return { name: 'redis', image: 'redis:7.2', restartCount: 0, phase: { kind: 'running', startedAt: t0, pid: 42 }, ready, restarting: false, ...extra };
}

describe('podPhase', () => {
  it('is Pending until every container started', () => {
    expect(podPhase([{ ...running(false), phase: { kind: 'waiting', reason: 'ContainerCreating' } }])).toBe('Pending');
  });

  it('is Running while a container runs or restarts', () => {
    expect(podPhase([running(false)])).toBe('Running');
    const exited = { exitCode: 137, reason: 'Error', startedAt: t0, finishedAt: t1 };
    expect(podPhase([{ ...running(false), restartCount: 1, restarting: true, phase: { kind: 'waiting', reason: 'CrashLoopBackOff' }, lastTermination: exited }])).toBe('Running');
  });

  it('ends Succeeded or Failed', () => {
    const done = (exitCode: number): ContainerRuntime => ({ ...running(false), phase: { kind: 'terminated', exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', startedAt: t0, finishedAt: t1 } });
    expect(podPhase([done(0), done(0)])).toBe('Succeeded');
    expect(podPhase([done(0), done(1)])).toBe('Failed');
  });
});

describe('podStatus', () => {
  it('reports a ready running pod', () => {
    const status = podStatus(pod, { podIP: '127.0.2.7', startTime: t0, containers: [running(true)] }, t1);
    expect(status.phase).toBe('Running');
    expect(status.podIP).toBe('127.0.2.7');
    expect(status.podIPs).toEqual([{ ip: '127.0.2.7' }]);
    expect(status.hostIP).toBe('127.0.0.1');
    expect(status.startTime).toEqual(new Date('2025-01-01T00:00:00Z'));
    expect(status.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['PodScheduled', 'True'], ['Initialized', 'True'], ['ContainersReady', 'True'], ['Ready', 'True'],
    ]);
    expect(status.containerStatuses?.[0]).toMatchObject({
      name: 'redis', ready: true, started: true, restartCount: 0, state: { running: { startedAt: new Date('2025-01-01T00:00:00Z') } }, lastState: {},
    });
  });

  it('reports a restarted container with its last termination', () => {
    const last = { exitCode: 137, signal: 'SIGKILL', reason: 'Error', startedAt: t0, finishedAt: t1 };
    const status = podStatus(pod, { podIP: '127.0.2.7', startTime: t0, containers: [running(false, { restartCount: 1, lastTermination: last })] }, t1);
    expect(status.containerStatuses?.[0]?.restartCount).toBe(1);
    expect(status.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ exitCode: 137, reason: 'Error' });
    expect(status.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady' });
  });

  it('waits for readiness gates', () => {
    const gated: V1Pod = { metadata: { uid: 'u1' }, spec: { containers: [{ name: 'redis' }], readinessGates: [{ conditionType: 'example.com/gate' }] } };
    const status = podStatus(gated, { podIP: '127.0.2.7', startTime: t0, containers: [running(true)] }, t1);
    expect(status.conditions?.find((c) => c.type === 'Ready')?.status).toBe('False');
  });
});

describe('mergeConditions', () => {
  it('keeps transition times of unchanged conditions and foreign conditions', () => {
    const before = [
      { type: 'Ready', status: 'True', lastTransitionTime: t0 },
      { type: 'example.com/gate', status: 'True', lastTransitionTime: t0 },
    ];
    const merged = mergeConditions(before, [{ type: 'Ready', status: 'True' }, { type: 'PodScheduled', status: 'True' }], t1);
    expect(merged).toEqual([
      { type: 'Ready', status: 'True', lastTransitionTime: t0 },
      { type: 'PodScheduled', status: 'True', lastTransitionTime: t1 },
      { type: 'example.com/gate', status: 'True', lastTransitionTime: t0 },
    ]);
  });
});

describe('notRunnableStatus', () => {
  it('keeps the pod Pending with the explanation', () => {
    const message = "testenv's pod runner runs only redis images; nginx cannot run here";
    const status = notRunnableStatus(pod, { runnable: false, container: 'redis', message }, t1);
    expect(status.phase).toBe('Pending');
    expect(status.podIP).toBeUndefined();
    expect(status.containerStatuses?.[0]?.state?.waiting).toEqual({ reason: 'ImageNotRunnable', message });
    expect(status.conditions?.find((c) => c.type === 'testenv.domain-operators.io/Runnable')).toMatchObject({ status: 'False', reason: 'ImageNotRunnable', message });
  });
});
