// An adapter whose every call's `context.client()` resolves to one given client: how a unit test gives an adapter
// the client the runtime would bind to the resource's connection. Test-only; exported as @domain-operators/reconcile/testing.
import type { KubernetesObject } from '@kubernetes/client-node';
import type { ExternalAdapter, ExternalContext } from '../external/external-adapter.ts';

/**
 * `adapter` with `context.client()` of every call (observe, create, update, delete, intent) resolving to `client`,
 * whatever the caller's context binds; `marksCreator` as the adapter says. Pure; keeps no state.
 */
export function boundAdapter<T extends KubernetesObject, D, O, C>(adapter: ExternalAdapter<T, D, O, C>, client: C): ExternalAdapter<T, D, O, C> {
  const bind = (context: ExternalContext<T, C>): ExternalContext<T, C> => ({ ...context, client: () => Promise.resolve(client) });
  const intent = adapter.intent?.bind(adapter);
  return {
    observe: (desired, context) => adapter.observe(desired, bind(context)),
    create: (desired, context) => adapter.create(desired, bind(context)),
    update: (desired, observed, context) => adapter.update(desired, observed, bind(context)),
    delete: (target, context) => adapter.delete(target, bind(context)),
    ...(intent === undefined ? {} : { intent: (desired: D, observed: O | undefined, context: ExternalContext<T, C>) => intent(desired, observed, bind(context)) }),
    ...(adapter.marksCreator === true ? { marksCreator: true } : {}),
  };
}
