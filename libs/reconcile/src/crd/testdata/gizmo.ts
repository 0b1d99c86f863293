// A test-only custom resource kind (not exported from the package): the example for crd.ts and crd-writer.ts.
// Its committed CRD is testdata/crds/gizmos.test.domain-operators.io.yaml (`nx run reconcile:crds` regenerates it).
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { defineCustomResource, deletionPolicy } from '../crd.ts';
import type { CustomResourceKind, ResourceOf } from '../crd.ts';
import { immutable } from '../crd-schema.ts';

/** The desired state of a Gizmo. */
export const GizmoSpec = Type.Object(
  {
    name: Type.String({
      description: 'The name of the gizmo in the external system. Immutable once set.',
      minLength: 1,
      maxLength: 63,
      'x-kubernetes-validations': [immutable('name is immutable')],
    }),
    color: Type.Union([Type.Literal('red'), Type.Literal('green'), Type.Literal('blue')], { description: 'The colour of the gizmo.' }),
    replicas: Type.Optional(Type.Integer({ description: 'How many copies to run.', minimum: 0, maximum: 10, default: 1 })),
    labels: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'Labels copied onto the external gizmo.' })),
    ports: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ description: 'The port name.' }),
          port: Type.Integer({ description: 'The port number.', minimum: 1, maximum: 65535 }),
        }),
        { description: 'Ports the gizmo listens on.', maxItems: 8 },
      ),
    ),
    settings: Type.Optional(Type.Unknown({ description: 'Free-form settings passed to the gizmo as they are.' })),
    deletionPolicy: deletionPolicy('Delete'),
  },
  { description: 'GizmoSpec is the desired state of a Gizmo.' },
);

/** The observed state of a Gizmo. */
export const GizmoStatus = Type.Object(
  {
    observedGeneration: Type.Optional(Type.Integer({ description: 'The generation the status describes.' })),
    phase: Type.Optional(Type.String({ description: 'A one-word summary of the state.' })),
  },
  { description: 'GizmoStatus is the observed state of a Gizmo.' },
);

/** The Gizmo kind: `gizmos.test.domain-operators.io`. */
export const gizmos = defineCustomResource({
  group: 'test.domain-operators.io',
  version: 'v1',
  kind: 'Gizmo',
  plural: 'gizmos',
  singular: 'gizmo',
  shortNames: ['gz'],
  categories: ['testing'],
  scope: 'Namespaced',
  description: 'A Gizmo is a test-only resource that exercises CRD generation.',
  spec: GizmoSpec,
  status: GizmoStatus,
  printerColumns: [
    { name: 'Color', type: 'string', jsonPath: '.spec.color' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
  ],
  validations: [{ rule: "self.color != 'red' || !has(self.replicas) || self.replicas <= 3", message: 'a red gizmo runs at most 3 replicas', fieldPath: '.replicas' }],
});

/** A Gizmo object. */
export type Gizmo = ResourceOf<typeof gizmos>;
/** A Gizmo's spec. */
export type GizmoSpec = Static<typeof GizmoSpec>;

/** What `crd-writer.ts --module` reads: every kind of this module. */
export const customResources: readonly CustomResourceKind[] = [gizmos];
