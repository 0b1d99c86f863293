import { Type } from '@sinclair/typebox';
import { conditionsField } from '@domain-operators/reconcile';

/**
 * Schema parts shared by the kinds of `kafka.domain-operators.io/v1alpha1`: condition lists, references and label
 * selectors, each with the descriptions `kubectl explain` shows.
 */

/** The group every kind of this operator belongs to. */
export const GROUP = 'kafka.domain-operators.io';

/** The version of this folder's kinds. */
export const VERSION = 'v1alpha1';

/** `status.conditions`: the runtime's one condition list, keyed by `type`. */
export const ConditionsField = conditionsField('The current state: Ready says whether the object in Kafka is usable, Synced whether the last reconcile applied the spec.');

/** `status.observedGeneration`. */
export const ObservedGenerationField = Type.Integer({ description: 'The metadata.generation of the spec the status describes.', minimum: 0 });

/** `spec.connectionRef` of namespaced kinds: the cluster-scoped KafkaConnection to use. */
export const ConnectionRefSchema = Type.Object(
  { name: Type.String({ description: 'Name of the KafkaConnection (cluster-scoped).', minLength: 1, maxLength: 253 }) },
  { description: 'The KafkaConnection that names the Kafka cluster and its tenancy rules. Immutable.', 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: 'connectionRef is immutable: delete and recreate the resource to move it to another cluster' }] },
);

/** A Kubernetes label selector (`metav1.LabelSelector`). */
export const LabelSelectorSchema = Type.Object(
  {
    matchLabels: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Labels a namespace must carry with exactly these values.' })),
    matchExpressions: Type.Optional(
      Type.Array(
        Type.Object(
          {
            key: Type.String({ description: 'The label key.', minLength: 1 }),
            operator: Type.Union([Type.Literal('In'), Type.Literal('NotIn'), Type.Literal('Exists'), Type.Literal('DoesNotExist')], {
              description: 'In, NotIn, Exists or DoesNotExist.',
            }),
            values: Type.Optional(Type.Array(Type.String(), { description: 'Values for In and NotIn; empty for Exists and DoesNotExist.' })),
          },
          { description: 'One requirement on a label.' },
        ),
        { description: 'Requirements on labels, all of which must hold.' },
      ),
    ),
  },
  { description: 'Selects namespaces by their labels; an empty selector selects every namespace.' },
);
