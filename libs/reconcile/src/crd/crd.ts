import type { KubernetesObject, V1ObjectMeta } from '@kubernetes/client-node';
import { Type } from '@sinclair/typebox';
import type { Static, TLiteral, TSchema, TUnion } from '@sinclair/typebox';
import { CrdError, toStructuralSchema } from './crd-schema.ts';
import type { StructuralSchema, ValidationRule } from './crd-schema.ts';
import { resourceType } from '../client/resource-type.ts';
import type { ResourceType } from '../client/resource-type.ts';

/**
 * An object of a custom resource kind: `spec` is always present (the CRD requires it), `status` only once the
 * controller has written it. `Status` is `never` for kinds without a status schema.
 */
export interface CustomResourceObject<Spec = unknown, Status = unknown> extends KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: V1ObjectMeta;
  spec: Spec;
  status?: Status;
}

/** One `additionalPrinterColumns` entry: a column `kubectl get` shows. */
export interface PrinterColumn {
  /** The column header, e.g. `Ready`. */
  readonly name: string;
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  /** A simple JSON path from the object root, e.g. `.status.conditions[?(@.type=="Ready")].status`. */
  readonly jsonPath: string;
  readonly description?: string;
  readonly format?: string;
  /** 0 (default) shows the column always; higher priorities only with `-o wide`. */
  readonly priority?: number;
}

/** What {@link defineCustomResource} needs: names, scope, the spec and status schemas, columns and rules. */
export interface CustomResourceOptions<Spec extends TSchema, Status extends TSchema | undefined> {
  /** The API group, a DNS subdomain with at least one dot, e.g. `kafka.domain-operators.io`. */
  readonly group: string;
  /** The (one) served and stored version, e.g. `v1alpha1`. */
  readonly version: string;
  /** The kind, PascalCase, e.g. `KafkaTopic`. */
  readonly kind: string;
  /** Lower-case plural used in URLs, e.g. `kafkatopics`. */
  readonly plural: string;
  /** Lower-case singular, e.g. `kafkatopic`. */
  readonly singular: string;
  readonly shortNames?: readonly string[];
  /** Groups for `kubectl get <category>`, e.g. `['kafka']`. */
  readonly categories?: readonly string[];
  readonly scope: 'Namespaced' | 'Cluster';
  /** The spec schema; it and every field in it need a description. */
  readonly spec: Spec;
  /** The status schema; when given, the CRD gets the status subresource. */
  readonly status?: Status;
  /** Columns for `kubectl get`; an `Age` column is appended unless one is named `Age`. */
  readonly printerColumns?: readonly PrinterColumn[];
  /** CEL rules on the spec as a whole (`self` is the spec), e.g. cross-field and increase-only rules. */
  readonly validations?: readonly ValidationRule[];
  /** What the kind is for: the root description `kubectl explain <kind>` shows. */
  readonly description: string;
}

/** An `apiextensions.k8s.io/v1` CustomResourceDefinition with one version, as plain JSON. */
export interface CustomResourceDefinitionManifest {
  readonly apiVersion: 'apiextensions.k8s.io/v1';
  readonly kind: 'CustomResourceDefinition';
  readonly metadata: { readonly name: string };
  readonly spec: {
    readonly group: string;
    readonly names: {
      readonly kind: string;
      readonly listKind: string;
      readonly plural: string;
      readonly singular: string;
      readonly shortNames?: readonly string[];
      readonly categories?: readonly string[];
    };
    readonly scope: 'Namespaced' | 'Cluster';
    readonly versions: readonly {
      readonly name: string;
      readonly served: boolean;
      readonly storage: boolean;
      readonly schema: { readonly openAPIV3Schema: StructuralSchema };
      readonly subresources?: { readonly status: Record<string, never> };
      readonly additionalPrinterColumns?: readonly PrinterColumn[];
    }[];
  };
}

/**
 * A custom resource kind defined once: `type` for the client, informers and controllers, `crd` to install, and
 * the TypeBox schemas (e.g. for `Value.Check`). Immutable.
 */
export interface CustomResourceKind<R extends CustomResourceObject = CustomResourceObject> {
  readonly type: ResourceType<R>;
  readonly crd: CustomResourceDefinitionManifest;
  /** The CRD's name, `<plural>.<group>`. */
  readonly name: string;
  /** `<group>/<version>`, what objects of this kind carry in `apiVersion`. */
  readonly apiVersion: string;
  readonly kind: string;
  readonly schemas: { readonly spec: TSchema; readonly status: TSchema | undefined };
}

/** The object type of a definition: `type Gizmo = ResourceOf<typeof gizmos>`. */
export type ResourceOf<D> = D extends CustomResourceKind<infer R> ? R : never;

/** The object type {@link defineCustomResource} gives for a spec and an optional status schema. */
export type ResourceFor<Spec extends TSchema, Status extends TSchema | undefined> = CustomResourceObject<
  Static<Spec>,
  Status extends TSchema ? Static<Status> : never
>;

/**
 * Defines a custom resource kind from TypeBox schemas: the TypeScript object type, its {@link ResourceType}
 * and its CRD (structural schema via {@link toStructuralSchema}, the status subresource when `status` is given,
 * printer columns, names). Pure and deterministic; throws {@link CrdError} naming the path of the first problem
 * (a field without a description, a schema the apiserver cannot express, an invalid name).
 */
