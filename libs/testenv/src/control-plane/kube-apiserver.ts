import { controlPlanePorts } from './layout.ts';
import type { ControlPlanePki } from './pki.ts';
import { etcdClientUrl } from './etcd.ts';

/** The apiserver's URL as clients reach it. */
export const apiserverUrl = `https://127.0.0.1:${controlPlanePorts.apiserver}`;

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
 * - authorization is RBAC only (there are no kubelets for the Node authorizer to serve);
 * - `--endpoint-reconciler-type=none`: the `kubernetes` Service would otherwise get Endpoints with the
 *   loopback address, which validation rejects (ValidateEndpointIP) on every reconcile, filling the log;
 *   the price is one harmless "Found stale data, removed previous endpoints" error line per start;
 * - the audit log is written synchronously (the default `blocking` mode), so a test sees its writes
 *   counted once the requests returned; it is never rotated (`down` deletes it).
 * Pure.
 */
export function kubeApiserverArgs(input: KubeApiserverArgsInput): string[] {
  const { pki } = input;
  return [
    `--etcd-servers=${etcdClientUrl}`,
    '--bind-address=127.0.0.1',
    '--advertise-address=127.0.0.1',
    `--secure-port=${controlPlanePorts.apiserver}`,
    `--cert-dir=${input.certDir}`,
    `--tls-cert-file=${pki.servingCert}`,
    `--tls-private-key-file=${pki.servingKey}`,
    `--client-ca-file=${pki.clientCaCert}`,
    '--authorization-mode=RBAC',
    `--service-account-issuer=${serviceAccountIssuer}`,
    `--service-account-key-file=${pki.serviceAccountPub}`,
    `--service-account-signing-key-file=${pki.serviceAccountKey}`,
    '--service-cluster-ip-range=10.0.0.0/24',
    '--allow-privileged=true',
    '--endpoint-reconciler-type=none',
    `--audit-policy-file=${input.auditPolicyFile}`,
    `--audit-log-path=${input.auditLog}`,
    '--audit-log-format=json',
  ];
}
