import { defineCustomResource, deletionPolicy, immutable } from '@domain-operators/reconcile';
import type { ResourceOf } from '@domain-operators/reconcile';
import { Type } from '@sinclair/typebox';
import type { Static } from '@sinclair/typebox';
import { CATEGORIES, ConnectionRef, GROUP, immutableOptional, jsonObject, managedStatusFields, namespaceSelector, READY_COLUMN, REASON_COLUMN, VERSION } from './common.ts';

/** `OpenSearchSnapshotRepository.spec`. */
export const OpenSearchSnapshotRepositorySpec = Type.Object(
  {
    connectionRef: ConnectionRef,
    repositoryName: Type.Optional(
      Type.String({
        description: 'The repository name in OpenSearch. Defaults to metadata.name. Immutable.',
        minLength: 1,
        maxLength: 255,
        pattern: '^[a-z0-9][a-z0-9._-]*$',
        'x-kubernetes-validations': [immutable('repositoryName is immutable')],
      }),
    ),
    type: Type.String({
      description: 'The repository type: fs, s3, or any type the cluster has a repository plugin for (azure, gcs, hdfs, …).',
      minLength: 1,
      maxLength: 63,
      pattern: '^[a-z0-9][a-z0-9_-]*$',
    }),
    settings: Type.Optional(
      jsonObject('The repository settings, passed to OpenSearch as it takes them (fs: location, compress; s3: bucket, base_path, region, …). Never credentials: those live in the keystore.'),
    ),
    verify: Type.Optional(
      Type.Boolean({
        description:
          'Run the repository verification API after registering it and at every drift check: the nodes that verified it are status.verifiedNodes, a failure is RepositoryVerificationFailed (Synced, and Ready until it was first Ready), retried. Default true.',
        default: true,
      }),
    ),
    tenancy: Type.Optional(
      Type.Object(
        {
          namespaceSelector: Type.Optional(namespaceSelector('Namespaces whose OpenSearchSnapshotPolicies and OpenSearchSnapshotRestores may use this repository; absent means none.')),
        },
        { description: 'Which namespaces may snapshot into and restore from this repository.' },
      ),
    ),
    deletionPolicy: deletionPolicy('Retain'),
  },
  { description: 'OpenSearchSnapshotRepositorySpec is the desired state of one snapshot repository. Deleting the resource with deletionPolicy Delete unregisters the repository; no snapshot is ever deleted with it.' },
);

/** `OpenSearchSnapshotRepository.status`. */
export const OpenSearchSnapshotRepositoryStatus = Type.Object(
  {
    ...managedStatusFields,
    repositoryName: Type.Optional(Type.String({ description: 'The repository name in OpenSearch.' })),
    verifiedNodes: Type.Optional(Type.Array(Type.String(), { description: 'The nodes that verified the repository at the last check.' })),
  },
  { description: 'The observed state of the repository.' },
);

/** The `OpenSearchSnapshotRepository` kind (cluster-scoped: a platform admin's). */
export const openSearchSnapshotRepositories = defineCustomResource({
  group: GROUP,
  version: VERSION,
  kind: 'OpenSearchSnapshotRepository',
  plural: 'opensearchsnapshotrepositories',
  singular: 'opensearchsnapshotrepository',
  shortNames: ['ossr'],
  categories: CATEGORIES,
  scope: 'Cluster',
  description: 'An OpenSearchSnapshotRepository is a snapshot repository registered in one OpenSearch cluster, and the namespaces allowed to use it.',
  spec: OpenSearchSnapshotRepositorySpec,
  status: OpenSearchSnapshotRepositoryStatus,
  validations: [immutableOptional('repositoryName')],
  printerColumns: [
    { name: 'Repository', type: 'string', jsonPath: '.status.repositoryName' },
    { name: 'Type', type: 'string', jsonPath: '.spec.type' },
    READY_COLUMN,
    REASON_COLUMN,
  ],
});

/** An `OpenSearchSnapshotRepository` object. */
export type OpenSearchSnapshotRepository = ResourceOf<typeof openSearchSnapshotRepositories>;
/** Its status. */
export type OpenSearchSnapshotRepositoryStatus = Static<typeof OpenSearchSnapshotRepositoryStatus>;
