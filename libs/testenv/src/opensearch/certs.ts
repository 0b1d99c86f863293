import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runToCompletion } from '../process.ts';

/** PEM files for the node's transport TLS. */
export interface NodeCertificates {
  /** Self-signed CA certificate. */
  readonly caCert: string;
  /** Node certificate signed by the CA, with the SAN registeredID the security plugin recognises nodes by. */
  readonly nodeCert: string;
  /** The node certificate's unencrypted PKCS#8 key. */
  readonly nodeKey: string;
}

/**
 * The `subjectAltName` of the node certificate: registeredID `1.2.3.4.5.5` (the security plugin's default
 * `plugins.security.cert.oid`, which marks inter-node traffic) plus the loopback names.
 */
export const NODE_SUBJECT_ALT_NAME = 'RID:1.2.3.4.5.5,DNS:localhost,IP:127.0.0.1';

/**
 * Makes a CA and a node certificate in `dir` with `openssl`, unless all of them already exist (then reuses
 * them). RSA 2048, SHA-256, ten years, keys mode 0600. openssl's output goes to `logFile`.
 */
export async function ensureNodeCertificates(dir: string, logFile: string): Promise<NodeCertificates> {
  const certs: NodeCertificates = {
    caCert: join(dir, 'ca.pem'),
    nodeCert: join(dir, 'node.pem'),
    nodeKey: join(dir, 'node-key.pem'),
  };
  const caKey = join(dir, 'ca-key.pem');
  if ([certs.caCert, certs.nodeCert, certs.nodeKey, caKey].every((file) => existsSync(file))) return certs;

  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const openssl = (...args: string[]): Promise<void> => runToCompletion('openssl', args, { cwd: dir, logFile });
  const rsaKey = join(dir, 'node-key.rsa.pem');
  const csr = join(dir, 'node.csr');
  const extFile = join(dir, 'node.ext');

  await openssl('genrsa', '-out', caKey, '2048');
  await openssl(
    'req', '-new', '-x509', '-sha256', '-days', '3650', '-key', caKey, '-out', certs.caCert,
    '-subj', '/O=domain-operators/CN=testenv-ca',
    '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  );
  await openssl('genrsa', '-out', rsaKey, '2048');
  await openssl('pkcs8', '-topk8', '-nocrypt', '-in', rsaKey, '-out', certs.nodeKey);
  await openssl('req', '-new', '-key', certs.nodeKey, '-out', csr, '-subj', '/O=domain-operators/CN=localhost');
  await writeFile(
    extFile,
    [
      'basicConstraints=CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      'extendedKeyUsage=serverAuth,clientAuth',
      `subjectAltName=${NODE_SUBJECT_ALT_NAME}`,
      '',
    ].join('\n'),
  );
  await openssl(
    'x509', '-req', '-sha256', '-days', '3650', '-in', csr, '-CA', certs.caCert, '-CAkey', caKey,
    '-set_serial', `0x${randomBytes(16).toString('hex')}`, '-extfile', extFile, '-out', certs.nodeCert,
  );
  await rm(rsaKey);
  await rm(csr);
  await rm(extFile);
  await chmod(caKey, 0o600);
  await chmod(certs.nodeKey, 0o600);
  return certs;
}
