import { operatorSmokeSuite } from '@domain-operators/e2e-harness';

// Smoke: the kafka operator starts as its chart's ServiceAccount against the real apiserver, reports ready and holds
// exactly the chart's RBAC (the checks are shared by every operator: libs/e2e-harness/src/smoke-suite.ts).
operatorSmokeSuite({
  system: 'kafka',
  allowed: { verb: 'watch', group: 'kafka.domain-operators.io', resource: 'kafkatopics' },
  denied: { verb: 'list', group: '', resource: 'configmaps' },
});
