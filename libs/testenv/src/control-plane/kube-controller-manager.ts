import { controlPlanePorts } from './layout.ts';
import type { ControlPlanePki } from './pki.ts';

/**
 * The controllers a default cluster runs: `*` is kube-controller-manager's own default set (every controller but
 * the bootstrap-token signer and cleaner). With a real node every one of them has something to do here: among
 * others the resourcequota controller (quota usage, so a ResourceQuota is enforced), disruption (PodDisruptionBudget
 * status), the persistent-volume binder (claims provisioned by the local-path provisioner), the pod garbage
 * collector and node lifecycle. The cloud controllers skip themselves without a cloud provider, and node IPAM
 * without `--allocate-node-cidrs` (host-local IPAM hands out Pod addresses).
 */
export const controllers = ['*'] as const;

/** kube-controller-manager's health endpoint (served with the control plane's serving certificate). */
export const controllerManagerHealthUrl = `https://127.0.0.1:${controlPlanePorts.controllerManager}/healthz`;

/** Inputs of {@link kubeControllerManagerArgs}. */
export interface KubeControllerManagerArgsInput {
  readonly pki: ControlPlanePki;
  /** Kubeconfig with the `system:kube-controller-manager` client certificate. */
  readonly kubeconfig: string;
}

/**
 * Command-line of kube-controller-manager, set up as kubeadm does: its own identity, one service account
 * per controller (`--use-service-account-credentials`, so the audit log names the controller that wrote),
 * no leader election (one instance). Client QPS is raised above the default 20 so namespace deletion and
 * garbage collection keep up with tests. Pure.
 */
export function kubeControllerManagerArgs(input: KubeControllerManagerArgsInput): string[] {
  const { pki } = input;
  return [
    `--kubeconfig=${input.kubeconfig}`,
    `--authentication-kubeconfig=${input.kubeconfig}`,
    `--authorization-kubeconfig=${input.kubeconfig}`,
    // The apiserver has no front proxy, so the requestheader CA that delegated authentication would read
    // from kube-system/extension-apiserver-authentication does not exist: without this, an error every 10 s.
    '--authentication-skip-lookup=true',
    '--leader-elect=false',
    '--use-service-account-credentials=true',
    `--service-account-private-key-file=${pki.serviceAccountKey}`,
    `--root-ca-file=${pki.caCert}`,
    `--controllers=${controllers.join(',')}`,
    '--bind-address=127.0.0.1',
    `--secure-port=${controlPlanePorts.controllerManager}`,
    `--tls-cert-file=${pki.servingCert}`,
    `--tls-private-key-file=${pki.servingKey}`,
    // Quota usage is recomputed at once after a change; the default full resync (5 min) only repairs missed events.
    '--concurrent-resource-quota-syncs=5',
    '--kube-api-qps=100',
    '--kube-api-burst=200',
  ];
}
