import { describe, expect, it } from 'vitest';
import { compareVersions, previousReleaseTag, yamlFilesAt } from './git-history.ts';
import { REPO_ROOT } from './repo.ts';

describe('previousReleaseTag', () => {
  it('is the newest release tag older than the version, by version order not text order', () => {
    expect(previousReleaseTag(['v0.9.0', 'v0.10.0', 'v0.2.0', 'latest', 'v1.0.0'], '0.11.0')).toBe('v0.10.0');
    expect(previousReleaseTag(['v0.1.0', 'v0.2.0-rc.1'], '0.2.0')).toBe('v0.2.0-rc.1');
  });

  it('is undefined for the first release, or when only newer or equal tags exist', () => {
    expect(previousReleaseTag([], '0.1.0')).toBeUndefined();
    expect(previousReleaseTag(['v0.1.0', 'v0.2.0'], '0.1.0')).toBeUndefined();
  });
});

describe('compareVersions', () => {
  it('orders numerically and puts a release after its pre-releases', () => {
    expect(compareVersions('0.10.0', '0.9.9')).toBeGreaterThan(0);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBeLessThan(0);
    expect(compareVersions('1.2.3', '1.2.3')).toBe(0);
  });
});

describe('yamlFilesAt', () => {
  it('reads the CRDs a chart had at a commit, and none where the folder did not exist', async () => {
    const texts = await yamlFilesAt(REPO_ROOT, 'HEAD', 'charts/kafka-operator/crds');
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((text) => text.includes('kind: CustomResourceDefinition'))).toBe(true);
    expect(await yamlFilesAt(REPO_ROOT, 'HEAD', 'charts/no-such-operator/crds')).toEqual([]);
  });
});
