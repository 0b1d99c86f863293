import type { KubernetesObject } from '@kubernetes/client-node';
import type { ExternalAdapter } from '../external/external-adapter.ts';
import type { Recorder } from '../observability/events.ts';
import { ConnectionReasons } from './connection-reasons.ts';
import { isDependencyError } from './dependency-error.ts';
import { parseConnectionExternalName } from './external-name.ts';

/** Options of {@link releasingWhenConnectionGone}: the words of its Event. */
export interface ConnectionGoneOptions {
  /** The connection kind: `KafkaConnection`. */
  readonly connectionKind: string;
  /** The external system: `Kafka`. */
  readonly system: string;
  /** What the name is, e.g. `topic`; absent: the name alone. */
  readonly noun?: string;
}

/**
 * `adapter` as it is (every call passed through, the optional `intent` present exactly when the adapter has one),
 * except that a `delete` failing because the resource's connection no longer exists ({@link DependencyError}
 * `ConnectionNotFound`, as `ConnectionLookup.get` throws it) succeeds, with a Warning Event `ConnectionGone` saying
 * what was left in the system: there is no cluster left to delete from, and keeping the finalizer would hold the
 * resource, and its namespace, in `Terminating` for ever. Any other failure (a missing Secret, the system
 * unreachable) still fails the deletion, to be retried. External names are `<connection>/<name>`.
 */
export function releasingWhenConnectionGone<T extends KubernetesObject, D, O, C>(
  adapter: ExternalAdapter<T, D, O, C>,
  events: Recorder,
  options: ConnectionGoneOptions,
): ExternalAdapter<T, D, O, C> {
  const wrapped: ExternalAdapter<T, D, O, C> = {
    observe: (desired, context) => adapter.observe(desired, context),
    create: (desired, context) => adapter.create(desired, context),
    update: (desired, observed, context) => adapter.update(desired, observed, context),
    delete: async (target, context) => {
      try {
        await adapter.delete(target, context);
      } catch (err) {
        if (!isDependencyError(err, ConnectionReasons.notFound)) throw err;
        const { connection, name } = parseConnectionExternalName(target.externalName);
        const what = options.noun === undefined ? name : `${options.noun} ${name}`;
        events.record(context.object, {
          type: 'Warning',
          reason: ConnectionReasons.gone,
          action: 'Delete',
          note: `${options.connectionKind} "${connection}" no longer exists; ${what} was not deleted from ${options.system}`,
        });
        context.log.warn({ externalName: target.externalName }, `the connection is gone: releasing the resource without deleting it from ${options.system}`);
      }
    },
  };
  const intent = adapter.intent?.bind(adapter);
  return { ...wrapped, ...(intent === undefined ? {} : { intent }), ...(adapter.marksCreator === true ? { marksCreator: true } : {}) };
}
