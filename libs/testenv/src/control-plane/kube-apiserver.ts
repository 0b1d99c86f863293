import { NODE_IP, SERVICE_CIDR } from '../node/addresses.ts';
import { controlPlanePorts } from './layout.ts';
import type { ControlPlanePki } from './pki.ts';
import { etcdClientUrl } from './etcd.ts';

/**
 * The apiserver's URL as clients reach it: on the node's bridge address, so host processes and Pods (through the
 * `kubernetes` Service, whose endpoint the apiserver keeps at this address) reach the same listener.
 */
export const apiserverUrl = `https://${NODE_IP}:${controlPlanePorts.apiserver}`;

/** Issuer of service-account tokens, as in a default cluster. */
export const serviceAccountIssuer = 'https://kubernetes.default.svc.cluster.local';

/** Inputs of {@link kubeApiserverArgs}. */
export interface KubeApiserverArgsInput {
  readonly pki: ControlPlanePki;
  readonly certDir: string;
  readonly auditPolicyFile: string;
  readonly auditLog: string;
}

/**
 * Command-line of kube-apiserver. Notable choices:
 * - admission plugins are the defaults, so ServiceAccount, PodSecurity, webhooks and
 *   ValidatingAdmissionPolicy behave as in a real cluster (envtest disables ServiceAccount; we keep it);
 * - it listens and advertises on the node's bridge address (never 0.0.0.0), so the `kubernetes` Service's endpoint
 *   is an address Pods can reach and EndpointSlice validation accepts (a loopback address is refused);
 * - authorization is Node then RBAC, with the NodeRestriction admission plugin on top of the defaults, as kubeadm
 *   sets up a cluster: the kubelet may only touch its own Node and the Pods bound to it;
 * - it reaches the kubelet (`kubectl logs`, `exec`, `port-forward`) by the Node's InternalIP with a client
 *   certificate of its own;
 * - the audit log is written synchronously (the default `blocking` mode), so a test sees its writes
 *   counted once the requests returned; it is never rotated (`down` deletes it).
 * Pure.
 */
export function kubeApiserverArgs(input: KubeApiserverArgsInput): string[] {
  const { pki } = input;
  return [
    `--etcd-servers=${etcdClientUrl}`,
    `--bind-address=${NODE_IP}`,
    `--advertise-address=${NODE_IP}`,
    `--secure-port=${controlPlanePorts.apiserver}`,
    `--cert-dir=${input.certDir}`,
    `--tls-cert-file=${pki.servingCert}`,
    `--tls-private-key-file=${pki.servingKey}`,
    `--client-ca-file=${pki.clientCaCert}`,
    '--authorization-mode=Node,RBAC',
    '--enable-admission-plugins=NodeRestriction',
    `--kubelet-client-certificate=${pki.apiserverKubeletClientCert}`,
    `--kubelet-client-key=${pki.apiserverKubeletClientKey}`,
    '--kubelet-preferred-address-types=InternalIP',
    `--service-account-issuer=${serviceAccountIssuer}`,
    `--service-account-key-file=${pki.serviceAccountPub}`,
    `--service-account-signing-key-file=${pki.serviceAccountKey}`,
    `--service-cluster-ip-range=${SERVICE_CIDR}`,
    '--allow-privileged=true',
    `--audit-policy-file=${input.auditPolicyFile}`,
    `--audit-log-path=${input.auditLog}`,
    '--audit-log-format=json',
  ];
}
