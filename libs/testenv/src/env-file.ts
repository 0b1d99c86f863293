import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** What the control-plane component returns. */
export interface ApiserverInfo {
  /** Path of the admin kubeconfig (client certificate in `system:masters`). */
  readonly kubeconfig: string;
  /** The version `/version` reports, e.g. `v1.35.0`. */
  readonly kubernetesVersion: string;
  /** Path of the audit log (JSON lines, metadata level for writes). */
  readonly auditLog: string;
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** CA that signed the serving certificate, PEM file. */
  readonly caFile: string;
}

/** What the node component returns: the one node that runs Pods, and the cluster's network. */
export interface NodeInfo {
  /** The Node's name (`testenv-node`). */
  readonly name: string;
  /** Its InternalIP: the bridge address where host processes (apiserver, Kafka, OpenSearch) serve Pods. */
  readonly ip: string;
  readonly podCidr: string;
  readonly serviceCidr: string;
  /** The `kube-dns` Service's ClusterIP. */
  readonly clusterDns: string;
  /** `cluster.local`. */
  readonly clusterDomain: string;
  /** The default StorageClass (local-path provisioner). */
  readonly storageClass: string;
  /** containerd's socket (for `ctr` and image imports). */
  readonly containerdSocket: string;
  /** The Redis image imported into the node (Debian's redis-server), e.g. for RedisReplications in tests. */
  readonly redisImage: string;
}

/** A SASL identity. The password is a secret: never log it. */
export interface SaslUser {
  readonly username: string;
  readonly password: string;
  readonly mechanism: 'SCRAM-SHA-512' | 'SCRAM-SHA-256';
}

/** What the Kafka component returns. */
export interface KafkaInfo {
  /** The SASL_PLAINTEXT listener(s), `host:port`. */
  readonly bootstrapServers: readonly string[];
  /** A super user (`super.users`), for admin clients in tests. */
  readonly superUser: SaslUser;
  readonly version: string;
}

/** What the OpenSearch component returns. */
export interface OpenSearchInfo {
  /** `http://127.0.0.1:<port>` (or https when HTTP TLS is on). */
  readonly url: string;
  /** Internal user mapped to `all_access`. The password is a secret: never log it. */
  readonly adminUser: { readonly username: string; readonly password: string };
  /** CA file when the URL is https. */
  readonly caFile?: string;
  readonly version: string;
  /** Whether index management (ISM) is loaded. */
  readonly ism: boolean;
  /**
   * The node's `path.repo`: an `fs` snapshot repository's `location` must be this folder or one under it. A host
   * folder (OpenSearch runs on the host); `down` wipes it.
   */
  readonly snapshotDir: string;
}

/** What the S3 component returns: object storage through the S3 API (path-style). */
export interface S3Info {
  /** `http://10.244.0.1:<port>`: on the node's bridge address, for Pods and host processes alike. */
  readonly endpoint: string;
  /** The region requests are signed for. */
  readonly region: string;
  /** The root user's access key id. */
  readonly accessKeyId: string;
  /** The root user's secret key. A secret: never log it. */
  readonly secretAccessKey: string;
  /** The gateway's version, e.g. `v1.8.0`. */
  readonly version: string;
  /** The host folder it serves: each bucket is a folder, each object a file. `down` wipes it. */
  readonly dataDir: string;
}

/** What the standalone Redis component returns. */
export interface RedisInfo {
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  readonly version: string;
}

/**
 * The contents of `.testenv/env.json`: every component that is up. Tests and tools read this file;
 * a missing key means that component is not running.
 */
export interface TestEnv {
  readonly kubeconfig?: string;
  readonly kubernetesVersion?: string;
  readonly auditLog?: string;
  readonly apiserver?: ApiserverInfo;
  /** Present when the node runs (it comes up with `apiserver`). */
  readonly node?: NodeInfo;
  readonly kafka?: KafkaInfo;
  readonly opensearch?: OpenSearchInfo;
  readonly redis?: RedisInfo;
  readonly s3?: S3Info;
}

/** Reads `env.json`; an absent file is an empty environment. Throws on malformed JSON. */
export async function readEnvFile(file: string): Promise<TestEnv> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw err;
  }
  return JSON.parse(text) as TestEnv;
}

/** Writes `env.json` atomically (temp file and rename) with mode 0600, since it holds passwords. */
export async function writeEnvFile(file: string, env: TestEnv): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(env, null, 2)}\n`, { mode: 0o600 });
  await rename(tmp, file);
}
