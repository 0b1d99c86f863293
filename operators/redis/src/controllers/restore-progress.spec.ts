import type { V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { restoreFailureOf } from './restore-progress.ts';

function pod(init: NonNullable<NonNullable<V1Pod['status']>['initContainerStatuses']>[number]): V1Pod {
  return { metadata: { name: 'copy-0' }, status: { initContainerStatuses: [init] } };
}
const base = { name: 'restore', image: 'op', imageID: '', ready: false, restartCount: 1 };
const message = JSON.stringify({ reason: 'RestoreVerificationFailed', message: 'SHA-256 differs' });

describe('restoreFailureOf', () => {
  it('reads the agent’s termination message, now or from the last run while the kubelet waits to retry', () => {
    expect(restoreFailureOf(pod({ ...base, state: { terminated: { exitCode: 1, message } } }))).toEqual({ reason: 'RestoreVerificationFailed', message: 'SHA-256 differs' });
    expect(restoreFailureOf(pod({ ...base, state: { waiting: { reason: 'CrashLoopBackOff' } }, lastState: { terminated: { exitCode: 1, message } } }))?.reason).toBe('RestoreVerificationFailed');
  });

  it('keeps the last failure while a retry runs; is undefined on a first run, once it succeeded, and without a Pod', () => {
    expect(restoreFailureOf(pod({ ...base, state: { running: {} }, lastState: { terminated: { exitCode: 1, message } } }))?.reason).toBe('RestoreVerificationFailed');
    expect(restoreFailureOf(pod({ ...base, restartCount: 0, state: { running: {} } }))).toBeUndefined();
    expect(restoreFailureOf(pod({ ...base, state: { terminated: { exitCode: 0 } }, lastState: { terminated: { exitCode: 1, message } } }))).toBeUndefined();
    expect(restoreFailureOf(pod({ ...base, state: { terminated: { exitCode: 0 } } }))).toBeUndefined();
    expect(restoreFailureOf(undefined)).toBeUndefined();
  });

  it('reports an agent that cannot start (a missing credentials Secret) and a crash without our message', () => {
    expect(restoreFailureOf(pod({ ...base, state: { waiting: { reason: 'CreateContainerConfigError', message: 'secret "s3-creds" not found' } } }))).toEqual({
      reason: 'RestoreSourceUnavailable',
      message: 'the restore container cannot start: secret "s3-creds" not found',
    });
    expect(restoreFailureOf(pod({ ...base, state: { terminated: { exitCode: 137, reason: 'OOMKilled' } } }))?.message).toContain('137 (OOMKilled)');
  });
});
