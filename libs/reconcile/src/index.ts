/**
 * `@domain-operators/reconcile`: a controller runtime for Kubernetes operators in TypeScript.
 * This file is the package's whole public API.
 */
export { ConfigError, LOG_LEVELS, parseManagerOptions } from './manager-options.ts';
export type { LeaderElectionOptions, LogLevel, ManagerOptions, ManagerOptionsDefaults } from './manager-options.ts';
export { flushMicrotasks, sleep, systemClock, VirtualClock } from './clock.ts';
export type { Clock, TimerHandle } from './clock.ts';
