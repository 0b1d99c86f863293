import type { V1EndpointSlice, V1Pod, V1Service } from '@kubernetes/client-node';
import { resourceType } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { scrapeMetrics } from './operator-handle.ts';
import { eventually } from './wait.ts';

const endpointSliceType = resourceType<V1EndpointSlice>({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true });

/**
 * How long a Ready Pod may take to answer through its Service. The path has two asynchronous hops: the EndpointSlice
 * controller writes the Pod's address (it retries "informer cache is out of date" with a backoff that doubles from
 * 1 s, so a loaded control plane can take a minute or more), then kube-proxy writes the DNAT rules.
 */
export const SERVICE_REACH_TIMEOUT_MS = 180_000;

/**
 * One line per EndpointSlice of `service`: each endpoint's address and ready flag, and the ports, as `kubectl get
 * endpointslices -o wide` would show them; "no EndpointSlice" when the controller has written none. Pure.
 */
export function describeEndpointSlices(service: string, slices: readonly V1EndpointSlice[]): string {
  if (slices.length === 0) return `no EndpointSlice for Service ${service}`;
  return slices
    .map((slice) => {
      const endpoints = (slice.endpoints ?? []).map((e) => `${e.addresses.join('/')}${e.conditions?.ready === true ? ' ready' : ' not ready'}`);
      const ports = (slice.ports ?? []).map((p) => `${p.name ?? ''}:${p.port ?? '?'}`);
      return `EndpointSlice ${slice.metadata?.name ?? '?'}: [${endpoints.join(', ')}] ports [${ports.join(', ')}]`;
    })
    .join('; ');
}

/**
 * Waits until `GET <clusterIP>:<port>/metrics` answers 200 through `service` (the chart's metrics Service) and
 * returns that base URL. On timeout it rejects with what each hop showed last: the Service's EndpointSlices and
 * whether `pod` answered at its own address and the Service's target port, so a failure says which hop lagged.
 */
export async function waitMetricsThroughService(client: Client, service: V1Service, pod: V1Pod | undefined, timeoutMs = SERVICE_REACH_TIMEOUT_MS): Promise<string> {
  const port = service.spec?.ports?.find((p) => p.name === 'metrics')?.port ?? 8080;
  const url = `http://${service.spec?.clusterIP ?? ''}:${port}`;
  const name = service.metadata?.name ?? '';
  try {
    await eventually(async () => ((await scrapeMetrics(url).then(() => true, () => false)) ? true : undefined), { timeoutMs, intervalMs: 250, what: `metrics through Service ${name} (${url})` });
    return url;
  } catch (err) {
    const slices = await client
      .list(endpointSliceType, { namespace: service.metadata?.namespace ?? '', labelSelector: `kubernetes.io/service-name=${name}` })
      .then((list) => describeEndpointSlices(name, list.items), (e: unknown) => `EndpointSlices unreadable: ${(e as Error).message}`);
    const podIp = pod?.status?.podIP;
    const target = targetPort(service, pod);
    const direct =
      podIp === undefined || target === undefined
        ? 'the Pod has no IP or no port the Service targets'
        : await scrapeMetrics(`http://${podIp}:${target}`).then(
            () => `the Pod answers at ${podIp}:${target} directly`,
            (e: unknown) => `the Pod does not answer at ${podIp}:${target} either: ${(e as Error).message}`,
          );
    throw new Error(`${(err as Error).message}; ${slices}; ${direct}`, { cause: err });
  }
}

/** The container port number the Service's `metrics` port targets on `pod` (a named target resolves through the Pod's container ports). Pure. */
export function targetPort(service: V1Service, pod: V1Pod | undefined): number | undefined {
  const target = service.spec?.ports?.find((p) => p.name === 'metrics')?.targetPort;
  if (typeof target === 'number') return target;
  const ports = pod?.spec?.containers.flatMap((c) => c.ports ?? []) ?? [];
  return ports.find((p) => p.name === (target ?? 'metrics'))?.containerPort;
}
