import type { V1Container, V1Pod } from '@kubernetes/client-node';
import { ContainerConfigError } from './config-error.ts';
import { expandVars } from './expand.ts';

/** ConfigMaps and Secrets a pod refers to, fetched beforehand; Secret values are already decoded. */
export interface ReferencedData {
  /** `undefined` when the object does not exist. */
  configMap(name: string): Readonly<Record<string, string>> | undefined;
  secret(name: string): Readonly<Record<string, string>> | undefined;
}

/** The fields `fieldRef` may read. `podIP` is the runner's allocated address. Pure. */
export function fieldValue(pod: V1Pod, fieldPath: string, podIP: string): string | undefined {
  const meta = pod.metadata ?? {};
  const labelOrAnnotation = /^metadata\.(labels|annotations)\['(.+)'\]$/.exec(fieldPath);
  if (labelOrAnnotation !== null) {
    const source = labelOrAnnotation[1] === 'labels' ? meta.labels : meta.annotations;
    return source?.[labelOrAnnotation[2] ?? ''];
  }
  switch (fieldPath) {
    case 'metadata.name':
      return meta.name;
    case 'metadata.namespace':
      return meta.namespace;
    case 'metadata.uid':
      return meta.uid;
    case 'spec.nodeName':
      return pod.spec?.nodeName;
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName;
    case 'status.podIP':
    case 'status.podIPs':
      return podIP;
    case 'status.hostIP':
    case 'status.hostIPs':
      return '127.0.0.1';
    default:
      return undefined;
  }
}

/**
 * A container's environment as the kubelet builds it: `envFrom` sources first (with their prefix), then `env`
 * in order, each `value` expanded with the variables defined before it; `valueFrom` reads Secrets, ConfigMaps,
 * pod fields and resource limits. Throws {@link ContainerConfigError} for a missing non-optional reference. Pure.
 */
export function containerEnv(pod: V1Pod, container: V1Container, data: ReferencedData, podIP: string): Map<string, string> {
  const vars = new Map<string, string>();
  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    const cm = source.configMapRef;
    const sec = source.secretRef;
    const values = cm !== undefined ? data.configMap(cm.name ?? '') : sec !== undefined ? data.secret(sec.name ?? '') : {};
    if (values === undefined) {
      if ((cm?.optional ?? sec?.optional) === true) continue;
      throw new ContainerConfigError(`${cm !== undefined ? 'configmap' : 'secret'} "${cm?.name ?? sec?.name ?? ''}" not found`);
    }
    for (const [key, value] of Object.entries(values)) vars.set(prefix + key, value);
  }
  for (const entry of container.env ?? []) {
    const value = envValue(pod, container, entry, data, podIP, vars);
    if (value !== undefined) vars.set(entry.name, value);
  }
  return vars;
}

function envValue(
  pod: V1Pod,
  container: V1Container,
  entry: NonNullable<V1Container['env']>[number],
  data: ReferencedData,
  podIP: string,
  vars: ReadonlyMap<string, string>,
): string | undefined {
  const from = entry.valueFrom;
  if (from === undefined) return expandVars(entry.value ?? '', vars);
  if (from.fieldRef !== undefined) return fieldValue(pod, from.fieldRef.fieldPath, podIP) ?? '';
  if (from.resourceFieldRef !== undefined) {
    const resource = from.resourceFieldRef.resource;
    const [kind, name] = resource.split('.');
    const source = kind === 'limits' ? container.resources?.limits : container.resources?.requests;
    const quantity = source?.[name ?? ''];
    return quantity ?? '0';
  }
  const keyRef = from.secretKeyRef ?? from.configMapKeyRef;
  if (keyRef === undefined) return undefined;
  const kind = from.secretKeyRef !== undefined ? 'secret' : 'configmap';
  const values = kind === 'secret' ? data.secret(keyRef.name ?? '') : data.configMap(keyRef.name ?? '');
  const value = values?.[keyRef.key];
  if (value !== undefined) return value;
  if (keyRef.optional === true) return undefined;
  throw new ContainerConfigError(
    values === undefined
      ? `${kind} "${keyRef.name ?? ''}" not found`
      : `couldn't find key ${keyRef.key} in ${kind === 'secret' ? 'Secret' : 'ConfigMap'} ${pod.metadata?.namespace ?? ''}/${keyRef.name ?? ''}`,
  );
}

/** Names of every ConfigMap and Secret the pod's containers and volumes refer to. Pure. */
export function referencedNames(pod: V1Pod): { configMaps: Set<string>; secrets: Set<string> } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  for (const container of [...(pod.spec?.containers ?? []), ...(pod.spec?.initContainers ?? [])]) {
    for (const source of container.envFrom ?? []) {
      if (source.configMapRef?.name !== undefined) configMaps.add(source.configMapRef.name);
      if (source.secretRef?.name !== undefined) secrets.add(source.secretRef.name);
    }
    for (const entry of container.env ?? []) {
      if (entry.valueFrom?.configMapKeyRef?.name !== undefined) configMaps.add(entry.valueFrom.configMapKeyRef.name);
      if (entry.valueFrom?.secretKeyRef?.name !== undefined) secrets.add(entry.valueFrom.secretKeyRef.name);
    }
  }
  for (const volume of pod.spec?.volumes ?? []) {
    if (volume.configMap?.name !== undefined) configMaps.add(volume.configMap.name);
    if (volume.secret?.secretName !== undefined) secrets.add(volume.secret.secretName);
    for (const source of volume.projected?.sources ?? []) {
      if (source.configMap?.name !== undefined) configMaps.add(source.configMap.name);
      if (source.secret?.name !== undefined) secrets.add(source.secret.name);
    }
  }
  return { configMaps, secrets };
}
