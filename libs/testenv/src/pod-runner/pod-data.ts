import type { V1Pod } from '@kubernetes/client-node';
import type { ReferencedData } from './env.ts';
import { referencedNames } from './env.ts';
import type { Kube } from './kube.ts';
import { apiStatus } from './kube.ts';

/** The raw bytes of every ConfigMap and Secret a pod refers to; a missing object has no entry. */
export interface PodData extends ReferencedData {
  configMapFiles(name: string): ReadonlyMap<string, Buffer> | undefined;
  secretFiles(name: string): ReadonlyMap<string, Buffer> | undefined;
}

async function orMissing<T>(request: Promise<T>): Promise<T | undefined> {
  try {
    return await request;
  } catch (err) {
    if (apiStatus(err) === 404) return undefined;
    throw err;
  }
}

function asText(files: ReadonlyMap<string, Buffer> | undefined): Record<string, string> | undefined {
  return files === undefined ? undefined : Object.fromEntries([...files].map(([k, v]) => [k, v.toString('utf8')]));
}

/** Reads the ConfigMaps and Secrets `pod` refers to (see `referencedNames`), fresh from the API. */
export async function fetchPodData(kube: Kube, pod: V1Pod): Promise<PodData> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const refs = referencedNames(pod);
  const configMaps = new Map<string, Map<string, Buffer>>();
  const secrets = new Map<string, Map<string, Buffer>>();
  await Promise.all([
    ...[...refs.configMaps].map(async (name) => {
      const cm = await orMissing(kube.core.readNamespacedConfigMap({ name, namespace }));
      if (cm === undefined) return;
      const files = new Map<string, Buffer>();
      for (const [k, v] of Object.entries(cm.data ?? {})) files.set(k, Buffer.from(v, 'utf8'));
      for (const [k, v] of Object.entries(cm.binaryData ?? {})) files.set(k, Buffer.from(v, 'base64'));
      configMaps.set(name, files);
    }),
    ...[...refs.secrets].map(async (name) => {
      const secret = await orMissing(kube.core.readNamespacedSecret({ name, namespace }));
      if (secret === undefined) return;
      const files = new Map<string, Buffer>();
      for (const [k, v] of Object.entries(secret.data ?? {})) files.set(k, Buffer.from(v, 'base64'));
      for (const [k, v] of Object.entries(secret.stringData ?? {})) files.set(k, Buffer.from(v, 'utf8'));
      secrets.set(name, files);
    }),
  ]);
  return {
    configMapFiles: (name) => configMaps.get(name),
    secretFiles: (name) => secrets.get(name),
    configMap: (name) => asText(configMaps.get(name)),
    secret: (name) => asText(secrets.get(name)),
  };
}
