import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { RequestCounter } from './opensearch/client.ts';

/** Name of the counter {@link openSearchRequestCounter} registers. */
export const REQUESTS_METRIC = 'opensearch_operator_requests_total';

/**
 * `opensearch_operator_requests_total{api}`: requests the operator sent to OpenSearch, by API name in the client's
 * naming (`indices.create`, `indices.get`, `cluster.health`, `security.put_role`, …), registered on `registry` (the
 * Manager's, so `/metrics` serves it). Divided by the resources reconciled, it gives requests per index. Call once
 * per registry (a second call throws, as prom-client refuses a duplicate name).
 */
export function openSearchRequestCounter(registry: Registry): RequestCounter {
  const counter = new Counter({ name: REQUESTS_METRIC, help: 'Requests sent to OpenSearch, by API.', labelNames: ['api'], registers: [registry] });
  return {
    count: (api) => {
      counter.inc({ api });
    },
  };
}
