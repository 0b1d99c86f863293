import type { KubernetesObject } from '@kubernetes/client-node';
import type { ExternalAdapter, Recorder } from '@domain-operators/reconcile';
import { DependencyError } from './connection-registry.ts';
import { parseExternalName } from './scope.ts';

/** Event reason recorded when a resource is released because its OpenSearchConnection no longer exists. */
export const CONNECTION_GONE = 'ConnectionGone';

/**
 * `adapter` as it is (every call passed through, the optional `intent` included when it has one), except that a `delete` failing because the resource's OpenSearchConnection no longer exists
 * (`DependencyError` `ConnectionNotFound`) succeeds, with a Warning Event `ConnectionGone` on the resource saying what
 * was left in OpenSearch: there is no cluster left to delete from, and keeping the finalizer would hold the resource,
 * and its namespace, in `Terminating` for ever. Any other failure (a missing Secret, OpenSearch unreachable) still
 * fails the deletion, to be retried.
 */
export function releasingWhenConnectionGone<T extends KubernetesObject, D, O>(adapter: ExternalAdapter<T, D, O>, events: Recorder): ExternalAdapter<T, D, O> {
  const wrapped: ExternalAdapter<T, D, O> = {
    observe: (desired, context) => adapter.observe(desired, context),
    create: (desired, context) => adapter.create(desired, context),
    update: (desired, observed, context) => adapter.update(desired, observed, context),
    delete: async (target, context) => {
      try {
        await adapter.delete(target, context);
      } catch (err) {
        if (!(err instanceof DependencyError) || err.reason !== 'ConnectionNotFound') throw err;
        const { connection, name } = parseExternalName(target.externalName);
        events.record(context.object, {
          type: 'Warning',
          reason: CONNECTION_GONE,
          action: 'Delete',
          note: `OpenSearchConnection "${connection}" no longer exists; ${name} was not deleted from OpenSearch`,
        });
        context.log.warn({ externalName: target.externalName }, 'the connection is gone: releasing the resource without deleting its OpenSearch object');
      }
    },
  };
  // `intent` is optional: present on the wrapper exactly when the adapter has one (the runtime writes it ahead).
  const intent = adapter.intent?.bind(adapter);
  return intent === undefined ? wrapped : { ...wrapped, intent };
}
