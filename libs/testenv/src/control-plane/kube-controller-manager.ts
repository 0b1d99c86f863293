import { controlPlanePorts } from './layout.ts';
import type { ControlPlanePki } from './pki.ts';

/**
 * Controllers that make sense without kubelets or a cloud provider. Deliberately absent:
 * `pod-garbage-collector-controller` (it deletes Pods bound to Nodes that do not exist, i.e. every Pod
 * a test binds by hand), node lifecycle/IPAM, and the cloud controllers.
 */
export const controllers = [
  'garbage-collector-controller',
  'namespace-controller',
  'statefulset-controller',
  'deployment-controller',
  'replicaset-controller',
  'serviceaccount-controller',
  'serviceaccount-token-controller',
  'endpointslice-controller',
  // Publishes `kube-root-ca.crt` in every namespace: projected service-account volumes reference it.
  'root-ca-certificate-publisher-controller',
  // Fills aggregated ClusterRoles (admin, edit, view) with rules labelled for aggregation, e.g. for CRDs.
  'clusterrole-aggregation-controller',
  // Holds a claim's finalizer while a Pod uses it and releases it after, so namespaces with StatefulSet claims finish deleting.
  'persistentvolumeclaim-protection-controller',
] as const;

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
    '--kube-api-qps=100',
    '--kube-api-burst=200',
  ];
}
