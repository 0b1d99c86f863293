/**
 * How far the restoring member's `restore` init container got, from its Pod's status (may be stale). Pure.
 */
import type { V1ContainerStatus, V1Pod } from '@kubernetes/client-node';
import { parseTerminationMessage, RESTORE_CONTAINER_NAME, RESTORE_FAILURE_REASONS } from '../agent/restore-plan.ts';
import type { RestoreFailure } from '../agent/restore-plan.ts';

/**
 * The failure the agent reported (its termination message, in the current or the last terminated state: between
 * and during retries the kubelet keeps the last run in `lastState`), or a Pod that cannot start the agent
 * (`CreateContainerConfigError`: the credentials Secret or key is missing). Undefined while it runs or succeeded.
 */
export function restoreFailureOf(pod: V1Pod | undefined): RestoreFailure | undefined {
  const status: V1ContainerStatus | undefined = pod?.status?.initContainerStatuses?.find((s) => s.name === RESTORE_CONTAINER_NAME);
  if (status === undefined) return undefined;
  // A run that succeeded ends it; a retry that runs still reports the last failure (so status and Events do not flip
  // between Restoring and the failure on every retry of the kubelet's back-off).
  if (status.state?.terminated?.exitCode === 0) return undefined;
  for (const terminated of [status.state?.terminated, status.lastState?.terminated]) {
    if (terminated === undefined || terminated.exitCode === 0) continue;
    return parseTerminationMessage(terminated.message) ?? { reason: RESTORE_FAILURE_REASONS.sourceUnavailable, message: `the restore container exited with ${terminated.exitCode} (${terminated.reason ?? 'no reason'})` };
  }
  const waiting = status.state?.waiting;
  if (waiting?.reason === 'CreateContainerConfigError') return { reason: RESTORE_FAILURE_REASONS.sourceUnavailable, message: `the restore container cannot start: ${waiting.message ?? waiting.reason}` };
  return undefined;
}

