import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { chartDir, defaultOperatorImage, packageChart } from './chart-package.ts';
import { chartCrdTexts, crdBundle } from './crd-bundle.ts';
import { crdChangesMarkdown, diffCrds, parseCrds } from './crd-changes.ts';
import { gitTags, previousReleaseTag, yamlFilesAt } from './git-history.ts';
import { chartPackageFile, crdBundleFile, installCommand, releaseImage, upgradeCommand } from './release-artifacts.ts';
import type { ReleaseSystem } from './release-artifacts.ts';
import { changelogSection, readRepositoryVersion, versionOfTag, versionProblems } from './release-version.ts';
import type { VersionProblem } from './release-version.ts';
import { reportedVersion } from './operator-version.ts';
import { IMAGE_SYSTEMS } from './repo.ts';

/** Options of {@link prepareRelease}. */
export interface PrepareReleaseOptions {
  /** The checkout to release. */
  readonly root: string;
  /** Emptied, then filled with `charts/*.tgz`, `crds/*-crds.yaml` and `release-notes.md`. */
  readonly outDir: string;
  /**
   * The tag being released (`v1.2.3`), in the release workflow: it must be `v` + the repository's version, and the
   * changelog's section must be dated. Without it (the dry run) the repository's version is released as it stands.
   */
  readonly tag?: string;
  /** The release tags that exist; default: `git tag --list` in `root`. */
  readonly tags?: readonly string[];
  /** What an operator answers to `--version`; default: {@link reportedVersion} (runs its entry point in `root`). */
  readonly reportedVersion?: (system: ReleaseSystem) => Promise<string>;
}

/** What one operator's share of a release is. */
export interface ReleasedOperator {
  readonly system: ReleaseSystem;
  /** What the operator answers to `--version`. */
  readonly reportedVersion: string;
  /** The image the release pushes and the packaged chart defaults to. */
  readonly image: string;
  /** The `.tgz` helm packaged. */
  readonly chartPackage: string;
  /** The image the packaged chart renders with its default values. */
  readonly chartDefaultImage: string;
  /** The file of its CRDs attached to the release, and how many CRDs it holds. */
  readonly crdBundle: string;
  readonly crdCount: number;
}

/** The outcome of {@link prepareRelease}: ready to push when `problems` is empty. */
export interface ReleaseReport {
  readonly version: string;
  /** The previous release tag the CRD changes are measured from; `undefined` for the first release. */
  readonly previousTag: string | undefined;
  readonly operators: readonly ReleasedOperator[];
  readonly notesFile: string;
  readonly problems: readonly VersionProblem[];
}

/**
 * Everything a release does except pushing (ADR 0027): reads the one version, checks every copy of it
 * ({@link versionProblems}) and what each operator answers to `--version`, `helm package`s each chart into `outDir/charts`, checks that the package is named for
 * the version and that its default image is exactly the image the release pushes, writes one CRD bundle per operator
 * into `outDir/crds`, and writes `outDir/release-notes.md` (the changelog's section, the install commands, and the
 * CRD changes since the previous release tag). Resolves with a report whose `problems` say what disagrees; rejects
 * only when a tool (helm, git) fails, the tag is not the repository's version, or `outDir` is or holds `root`.
 */
export async function prepareRelease(options: PrepareReleaseOptions): Promise<ReleaseReport> {
  const { root, outDir } = options;
  const version = readRepositoryVersion(root);
  if (options.tag !== undefined && versionOfTag(options.tag) !== version) {
    throw new Error(`tag ${options.tag} is not the repository's version ${version} (package.json): bump the version first (ADR 0027)`);
  }
  const problems: VersionProblem[] = versionProblems(root, version, { dated: options.tag !== undefined });
  // outDir is emptied: never the checkout itself or a folder holding it.
  const relation = relative(resolve(outDir), resolve(root));
  if (relation === '' || (!relation.startsWith('..') && !isAbsolute(relation))) throw new Error(`--out ${outDir} holds the checkout ${root}: name a folder of its own (default dist/release)`);
  rmSync(outDir, { recursive: true, force: true });
  for (const dir of ['charts', 'crds']) mkdirSync(join(outDir, dir), { recursive: true });

  const reported = await Promise.all(IMAGE_SYSTEMS.map((system) => (options.reportedVersion ?? ((s: ReleaseSystem) => reportedVersion(root, s)))(system)));
  IMAGE_SYSTEMS.forEach((system, index) => {
    const expected = `${system}-operator ${version}`;
    if (reported[index] !== expected) problems.push({ file: `operators/${system}`, message: `--version answers "${reported[index] ?? ''}", the release is "${expected}"` });
  });
  const previousTag = previousReleaseTag(options.tags ?? (await gitTags(root)), version);
  const operators: ReleasedOperator[] = [];
  const changes = [];
  for (const system of IMAGE_SYSTEMS) {
    const image = releaseImage(system, version);
    const chartPackage = await packageChart(chartDir(root, system), join(outDir, 'charts'));
    if (basename(chartPackage) !== chartPackageFile(system, version)) {
      problems.push({ file: `charts/${system}-operator/Chart.yaml`, message: `helm packaged ${basename(chartPackage)}, the release pushes ${chartPackageFile(system, version)}` });
    }
    const chartDefaultImage = await defaultOperatorImage(chartPackage);
    if (chartDefaultImage !== image) {
      problems.push({ file: `charts/${system}-operator`, message: `the packaged chart's default image is ${chartDefaultImage}, the release pushes ${image}` });
    }
    const texts = chartCrdTexts(chartDir(root, system));
    const crdBundlePath = join(outDir, 'crds', crdBundleFile(system));
    writeFileSync(crdBundlePath, crdBundle(`${system}-operator`, version, texts));
    const current = parseCrds(texts);
    const before = previousTag === undefined ? new Map() : parseCrds(await yamlFilesAt(root, previousTag, `charts/${system}-operator/crds`));
    changes.push({ operator: `${system}-operator`, changes: diffCrds(before, current) });
    operators.push({ system, reportedVersion: reported[IMAGE_SYSTEMS.indexOf(system)] ?? '', image, chartPackage, chartDefaultImage, crdBundle: crdBundlePath, crdCount: current.size });
  }

  const notesFile = join(outDir, 'release-notes.md');
  writeFileSync(notesFile, releaseNotes(root, version, crdChangesMarkdown(changes, previousTag)));
  return { version, previousTag, operators, notesFile, problems };
}

/** The GitHub release's body: the changelog's section, how to install and upgrade, then the CRD changes. */
function releaseNotes(root: string, version: string, crdChanges: string): string {
  const changelog = join(root, 'CHANGELOG.md');
  const section = existsSync(changelog) ? changelogSection(readFileSync(changelog, 'utf8'), version) : undefined;
  return [
    section?.body ?? '',
    '',
    '## Install',
    '',
    '```sh',
    ...IMAGE_SYSTEMS.map((system) => `${installCommand(system, version)} --namespace domain-operators --create-namespace`),
    '```',
    '',
    `Upgrading: Helm does not upgrade CRDs. Apply the attached CRDs first, then upgrade the chart, e.g. \`kubectl apply --server-side --force-conflicts -f ${crdBundleFile('kafka')}\` and \`${upgradeCommand('kafka', version)} --namespace domain-operators\`.`,
    '',
    `Images: ${IMAGE_SYSTEMS.map((system) => `\`${releaseImage(system, version)}\``).join(', ')} (linux/amd64, linux/arm64; signed with cosign, keyless; SBOM and provenance attached).`,
    '',
    crdChanges,
  ].join('\n');
}
