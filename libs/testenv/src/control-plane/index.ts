export { apiserverComponent } from './apiserver.ts';
export { controlPlanePids, type ControlPlanePids } from './pids.ts';
export { controlPlaneLayout, controlPlanePorts, type ControlPlaneLayout } from './layout.ts';
export { auditedVerbs } from './audit-policy.ts';
