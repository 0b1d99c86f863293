import { Counter } from 'prom-client';
import type { Registry } from 'prom-client';
import type { RequestCounter } from './kafka/platformatic-admin.ts';

/**
 * `kafka_operator_admin_requests_total{api}`: admin requests sent to Kafka by API name (Metadata, CreateTopics, …),
 * registered on `registry` (the Manager's, so `/metrics` serves it). With `kafka_operator` topics counted by the
 * runtime's metrics, requests per topic follow. Call once per registry.
 */
export function adminRequestCounter(registry: Registry): RequestCounter {
  const counter = new Counter({ name: 'kafka_operator_admin_requests_total', help: 'Admin requests sent to Kafka, by API.', labelNames: ['api'], registers: [registry] });
  return { count: (api) => { counter.inc({ api }); } };
}
