import { describe, expect, it } from 'vitest';
import type { OpenSearchSnapshotRepository } from '../api/v1alpha1/index.ts';
import { isPolicySnapshot, policySnapshotName, policySnapshotPattern, repositoryAdmits, repositoryNameOf } from './snapshot-tenancy.ts';

function repository(tenancy: OpenSearchSnapshotRepository['spec']['tenancy'], repositoryName?: string): OpenSearchSnapshotRepository {
  return {
    apiVersion: 'opensearch.domain-operators.io/v1alpha1',
    kind: 'OpenSearchSnapshotRepository',
    metadata: { name: 'backups' },
    spec: { connectionRef: { name: 'main' }, type: 'fs', deletionPolicy: 'Retain', ...(tenancy === undefined ? {} : { tenancy }), ...(repositoryName === undefined ? {} : { repositoryName }) },
  };
}

describe('repositoryAdmits', () => {
  it('admits no namespace without a selector', () => {
    expect(repositoryAdmits(repository(undefined), { team: 'a' })).toBe(false);
    expect(repositoryAdmits(repository({}), { team: 'a' })).toBe(false);
  });

  it('admits every namespace with an empty selector', () => {
    expect(repositoryAdmits(repository({ namespaceSelector: {} }), undefined)).toBe(true);
  });

  it('admits the namespaces the selector matches, and no other', () => {
    const repo = repository({ namespaceSelector: { matchLabels: { backups: 'allowed' } } });
    expect(repositoryAdmits(repo, { backups: 'allowed' })).toBe(true);
    expect(repositoryAdmits(repo, { backups: 'no' })).toBe(false);
  });
});

describe('names', () => {
  it('defaults the repository name to metadata.name', () => {
    expect(repositoryNameOf(repository(undefined))).toBe('backups');
    expect(repositoryNameOf(repository(undefined, 'shared-fs'))).toBe('shared-fs');
  });

  it('names a snapshot after namespace, policy and the UTC second', () => {
    expect(policySnapshotName('team-a', 'nightly', new Date('2026-12-01T02:03:04.567Z'))).toBe('team-a-nightly-20261201020304');
  });

  it("recognises only the policy's own snapshots, not a longer policy name's or a hand-made one", () => {
    expect(policySnapshotPattern('team-a', 'nightly')).toBe('team-a-nightly-*');
    expect(isPolicySnapshot('team-a-nightly-20261201020304', 'team-a', 'nightly')).toBe(true);
    expect(isPolicySnapshot('team-a-nightly-x-20261201020304', 'team-a', 'nightly')).toBe(false);
    expect(isPolicySnapshot('team-a-nightly-manual', 'team-a', 'nightly')).toBe(false);
    expect(isPolicySnapshot('team-a-nightly-2026120102030', 'team-a', 'nightly')).toBe(false);
  });
});
