import type { OperatorProcess, StartOperatorOptions } from './operator-handle.ts';
import { startOperatorPod } from './operator-pod.ts';
import { startOperatorProcess } from './operator-process.ts';

/**
 * Runs an operator for a suite: as a Pod installed by Helm ({@link startOperatorPod}, the default, as users run it),
 * or, with `E2E_OPERATOR_MODE=process`, as a local process ({@link startOperatorProcess}: quicker to iterate on).
 */
export async function startOperator(options: StartOperatorOptions): Promise<OperatorProcess> {
  return process.env['E2E_OPERATOR_MODE'] === 'process' ? startOperatorProcess(options) : startOperatorPod(options);
}
