import type { V1KeyToPath, V1Pod, V1Volume } from '@kubernetes/client-node';
import { chmod, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, posix } from 'node:path';
import { ContainerConfigError } from './config-error.ts';
import { fieldValue } from './env.ts';
import type { Kube } from './kube.ts';
import type { PodData } from './pod-data.ts';
import { mapPathsInText } from './path-map.ts';
import type { PathMapping } from './path-map.ts';

/** What materialising needs besides the pod. */
export interface VolumeContext {
  readonly kube: Kube;
  readonly data: PodData;
  /** `<pod dir>/volumes`: one sub-directory per volume. */
  readonly volumesDir: string;
  /** `<run dir>/pvc`: claims live in `<namespace>/<claim>` below it. */
  readonly pvcDir: string;
  readonly podIP: string;
}

/** A volume's host directory and whether its files came from the API (and so may have paths rewritten). */
export interface MaterialisedVolume {
  readonly hostDir: string;
  readonly projectedFiles: boolean;
}

async function writeFileAt(dir: string, relative: string, content: Buffer | string, mode: number | undefined): Promise<void> {
  const clean = posix.normalize(relative);
  if (clean.startsWith('..') || posix.isAbsolute(clean)) throw new ContainerConfigError(`invalid volume item path ${relative}`);
  const file = join(dir, clean);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, content);
  await chmod(file, (mode ?? 0o644) | 0o600);
}

async function writeKeys(
  dir: string,
  kind: string,
  name: string,
  files: ReadonlyMap<string, Buffer> | undefined,
  items: readonly V1KeyToPath[] | undefined,
  optional: boolean,
  defaultMode: number | undefined,
): Promise<void> {
  if (files === undefined) {
    if (optional) return;
    throw new ContainerConfigError(`MountVolume.SetUp failed: ${kind} "${name}" not found`, 'ContainerCreating');
  }
  const wanted: readonly V1KeyToPath[] = items ?? [...files.keys()].map((key) => ({ key, path: key }));
  for (const item of wanted) {
    const content = files.get(item.key);
    if (content === undefined) {
      if (optional) continue;
      throw new ContainerConfigError(`MountVolume.SetUp failed: key ${item.key} not found in ${kind} "${name}"`, 'ContainerCreating');
    }
    await writeFileAt(dir, item.path, content, item.mode ?? defaultMode);
  }
}

function downwardValue(pod: V1Pod, fieldPath: string, podIP: string): string {
  const meta = pod.metadata ?? {};
  if (fieldPath === 'metadata.labels' || fieldPath === 'metadata.annotations') {
    const map = (fieldPath === 'metadata.labels' ? meta.labels : meta.annotations) ?? {};
    return Object.keys(map)
      .sort()
      .map((k) => `${k}=${JSON.stringify(map[k])}`)
      .join('\n');
  }
  return fieldValue(pod, fieldPath, podIP) ?? '';
}

async function serviceAccountToken(ctx: VolumeContext, pod: V1Pod, audience: string | undefined, expirationSeconds: number | undefined): Promise<string> {
  const response = await ctx.kube.core.createNamespacedServiceAccountToken({
    name: pod.spec?.serviceAccountName ?? 'default',
    namespace: pod.metadata?.namespace ?? 'default',
    body: {
      spec: {
        audiences: audience === undefined || audience === '' ? [] : [audience],
        expirationSeconds: expirationSeconds ?? 3607,
        boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.metadata?.name ?? '', uid: pod.metadata?.uid ?? '' },
      },
    },
  });
  return response.status?.token ?? '';
}

