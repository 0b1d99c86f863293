import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { KUBERNETES_SERVICE_IP, NODE_IP, NODE_NAME } from '../node/addresses.ts';

const run = promisify(execFile);

/** PEM files of the control plane's private PKI. */
export interface ControlPlanePki {
  /** CA of serving certificates (kube-apiserver, kube-controller-manager): what clients trust. */
  readonly caCert: string;
  readonly servingCert: string;
  readonly servingKey: string;
  /** CA kube-apiserver accepts client certificates from (`--client-ca-file`). */
  readonly clientCaCert: string;
  /** CN=admin, O=system:masters. */
  readonly adminCert: string;
  readonly adminKey: string;
  /** CN=system:kube-controller-manager, bound by the bootstrap RBAC policy. */
  readonly controllerManagerCert: string;
  readonly controllerManagerKey: string;
  /** CN=system:kube-scheduler, bound by the bootstrap RBAC policy. */
  readonly schedulerCert: string;
  readonly schedulerKey: string;
  /** CN=system:node:<node>, O=system:nodes: the kubelet, checked by the Node authorizer and NodeRestriction. */
  readonly kubeletCert: string;
  readonly kubeletKey: string;
  /** CN=system:kube-proxy, bound to `system:node-proxier` by the bootstrap RBAC policy. */
  readonly kubeProxyCert: string;
  readonly kubeProxyKey: string;
  /** How kube-apiserver authenticates to the kubelet (`kubectl logs`, `exec`): O=system:masters. */
  readonly apiserverKubeletClientCert: string;
  readonly apiserverKubeletClientKey: string;
  /** Service-account token signing key pair. */
  readonly serviceAccountKey: string;
  readonly serviceAccountPub: string;
}

/** The PKI file names under `pkiDir`. Pure. */
export function pkiFiles(pkiDir: string): ControlPlanePki {
  const file = (name: string): string => join(pkiDir, name);
  return {
    caCert: file('ca.crt'),
    servingCert: file('serving.crt'),
    servingKey: file('serving.key'),
    clientCaCert: file('client-ca.crt'),
    adminCert: file('admin.crt'),
    adminKey: file('admin.key'),
    controllerManagerCert: file('kube-controller-manager.crt'),
    controllerManagerKey: file('kube-controller-manager.key'),
    schedulerCert: file('kube-scheduler.crt'),
    schedulerKey: file('kube-scheduler.key'),
    kubeletCert: file('kubelet.crt'),
    kubeletKey: file('kubelet.key'),
    kubeProxyCert: file('kube-proxy.crt'),
    kubeProxyKey: file('kube-proxy.key'),
    apiserverKubeletClientCert: file('apiserver-kubelet-client.crt'),
    apiserverKubeletClientKey: file('apiserver-kubelet-client.key'),
    serviceAccountKey: file('sa.key'),
    serviceAccountPub: file('sa.pub'),
  };
}

/**
 * Names the serving certificate answers to: the node's address (where kube-apiserver listens, reachable from Pods),
 * loopback, the `kubernetes` Service's ClusterIP and its in-cluster names.
 */
const servingSubjectAltNames = [
  `IP:${NODE_IP}`,
  'IP:127.0.0.1',
  `IP:${KUBERNETES_SERVICE_IP}`,
  'DNS:localhost',
  'DNS:kubernetes',
  'DNS:kubernetes.default',
  'DNS:kubernetes.default.svc',
  'DNS:kubernetes.default.svc.cluster.local',
].join(',');

/**
 * Creates the PKI under `pkiDir` with `openssl` unless every file is already there. Idempotent; files are
 * generated in a sibling temporary folder and renamed into place, so a crash never leaves half a PKI.
 * Certificates last ten years: the PKI is kept across `down` so kubeconfigs stay valid.
 */
export async function ensurePki(pkiDir: string): Promise<ControlPlanePki> {
  const files = pkiFiles(pkiDir);
  if ((Object.values(files) as string[]).every((file) => existsSync(file))) return files;

  await mkdir(dirname(pkiDir), { recursive: true });
  const tmp = await mkdtemp(`${pkiDir}.tmp-`);
  try {
    const t = pkiFiles(tmp);
    await selfSignedCa(join(tmp, 'ca.key'), t.caCert, 'testenv-ca');
    await selfSignedCa(join(tmp, 'client-ca.key'), t.clientCaCert, 'testenv-client-ca');
    await leaf({
      key: t.servingKey,
      cert: t.servingCert,
      subject: '/CN=kube-apiserver',
      ca: { cert: t.caCert, key: join(tmp, 'ca.key') },
      extensions: ['extendedKeyUsage=serverAuth', `subjectAltName=${servingSubjectAltNames}`],
    });
    await leaf({
      key: t.adminKey,
      cert: t.adminCert,
      subject: '/O=system:masters/CN=admin',
      ca: { cert: t.clientCaCert, key: join(tmp, 'client-ca.key') },
      extensions: ['extendedKeyUsage=clientAuth'],
    });
    const clients: readonly (readonly [string, string, string])[] = [
      [t.controllerManagerKey, t.controllerManagerCert, '/CN=system:kube-controller-manager'],
      [t.schedulerKey, t.schedulerCert, '/CN=system:kube-scheduler'],
      [t.kubeletKey, t.kubeletCert, `/O=system:nodes/CN=system:node:${NODE_NAME}`],
      [t.kubeProxyKey, t.kubeProxyCert, '/CN=system:kube-proxy'],
      [t.apiserverKubeletClientKey, t.apiserverKubeletClientCert, '/O=system:masters/CN=kube-apiserver-kubelet-client'],
    ];
    for (const [key, cert, subject] of clients) {
      await leaf({ key, cert, subject, ca: { cert: t.clientCaCert, key: join(tmp, 'client-ca.key') }, extensions: ['extendedKeyUsage=clientAuth'] });
    }
    await openssl('genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', t.serviceAccountKey);
    await openssl('pkey', '-in', t.serviceAccountKey, '-pubout', '-out', t.serviceAccountPub);
    await rm(pkiDir, { recursive: true, force: true });
    await rename(tmp, pkiDir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  return files;
}

async function selfSignedCa(key: string, cert: string, commonName: string): Promise<void> {
  await openssl(
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '3650',
    '-subj', `/CN=${commonName}`,
    '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
  );
}

interface LeafSpec {
  readonly key: string;
  readonly cert: string;
  readonly subject: string;
  readonly ca: { readonly cert: string; readonly key: string };
  readonly extensions: readonly string[];
}

async function leaf(spec: LeafSpec): Promise<void> {
  const csr = `${spec.cert}.csr`;
  const ext = `${spec.cert}.ext`;
  const extensions = ['basicConstraints=CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment', ...spec.extensions];
  await writeFile(ext, `${extensions.join('\n')}\n`);
  await openssl('req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', spec.key, '-out', csr, '-subj', spec.subject);
  await openssl(
    'x509', '-req', '-in', csr, '-CA', spec.ca.cert, '-CAkey', spec.ca.key,
    '-set_serial', `0x${randomBytes(16).toString('hex')}`, '-days', '3650', '-extfile', ext, '-out', spec.cert,
  );
  await rm(csr);
  await rm(ext);
}

async function openssl(...args: string[]): Promise<void> {
  try {
    await run('openssl', args);
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr ?? '';
    throw new Error(`apiserver: openssl ${args[0] ?? ''} failed: ${(err as Error).message}\n${stderr}`, { cause: err });
  }
}
