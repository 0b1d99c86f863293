/**
 * `@domain-operators/reconcile/testing`: test doubles behind the runtime's own interfaces, for unit tests of the
 * runtime and of operators built on it. Never imported by production code (a test in `layers.spec.ts` checks
 * that), so none of it reaches an operator's bundle. The helpers that need the real control plane
 * (`control-plane.ts`, `audit-log.ts`) are the runtime's own and are not exported here.
 */
export { ConflictError, FakeLeaseLock } from './fake-lease-lock.ts';
export { FakeWatch, FakeWatchTransport } from './fake-watch-transport.ts';
export { matching, parseExposition, valueOf } from './exposition.ts';
export type { Exposition, Sample } from './exposition.ts';
export { FakeBackendError, FakeObjects, InMemoryExternalSystem, RecordingRecorder, withMeta } from './external-resource.ts';
export type { ExternalCall, FakeObserved, FakeSpec } from './external-resource.ts';
export { InMemoryLedgerDocument } from './in-memory-ledger-document.ts';
export { reasonLiteralsIn, sharedReasonLiterals } from './reason-literals.ts';
export { kstatusVerdict } from './kstatus-rules.ts';
export { boundAdapter } from './bound-adapter.ts';
export type { KstatusVerdict } from './kstatus-rules.ts';
