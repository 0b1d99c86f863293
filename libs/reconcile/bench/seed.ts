import { createHash } from 'node:crypto';
import type { KubeConfig, V1ConfigMap } from '@kubernetes/client-node';
import { Client } from '../src/client/client.ts';
import { isAlreadyExists } from '../src/core/errors.ts';
import { coreTypes } from '../src/client/resource-type.ts';
import { HttpsRestTransport } from '../src/client/rest.ts';

/** The label every seeded ConfigMap carries, so counting ignores `kube-root-ca.crt` and strays. */
export const SEED_LABEL = 'bench.domain-operators.io/seed';

/** What {@link seedConfigMaps} found and did in one namespace. */
export interface SeedResult {
  readonly namespace: string;
  /** Seeded ConfigMaps present before seeding. */
  readonly found: number;
  /** ConfigMaps this call created (0 when the namespace was already seeded). */
  readonly created: number;
  readonly elapsedMs: number;
}

/**
 * The `index`-th benchmark ConfigMap: about 2 KB of JSON, of which four data values of 448 hex characters, four
 * labels and two annotations. The text is derived from a hash of the name, so every object differs (no value is
 * shared between objects in any client's memory) and reruns produce the same bytes.
 */
export function benchConfigMap(namespace: string, index: number): V1ConfigMap {
  const name = benchName(index);
  const text = (salt: string): string => {
    let out = '';
    for (let round = 0; out.length < 448; round++) out += createHash('sha256').update(`${name}/${salt}/${round}`).digest('hex');
    return out.slice(0, 448);
  };
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace,
      labels: {
        [SEED_LABEL]: 'true',
        'app.kubernetes.io/name': 'reconcile-bench',
        'app.kubernetes.io/instance': namespace,
        'bench.domain-operators.io/shard': String(index % 16),
      },
      annotations: {
        'bench.domain-operators.io/description': `informer benchmark object ${index} of namespace ${namespace}`,
        'bench.domain-operators.io/checksum': text('checksum').slice(0, 64),
      },
    },
    data: {
      'config.properties': text('config'),
      'logging.properties': text('logging'),
      'tuning.properties': text('tuning'),
      'extra.properties': text('extra'),
    },
  };
}

/** The name of the `index`-th benchmark ConfigMap. */
export function benchName(index: number): string {
  return `bench-cm-${String(index).padStart(5, '0')}`;
}

/**
 * Makes sure `namespace` exists and holds exactly ConfigMaps `0 … count-1` (by name, with the seed label), creating
 * the missing ones with at most `concurrency` requests in flight. Objects already there are left alone, so a second
 * run costs one list. Seeded objects beyond `count` are deleted. Rejects on any API error other than AlreadyExists.
 */
export async function seedConfigMaps(kubeConfig: KubeConfig, namespace: string, count: number, concurrency = 32): Promise<SeedResult> {
  const start = performance.now();
  const client = new Client({ rest: await HttpsRestTransport.create(kubeConfig) });
  try {
    await client.create(coreTypes.namespace, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  const existing = await client.listAll(coreTypes.configMap, { namespace, labelSelector: `${SEED_LABEL}=true` });
  const present = new Set(existing.map((object) => object.metadata?.name ?? ''));
  const wanted = new Set(Array.from({ length: count }, (_, index) => benchName(index)));
  const missing = Array.from({ length: count }, (_, index) => index).filter((index) => !present.has(benchName(index)));
  const extra = [...present].filter((name) => !wanted.has(name));

  let next = 0;
  const worker = async (): Promise<void> => {
    for (let position = next++; position < missing.length; position = next++) {
      try {
        await client.create(coreTypes.configMap, benchConfigMap(namespace, missing[position] ?? 0));
      } catch (error) {
        if (!isAlreadyExists(error)) throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, missing.length) }, () => worker()));
  for (const name of extra) await client.delete(coreTypes.configMap, { namespace, name });

  return { namespace, found: present.size, created: missing.length, elapsedMs: performance.now() - start };
}
