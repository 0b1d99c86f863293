import type { KubeConfig } from '@kubernetes/client-node';
import { readFileSync } from 'node:fs';
import type { RestTransport } from '@domain-operators/reconcile';
import { stringify } from 'yaml';

/** What a kubeconfig for one ServiceAccount token holds. The token is a secret: never log it. */
export interface TokenKubeconfigInput {
  /** `https://host:port` of the apiserver. */
  readonly server: string;
  /** PEM of the CA that signed the apiserver's serving certificate. */
  readonly certificateAuthority: string;
  /** A bearer token, e.g. from the TokenRequest API. */
  readonly token: string;
  /** Namespace of the context: the namespace the process runs "in" (the operator's Lease namespace). */
  readonly namespace: string;
  /** Name of the cluster, user and context entries, e.g. `system:serviceaccount:ns:name`. */
  readonly name: string;
}

/**
 * Renders a kubeconfig whose only credential is `input.token` (no client certificate, no exec plugin), so a
 * process using it has exactly the rights RBAC gives that token. Pure.
 */
export function renderTokenKubeconfig(input: TokenKubeconfigInput): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: input.name,
        cluster: { server: input.server, 'certificate-authority-data': Buffer.from(input.certificateAuthority, 'utf8').toString('base64') },
      },
    ],
    users: [{ name: input.name, user: { token: input.token } }],
    contexts: [{ name: input.name, context: { cluster: input.name, user: input.name, namespace: input.namespace } }],
    'current-context': input.name,
    preferences: {},
  });
}

/** The server URL and CA PEM of a kubeconfig's current cluster. Throws when it has no cluster or no CA. */
export function clusterEndpoint(kubeConfig: KubeConfig): { readonly server: string; readonly certificateAuthority: string } {
  const cluster = kubeConfig.getCurrentCluster();
  if (cluster === null) throw new Error('the admin kubeconfig has no current cluster');
  const certificateAuthority =
    cluster.caData !== undefined && cluster.caData !== ''
      ? Buffer.from(cluster.caData, 'base64').toString('utf8')
      : cluster.caFile !== undefined && cluster.caFile !== ''
        ? readFileSync(cluster.caFile, 'utf8')
        : undefined;
  if (certificateAuthority === undefined) throw new Error(`cluster ${cluster.name} in the admin kubeconfig has no CA`);
  return { server: cluster.server, certificateAuthority };
}

/** Options for {@link requestServiceAccountToken}. */
export interface TokenRequestOptions {
  readonly namespace: string;
  readonly serviceAccount: string;
  /** Lifetime asked for; the apiserver may shorten it. Default two hours. */
  readonly expirationSeconds?: number;
}

/**
 * Mints a bound token for a ServiceAccount with the TokenRequest API (`POST …/serviceaccounts/<name>/token`), as the
 * kubelet does for a Pod, with the apiserver's default audience. `rest` must be allowed to create
 * `serviceaccounts/token` (the admin is). Resolves with the token, a secret: never log it.
 */
export async function requestServiceAccountToken(rest: RestTransport, options: TokenRequestOptions): Promise<string> {
  const response = (await rest.json({
    method: 'POST',
    path: `/api/v1/namespaces/${encodeURIComponent(options.namespace)}/serviceaccounts/${encodeURIComponent(options.serviceAccount)}/token`,
    body: {
      apiVersion: 'authentication.k8s.io/v1',
      kind: 'TokenRequest',
      spec: { expirationSeconds: options.expirationSeconds ?? 7_200 },
    },
  })) as { status?: { token?: unknown } };
  const token = response.status?.token;
  if (typeof token !== 'string' || token === '') throw new Error(`TokenRequest for ${options.namespace}/${options.serviceAccount} returned no token`);
  return token;
}
