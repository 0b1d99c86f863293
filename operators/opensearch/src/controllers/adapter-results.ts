/**
 * The result types of the runtime's `ExternalAdapter` (`ExternalCreation`, `ExternalUpdate`, `ExternalStatusFields`
 * of `external/external-adapter.ts`), derived from the `ExternalAdapter` interface the package does export: the
 * runtime's `index.ts` does not export them (yet). Identical types, so the adapters here keep the runtime's contract;
 * replace the imports with `@domain-operators/reconcile` once it exports them.
 */
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ExternalAdapter } from '@domain-operators/reconcile';

type AnyAdapter = ExternalAdapter<KubernetesObject, unknown, unknown>;

/** What `create` did: the kind's own status fields it learnt. */
export type ExternalCreation = Awaited<ReturnType<AnyAdapter['create']>>;
/** What `update` did: the kind's own status fields that changed with it. */
export type ExternalUpdate = Awaited<ReturnType<AnyAdapter['update']>>;
/** A kind's own top-level status fields as an adapter call reports them; `null` removes a field; never secrets. */
export type ExternalStatusFields = NonNullable<ExternalCreation['status']>;
