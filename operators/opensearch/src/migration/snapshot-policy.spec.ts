import { describe, expect, it } from 'vitest';
import { convertOpster } from './index.ts';
import { opster, OPTIONS, ourMetadata, specErrors } from './migration.test-support.ts';

const policy = (snapshotConfig: Record<string, unknown> = {}) =>
  opster('OpensearchSnapshotPolicy', 'nightly', {
    policyName: 'nightly-sm',
    enabled: true,
    snapshotConfig: { repository: 'backups', indices: 'logs-*, metrics-*', ...snapshotConfig },
    creation: { schedule: { cron: { expression: '0 2 * * *', timezone: 'Europe/Berlin' } }, timeLimit: '1h' },
    deletion: { deleteCondition: { maxCount: 7, maxAge: '30d', minCount: 1 } },
  });

describe('OpensearchSnapshotPolicy → OpenSearchSnapshotPolicy', () => {
  it('maps repository, indices, schedule and retention, created suspended beside their SM policy', () => {
    const result = convertOpster([policy()], OPTIONS);
    expect(result.objects).toEqual([
      {
        apiVersion: 'opensearch.domain-operators.io/v1alpha1',
        kind: 'OpenSearchSnapshotPolicy',
        metadata: ourMetadata('nightly'),
        spec: {
          connectionRef: { name: 'search' },
          repositoryRef: { name: 'backups' },
          indices: ['logs-*', 'metrics-*'],
          schedule: '0 2 * * *',
          timeZone: 'Europe/Berlin',
          retention: { maxCount: 7, maxAge: '30d', minCount: 1 },
          includeGlobalState: false,
          suspend: true,
        },
      },
    ]);
    expect(result.warnings.map((warning) => warning.message)).toEqual([
      'spec.creation.timeLimit is not supported by ours and is not carried over',
      expect.stringContaining('ours does not adopt the Snapshot Management policy nightly-sm: it is created suspended'),
      expect.stringContaining('repositoryRef names OpenSearchSnapshotRepository backups'),
    ]);
    expect(specErrors(result.objects[0]!)).toEqual([]);
  });

  it('refuses the cluster state and an empty index list', () => {
    expect(convertOpster([policy({ includeGlobalState: true })], OPTIONS).errors[0]?.message).toContain('includeGlobalState');
    expect(convertOpster([policy({ indices: '' })], OPTIONS).errors[0]?.message).toContain('indices is empty');
  });
});
