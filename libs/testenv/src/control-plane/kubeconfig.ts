import { readFile } from 'node:fs/promises';

/** Inputs of a client-certificate kubeconfig with one cluster, one user and one context. */
export interface KubeconfigSpec {
  readonly server: string;
  readonly caFile: string;
  readonly certFile: string;
  readonly keyFile: string;
  /** Cluster and context name; `testenv` for the admin kubeconfig. */
  readonly clusterName: string;
  readonly userName: string;
}

/**
 * Renders a kubeconfig with the certificates embedded, so it keeps working when copied elsewhere
 * (tests in another working directory, a CI artifact). Reads the PEM files; otherwise pure.
 */
export async function renderKubeconfig(spec: KubeconfigSpec): Promise<string> {
  const b64 = async (file: string): Promise<string> => (await readFile(file)).toString('base64');
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    `- name: ${spec.clusterName}`,
    '  cluster:',
    `    server: ${spec.server}`,
    `    certificate-authority-data: ${await b64(spec.caFile)}`,
    'users:',
    `- name: ${spec.userName}`,
    '  user:',
    `    client-certificate-data: ${await b64(spec.certFile)}`,
    `    client-key-data: ${await b64(spec.keyFile)}`,
    'contexts:',
    `- name: ${spec.clusterName}`,
    '  context:',
    `    cluster: ${spec.clusterName}`,
    `    user: ${spec.userName}`,
    `current-context: ${spec.clusterName}`,
    '',
  ].join('\n');
}
