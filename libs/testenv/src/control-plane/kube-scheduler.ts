import { controlPlanePorts } from './layout.ts';
import type { ControlPlanePki } from './pki.ts';

/** kube-scheduler's health endpoint (served with the control plane's serving certificate). */
export const schedulerHealthUrl = `https://127.0.0.1:${controlPlanePorts.scheduler}/healthz`;

/** Inputs of {@link kubeSchedulerArgs}. */
export interface KubeSchedulerArgsInput {
  readonly pki: ControlPlanePki;
  /** Kubeconfig with the `system:kube-scheduler` client certificate. */
  readonly kubeconfig: string;
}

/**
 * Command-line of kube-scheduler with its default profile (the real scheduler binds every Pod: resource requests,
 * node selectors, affinity and taints count as in any cluster). Its own identity, no leader election (one
 * instance), serving on loopback with the control plane's certificate. Pure.
 */
export function kubeSchedulerArgs(input: KubeSchedulerArgsInput): string[] {
  return [
    `--kubeconfig=${input.kubeconfig}`,
    `--authentication-kubeconfig=${input.kubeconfig}`,
    `--authorization-kubeconfig=${input.kubeconfig}`,
    '--authentication-skip-lookup=true',
    '--leader-elect=false',
    '--bind-address=127.0.0.1',
    `--secure-port=${controlPlanePorts.scheduler}`,
    `--tls-cert-file=${input.pki.servingCert}`,
    `--tls-private-key-file=${input.pki.servingKey}`,
  ];
}
