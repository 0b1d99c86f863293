// Reading figures out of the operator's `/metrics` text (Prometheus exposition format).
export { metricSum } from '@domain-operators/e2e-harness';
