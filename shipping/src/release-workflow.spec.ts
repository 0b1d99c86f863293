import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { CHART_REPOSITORY, RELEASE_REGISTRY } from './release-artifacts.ts';
import { IMAGE_SYSTEMS, REPO_ROOT } from './repo.ts';

// .github/workflows/release.yml pushes what the dry run checked and the docs install: the same image names, chart
// repository and operators, from the prepare job's packages. (actionlint checks its syntax in shipping:lint.)

interface Step {
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Readonly<Record<string, unknown>>;
}
interface Job {
  readonly needs?: readonly string[];
  readonly uses?: string;
  readonly permissions?: Readonly<Record<string, string>>;
  readonly env?: Readonly<Record<string, string>>;
  readonly strategy?: { readonly matrix: { readonly system: readonly string[] } };
  readonly steps?: readonly Step[];
}

const workflow = parse(readFileSync(join(REPO_ROOT, '.github/workflows/release.yml'), 'utf8')) as { on: { push: { tags: string[] } }; permissions: object; jobs: Record<string, Job> };
const job = (name: string): Job => {
  const found = workflow.jobs[name];
  if (found === undefined) throw new Error(`release.yml has no job ${name}`);
  return found;
};
const runs = (name: string): string => (job(name).steps ?? []).map((step) => step.run ?? '').join('\n');

describe('.github/workflows/release.yml', () => {
  it('runs on release tags, grants nothing by default, and runs the CI checks and the kind suites', () => {
    expect(workflow.on.push.tags).toEqual(['v*.*.*']);
    expect(workflow.permissions).toEqual({});
    expect(job('checks').uses).toBe('./.github/workflows/ci.yml');
    expect(job('e2e-kind').uses).toBe('./.github/workflows/e2e-kind.yml');
  });

  it('prepares with the dry run itself, given the tag', () => {
    expect(runs('prepare')).toContain('shipping/src/release.main.ts --tag "$GITHUB_REF_NAME"');
    expect(job('prepare').permissions).toEqual({ contents: 'read' });
  });

  it('pushes an image per operator under the names the charts default to, for amd64 and arm64, after the checks', () => {
    const images = job('images');
    expect(images.needs).toEqual(['checks', 'e2e-kind', 'prepare']);
    expect(images.strategy?.matrix.system).toEqual([...IMAGE_SYSTEMS]);
    expect(images.env?.['IMAGE']).toBe(`${RELEASE_REGISTRY}/\${{ matrix.system }}-operator`);
    const build = images.steps?.find((step) => step.uses?.startsWith('docker/build-push-action@') === true);
    expect(build?.with).toMatchObject({ file: 'operators/Dockerfile', platforms: 'linux/amd64,linux/arm64', tags: '${{ env.IMAGE }}:${{ env.VERSION }}', sbom: true, push: true });
    expect(runs('images')).toContain('cosign sign --yes "$IMAGE@$DIGEST"');
  });

  it('pushes the packaged charts to the chart repository the docs name, only after the images', () => {
    expect(job('charts').needs).toContain('images');
    expect(runs('charts')).toContain(`push "$chart" ${CHART_REPOSITORY}`);
  });

  it('gives write access only where it is used', () => {
    const writers = Object.entries(workflow.jobs).flatMap(([name, j]) => Object.entries(j.permissions ?? {}).filter(([, level]) => level === 'write').map(([scope]) => `${name}:${scope}`));
    expect(writers.sort()).toEqual(['charts:packages', 'github-release:contents', 'images:attestations', 'images:id-token', 'images:packages']);
  });
});
