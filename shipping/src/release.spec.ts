import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prepareRelease } from './release.ts';
import { readRepositoryVersion } from './release-version.ts';
import { IMAGE_SYSTEMS, REPO_ROOT } from './repo.ts';

// The dry run over the real checkout, and over a temporary copy of the files it reads with one copy of the version
// deliberately wrong. helm runs for real (package, template); git is not asked (the tags are given). On the checkout
// the operators' entry points answer --version for real; the copy has no operators, so its answers are given.

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'release-spec-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A copy of what prepareRelease reads: package.json, CHANGELOG.md, README.md, the operators' docs and the three charts. */
function copyOfRepository(): string {
  const root = join(scratch, 'repo');
  for (const path of ['package.json', 'CHANGELOG.md', 'README.md', ...IMAGE_SYSTEMS.flatMap((system) => [`docs/operators/${system}.md`, `charts/${system}-operator`])]) {
    cpSync(join(REPO_ROOT, path), join(root, path), { recursive: true });
  }
  return root;
}

/** The operators' answers to --version, as a checkout at `version` gives them. */
const answering =
  (version: string) =>
  (system: string): Promise<string> =>
    Promise.resolve(`${system}-operator ${version}`);

const edit = (file: string, from: RegExp, to: string): void => {
  const text = readFileSync(file, 'utf8');
  if (!from.test(text)) throw new Error(`${file} has no ${String(from)}`);
  writeFileSync(file, text.replace(from, to));
};

describe('prepareRelease', () => {
  it('finds the checkout consistent and writes the charts, CRD bundles and notes the release would push', async () => {
    const version = readRepositoryVersion(REPO_ROOT);
    const out = join(scratch, 'out');
    const report = await prepareRelease({ root: REPO_ROOT, outDir: out, tags: [] });
    expect(report.problems).toEqual([]);
    expect(report.operators.map((operator) => operator.chartDefaultImage)).toEqual(IMAGE_SYSTEMS.map((system) => `ghcr.io/domain-operators/${system}-operator:${version}`));
    for (const system of IMAGE_SYSTEMS) {
      expect(existsSync(join(out, 'charts', `${system}-operator-${version}.tgz`))).toBe(true);
      expect(readFileSync(join(out, 'crds', `${system}-operator-crds.yaml`), 'utf8').match(/^kind: CustomResourceDefinition$/gm)?.length).toBe(report.operators.find((o) => o.system === system)?.crdCount);
    }
    const notes = readFileSync(report.notesFile, 'utf8');
    expect(notes).toContain(`helm install kafka-operator oci://ghcr.io/domain-operators/charts/kafka-operator --version ${version}`);
    expect(notes).toContain('## CRD changes (first release: every CRD is new)');
  }, 120_000);

  it('fails when an operator reports another version than the one released', async () => {
    const root = copyOfRepository();
    const version = readRepositoryVersion(root);
    const report = await prepareRelease({ root, outDir: join(scratch, 'out'), tags: [], reportedVersion: (system) => Promise.resolve(system === 'kafka' ? 'kafka-operator 0.0.0' : `${system}-operator ${version}`) });
    expect(report.problems).toEqual([{ file: 'operators/kafka', message: `--version answers "kafka-operator 0.0.0", the release is "kafka-operator ${version}"` }]);
  });

  it("fails when a chart's appVersion disagrees: the file, and the image the packaged chart would pull", async () => {
    const root = copyOfRepository();
    const version = readRepositoryVersion(root);
    edit(join(root, 'charts/redis-operator/Chart.yaml'), /^appVersion: .*$/m, 'appVersion: "9.9.9"');
    const report = await prepareRelease({ root, outDir: join(scratch, 'out'), tags: [], reportedVersion: answering(readRepositoryVersion(REPO_ROOT)) });
    expect(report.problems).toEqual([
      { file: 'charts/redis-operator/Chart.yaml', message: `appVersion is "9.9.9", the release version is ${version}` },
      { file: 'charts/redis-operator', message: `the packaged chart's default image is ghcr.io/domain-operators/redis-operator:9.9.9, the release pushes ghcr.io/domain-operators/redis-operator:${version}` },
    ]);
  });

  it('fails when the package version moves without the charts, docs and changelog', async () => {
    const root = copyOfRepository();
    edit(join(root, 'package.json'), /"version": "[^"]*"/, '"version": "7.0.0"');
    const problems = (await prepareRelease({ root, outDir: join(scratch, 'out'), tags: [], reportedVersion: answering(readRepositoryVersion(REPO_ROOT)) })).problems.map((problem) => problem.file);
    expect(problems).toEqual(
      expect.arrayContaining(['charts/kafka-operator/Chart.yaml', 'charts/opensearch-operator/Chart.yaml', 'docs/operators/redis.md', 'README.md', 'CHANGELOG.md', 'charts/kafka-operator']),
    );
  });

  it('fails when a values.yaml pins another image tag', async () => {
    const root = copyOfRepository();
    edit(join(root, 'charts/kafka-operator/values.yaml'), /^ {2}tag: ""$/m, '  tag: "0.0.1"');
    const problems = (await prepareRelease({ root, outDir: join(scratch, 'out'), tags: [], reportedVersion: answering(readRepositoryVersion(REPO_ROOT)) })).problems;
    expect(problems.map((problem) => problem.file)).toEqual(['charts/kafka-operator/values.yaml', 'charts/kafka-operator']);
  });

  it('refuses to empty an out folder that is or holds the checkout', async () => {
    const root = copyOfRepository();
    const options = { tags: [], reportedVersion: answering(readRepositoryVersion(root)) };
    await expect(prepareRelease({ root, outDir: root, ...options })).rejects.toThrow(/holds the checkout/);
    await expect(prepareRelease({ root, outDir: scratch, ...options })).rejects.toThrow(/holds the checkout/);
    expect(existsSync(join(root, 'package.json'))).toBe(true);
  });

  it('refuses a tag that is not the repository version, and wants a dated changelog section for a tag', async () => {
    const version = readRepositoryVersion(REPO_ROOT);
    await expect(prepareRelease({ root: REPO_ROOT, outDir: join(scratch, 'out'), tag: 'v99.0.0', tags: [] })).rejects.toThrow(`tag v99.0.0 is not the repository's version ${version}`);
    const root = copyOfRepository();
    edit(join(root, 'CHANGELOG.md'), new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\].*$`, 'm'), `## [${version}] - Unreleased`);
    const problems = (await prepareRelease({ root, outDir: join(scratch, 'out'), tag: `v${version}`, tags: [], reportedVersion: answering(version) })).problems;
    expect(problems).toEqual([{ file: 'CHANGELOG.md', message: `section [${version}] must be dated "## [${version}] - YYYY-MM-DD" when it is released, got "Unreleased"` }]);
  });
});
