import { operatorSmokeSuite } from '@domain-operators/e2e-harness';

// Smoke: the redis operator starts as its chart's ServiceAccount against the real apiserver, reports ready and holds
// exactly the chart's RBAC (the checks are shared by every operator: libs/e2e-harness/src/smoke-suite.ts).
operatorSmokeSuite({
  system: 'redis',
  allowed: { verb: 'watch', group: 'redis.domain-operators.io', resource: 'redisreplications' },
  denied: { verb: 'delete', group: '', resource: 'namespaces' },
});
