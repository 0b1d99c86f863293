import type { V1EndpointSlice, V1Pod, V1Service } from '@kubernetes/client-node';
import { resourceType } from '@domain-operators/reconcile';
import type { Client } from '@domain-operators/reconcile';
import { scrapeMetrics } from './operator-handle.ts';
import { eventually } from './wait.ts';

const endpointSliceType = resourceType<V1EndpointSlice>({ group: 'discovery.k8s.io', version: 'v1', kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true });

/**
 * How long a Ready Pod may take to appear, ready and on the metrics port, in its Service's EndpointSlice. The
 * EndpointSlice controller retries "informer cache is out of date" with a backoff that doubles from 1 s, so a
 * loaded control plane can take a minute or more.
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
 * The `http://<address>:<port>` at which `slices` list `podIp` as a ready endpoint of the port named `metrics`, or
 * `undefined` when they do not (yet). Pure.
 */
export function metricsEndpoint(slices: readonly V1EndpointSlice[], podIp: string | undefined): string | undefined {
  if (podIp === undefined) return undefined;
  for (const slice of slices) {
    const port = slice.ports?.find((p) => p.name === 'metrics')?.port;
    const listed = slice.endpoints?.some((e) => e.conditions?.ready === true && e.addresses.includes(podIp)) === true;
    if (port !== undefined && listed) return `http://${podIp}:${port}`;
  }
  return undefined;
}

/**
 * Waits until `service` (the chart's metrics Service) reaches `pod`'s metrics the way Prometheus does through a
 * ServiceMonitor: its EndpointSlice lists the Pod as ready on the port named `metrics`, and `GET /metrics` at that
 * address and port answers 200. Resolves with that base URL. Not through the ClusterIP: the DNAT to it is the node's
 * kube-proxy's job, and a check through it failed for 180 s with the EndpointSlice ready and the Pod answering
 * directly (the policy e2e of 2026-12-01 19:23, a Service recreated under the same name). On timeout it rejects with
 * what it saw last: the Service's EndpointSlices and the last scrape error.
 */
export async function waitMetricsThroughService(client: Client, service: V1Service, pod: V1Pod | undefined, timeoutMs = SERVICE_REACH_TIMEOUT_MS): Promise<string> {
  const name = service.metadata?.name ?? '';
  const namespace = service.metadata?.namespace ?? '';
  const podIp = pod?.status?.podIP;
  let slices: readonly V1EndpointSlice[] = [];
  try {
    return await eventually(
      async () => {
        slices = (await client.list(endpointSliceType, { namespace, labelSelector: `kubernetes.io/service-name=${name}` })).items;
        const url = metricsEndpoint(slices, podIp);
        if (url === undefined) return undefined;
        await scrapeMetrics(url);
        return url;
      },
      { timeoutMs, intervalMs: 250, what: `Pod ${podIp ?? '(no IP)'} ready on port metrics of Service ${name}, answering /metrics` },
    );
  } catch (err) {
    throw new Error(`${(err as Error).message}; ${describeEndpointSlices(name, slices)}`, { cause: err });
  }
}