export function defineCustomResource<Spec extends TSchema, Status extends TSchema | undefined = undefined>(
  options: CustomResourceOptions<Spec, Status>,
): CustomResourceKind<ResourceFor<Spec, Status>> {
  checkNames(options);
  const spec = toStructuralSchema(options.spec, 'spec');
  const validations = [...(spec['x-kubernetes-validations'] ?? []), ...(options.validations ?? [])];
  const properties: Record<string, StructuralSchema> = {
    apiVersion: { description: API_VERSION_DESCRIPTION, type: 'string' },
    kind: { description: KIND_DESCRIPTION, type: 'string' },
    metadata: { type: 'object' },
    spec: validations.length === 0 ? spec : { ...spec, 'x-kubernetes-validations': validations },
  };
  if (options.status !== undefined) properties['status'] = toStructuralSchema(options.status, 'status');
  const columns = printerColumns(options.printerColumns ?? []);
  const crd: CustomResourceDefinitionManifest = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${options.plural}.${options.group}` },
    spec: {
      group: options.group,
      names: {
        kind: options.kind,
        listKind: `${options.kind}List`,
        plural: options.plural,
        singular: options.singular,
        ...(options.shortNames !== undefined && options.shortNames.length > 0 && { shortNames: [...options.shortNames] }),
        ...(options.categories !== undefined && options.categories.length > 0 && { categories: [...options.categories] }),
      },
      scope: options.scope,
      versions: [
        {
          name: options.version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { description: options.description, type: 'object', properties, required: ['spec'] } },
          ...(options.status !== undefined && { subresources: { status: {} } }),
          additionalPrinterColumns: columns,
        },
      ],
    },
  };
  return {
    type: resourceType<ResourceFor<Spec, Status>>({
      group: options.group,
      version: options.version,
      kind: options.kind,
      plural: options.plural,
      namespaced: options.scope === 'Namespaced',
    }),
    crd,
    name: crd.metadata.name,
    apiVersion: `${options.group}/${options.version}`,
    kind: options.kind,
    schemas: { spec: options.spec, status: options.status },
  };
}

/** The values of a `deletionPolicy` field. */
export type DeletionPolicy = 'Retain' | 'Delete';

/**
 * A `deletionPolicy` field: `Retain` or `Delete`, defaulted by the apiserver to `defaultValue`, so objects read
 * back always carry it. Use as `deletionPolicy: deletionPolicy('Delete')` in a spec.
 */
export function deletionPolicy(defaultValue: DeletionPolicy): TUnion<[TLiteral<'Retain'>, TLiteral<'Delete'>]> {
  return Type.Union([Type.Literal('Retain'), Type.Literal('Delete')], {
    description:
      'What happens to the external object when this resource is deleted: Delete removes it, Retain leaves it in place ' +
      `(the operator only forgets it). Defaults to ${defaultValue}.`,
    default: defaultValue,
  });
}

const API_VERSION_DESCRIPTION =
  'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized ' +
  'schemas to the latest internal value, and may reject unrecognized values. ' +
  'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources';
const KIND_DESCRIPTION =
  'Kind is a string value representing the REST resource this object represents. Servers may infer this from the ' +
  'endpoint the client submits requests to. Cannot be updated. In CamelCase. ' +
  'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

const AGE_COLUMN: PrinterColumn = { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' };

function printerColumns(columns: readonly PrinterColumn[]): PrinterColumn[] {
  columns.forEach((column, i) => {
    if (!column.jsonPath.startsWith('.')) throw new CrdError(`printerColumns[${i}].jsonPath`, `must start with "." (got ${column.jsonPath})`);
  });
  const ordered = columns.map((column) => {
    const { name, type, format, description, priority, jsonPath } = column;
    return { name, type, ...(format !== undefined && { format }), ...(description !== undefined && { description }), ...(priority !== undefined && { priority }), jsonPath };
  });
  return columns.some((column) => column.name === 'Age') ? ordered : [...ordered, AGE_COLUMN];
}

const DNS_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const LOWER_WORD = /^[a-z][a-z0-9]*$/;

function checkNames(options: CustomResourceOptions<TSchema, TSchema | undefined>): void {
  const checks: [string, boolean, string][] = [
    ['group', /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/.test(options.group), 'a DNS subdomain with at least one dot'],
    ['version', /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/.test(options.version), 'like v1, v1beta1 or v1alpha2'],
    ['kind', /^[A-Z][A-Za-z0-9]*$/.test(options.kind), 'PascalCase'],
    ['plural', DNS_LABEL.test(options.plural), 'a lower-case DNS label'],
    ['singular', DNS_LABEL.test(options.singular), 'a lower-case DNS label'],
    ['shortNames', (options.shortNames ?? []).every((name) => LOWER_WORD.test(name)), 'lower-case words'],
    ['categories', (options.categories ?? []).every((name) => LOWER_WORD.test(name)), 'lower-case words'],
    ['description', options.description.trim() !== '', 'non-empty'],
  ];
  for (const [field, ok, expected] of checks) if (!ok) throw new CrdError(field, `must be ${expected}`);
}
