import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { humanAge, kubectlGetPodsArgs, logsCommand, operatorPodHealth, podHealthChange, podStatus, podTable } from './local-stack-pods.ts';

const now = new Date('2026-12-01T10:00:00Z');
const pod = (name: string, options: { ready?: boolean; restarts?: number; waiting?: string; ageS?: number; deleting?: boolean } = {}): V1Pod => ({
  metadata: {
    name,
    creationTimestamp: new Date(now.getTime() - (options.ageS ?? 30) * 1000),
    ...(options.deleting === true && { deletionTimestamp: now }),
  },
  spec: { containers: [{ name: 'operator' }] },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: options.ready === false ? 'False' : 'True' }],
    containerStatuses: [
      {
        name: 'operator',
        image: 'i',
        imageID: '',
        ready: options.ready !== false,
        restartCount: options.restarts ?? 0,
        state: options.waiting === undefined ? { running: {} } : { waiting: { reason: options.waiting } },
      },
    ],
  },
});

describe('the operator Pods of the local stack', () => {
  it('asks kubectl for one release namespace and names the log command a user runs', () => {
    expect(kubectlGetPodsArgs('.testenv/kubeconfig', 'kafka-operator-system')).toEqual(['--kubeconfig', '.testenv/kubeconfig', 'get', 'pods', '-n', 'kafka-operator-system']);
    expect(logsCommand('kafka-operator-system', 'kafka-operator')).toBe('kubectl -n kafka-operator-system logs deploy/kafka-operator');
    expect(logsCommand('kafka-operator-system', 'kafka-operator', true)).toBe('kubectl -n kafka-operator-system logs deploy/kafka-operator --previous');
  });

  it('prints ages as kubectl does', () => {
    expect([5, 119, 120, 192, 600, 3_000, 3 * 3600 + 5 * 60, 8 * 3600, 3 * 86_400, 3 * 86_400 + 3600, 9 * 86_400].map((s) => humanAge(s * 1000))).toEqual([
      '5s', '119s', '2m', '3m12s', '10m', '50m', '3h5m', '8h', '3d', '3d1h', '9d',
    ]);
  });

  it('prints the status kubectl would: Terminating, a waiting reason, else the phase', () => {
    expect(podStatus(pod('a'))).toBe('Running');
    expect(podStatus(pod('a', { waiting: 'CrashLoopBackOff', ready: false }))).toBe('CrashLoopBackOff');
    expect(podStatus(pod('a', { deleting: true }))).toBe('Terminating');
  });

  it('prints the table of kubectl get pods when kubectl is not installed', () => {
    expect(podTable([pod('kafka-operator-7c9d5b8f4-x2lqz', { ageS: 14 }), pod('kafka-operator-7c9d5b8f4-zz9k1', { restarts: 2, ready: false, waiting: 'CrashLoopBackOff', ageS: 200 })], 'kafka-operator-system', now)).toBe(
      [
        'NAME                             READY   STATUS             RESTARTS   AGE',
        'kafka-operator-7c9d5b8f4-x2lqz   1/1     Running            0          14s',
        'kafka-operator-7c9d5b8f4-zz9k1   0/1     CrashLoopBackOff   2          3m20s',
      ].join('\n'),
    );
    expect(podTable([], 'kafka-operator-system', now)).toBe('No resources found in kafka-operator-system namespace.');
  });

  it('reports a restart by the kubelet with the previous container\'s log, and readiness lost and regained', () => {
    const logs = { current: 'kubectl -n ns logs deploy/d', previous: 'kubectl -n ns logs deploy/d --previous' };
    const healthy = operatorPodHealth([pod('a')]);
    expect(healthy).toEqual({ ready: true, restarts: 0 });
    const crashing = operatorPodHealth([pod('a', { ready: false, restarts: 1, waiting: 'CrashLoopBackOff' })]);
    expect(crashing).toEqual({ ready: false, restarts: 1, waitingReason: 'CrashLoopBackOff' });
    expect(podHealthChange('kafka-operator', healthy, healthy, logs)).toBeUndefined();
    expect(podHealthChange('kafka-operator', healthy, crashing, logs)).toBe('kafka-operator restarted by the kubelet (1 restart so far, CrashLoopBackOff); why: kubectl -n ns logs deploy/d --previous');
    expect(podHealthChange('kafka-operator', healthy, { ready: false, restarts: 0 }, logs)).toBe('kafka-operator is not Ready; see kubectl -n ns logs deploy/d');
    expect(podHealthChange('kafka-operator', { ready: false, restarts: 1 }, { ready: true, restarts: 1 }, logs)).toBe('kafka-operator is Ready again');
  });
});