async function materialiseOne(ctx: VolumeContext, pod: V1Pod, volume: V1Volume): Promise<MaterialisedVolume> {
  const namespace = pod.metadata?.namespace ?? 'default';
  const claim = volume.persistentVolumeClaim?.claimName ?? (volume.ephemeral === undefined ? undefined : `${pod.metadata?.name ?? ''}-${volume.name}`);
  if (claim !== undefined) {
    const hostDir = join(ctx.pvcDir, namespace, claim);
    await mkdir(hostDir, { recursive: true });
    return { hostDir, projectedFiles: false };
  }
  const hostDir = join(ctx.volumesDir, volume.name);
  await mkdir(hostDir, { recursive: true });
  if (volume.configMap !== undefined) {
    const s = volume.configMap;
    await writeKeys(hostDir, 'configmap', s.name ?? '', ctx.data.configMapFiles(s.name ?? ''), s.items, s.optional === true, s.defaultMode);
    return { hostDir, projectedFiles: true };
  }
  if (volume.secret !== undefined) {
    const s = volume.secret;
    await writeKeys(hostDir, 'secret', s.secretName ?? '', ctx.data.secretFiles(s.secretName ?? ''), s.items, s.optional === true, s.defaultMode);
    return { hostDir, projectedFiles: true };
  }
  if (volume.downwardAPI !== undefined) {
    for (const item of volume.downwardAPI.items ?? []) {
      if (item.fieldRef !== undefined) await writeFileAt(hostDir, item.path, downwardValue(pod, item.fieldRef.fieldPath, ctx.podIP), item.mode ?? volume.downwardAPI.defaultMode);
    }
    return { hostDir, projectedFiles: true };
  }
  if (volume.projected !== undefined) {
    const mode = volume.projected.defaultMode;
    for (const source of volume.projected.sources ?? []) {
      if (source.configMap !== undefined) {
        const s = source.configMap;
        await writeKeys(hostDir, 'configmap', s.name ?? '', ctx.data.configMapFiles(s.name ?? ''), s.items, s.optional === true, mode);
      } else if (source.secret !== undefined) {
        const s = source.secret;
        await writeKeys(hostDir, 'secret', s.name ?? '', ctx.data.secretFiles(s.name ?? ''), s.items, s.optional === true, mode);
      } else if (source.downwardAPI !== undefined) {
        for (const item of source.downwardAPI.items ?? []) {
          if (item.fieldRef !== undefined) await writeFileAt(hostDir, item.path, downwardValue(pod, item.fieldRef.fieldPath, ctx.podIP), item.mode ?? mode);
        }
      } else if (source.serviceAccountToken !== undefined) {
        const s = source.serviceAccountToken;
        await writeFileAt(hostDir, s.path, await serviceAccountToken(ctx, pod, s.audience, s.expirationSeconds), mode ?? 0o600);
      }
    }
    return { hostDir, projectedFiles: true };
  }
  // emptyDir, and every other type (hostPath, csi…): an empty directory private to the pod.
  return { hostDir, projectedFiles: false };
}

/**
 * Materialises every volume of `pod` as a host directory: configMap, secret, downwardAPI and projected
 * (configMap, secret, downwardAPI, serviceAccountToken through the TokenRequest API) volumes get their files,
 * persistentVolumeClaim and ephemeral volumes map to `<pvcDir>/<namespace>/<claim>` (kept across pod
 * re-creation), emptyDir and any other type are empty directories. Throws {@link ContainerConfigError} for a
 * missing non-optional ConfigMap, Secret or key.
 */
export async function materialiseVolumes(ctx: VolumeContext, pod: V1Pod): Promise<Map<string, MaterialisedVolume>> {
  const out = new Map<string, MaterialisedVolume>();
  for (const volume of pod.spec?.volumes ?? []) out.set(volume.name, await materialiseOne(ctx, pod, volume));
  return out;
}

async function textFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) out.push(join(entry.parentPath, entry.name));
  }
  return out;
}

/**
 * Rewrites container paths to host paths (see `mapPathsInText`) inside the text files of API-sourced volumes
 * (configMap, secret, downwardAPI, projected), so a redis.conf saying `dir /data` or `include /etc/redis/x.conf`
 * points at the right host directories. Files over 1 MiB or holding NUL bytes are left alone.
 */
export async function rewriteVolumeFiles(volumes: ReadonlyMap<string, MaterialisedVolume>, mappings: readonly PathMapping[]): Promise<void> {
  for (const volume of volumes.values()) {
    if (!volume.projectedFiles) continue;
    for (const file of await textFiles(volume.hostDir)) {
      if ((await stat(file)).size > 1024 * 1024) continue;
      const bytes = await readFile(file);
      if (bytes.includes(0)) continue;
      const text = bytes.toString('utf8');
      const mapped = mapPathsInText(text, mappings);
      if (mapped !== text) await writeFile(file, mapped);
    }
  }
}
