import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { installCommand } from './release-artifacts.ts';
import type { ReleaseSystem } from './release-artifacts.ts';
import { IMAGE_SYSTEMS } from './repo.ts';

/** A release version: `MAJOR.MINOR.PATCH`, with an optional pre-release (`1.2.0-rc.1`); no build metadata. */
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/;

/** The label a CRD may carry to name the release it belongs to; when present it must be the release version. */
export const CRD_VERSION_LABEL = 'app.kubernetes.io/version';

/** One place where a copy of the version disagrees with the repository's version, or a required mention is missing. */
export interface VersionProblem {
  /** The file, relative to the checkout. */
  readonly file: string;
  readonly message: string;
}

/**
 * The repository's one version (ADR 0027): `version` in the root `package.json`. Throws when it is missing or not
 * `MAJOR.MINOR.PATCH[-pre]`. Reads only that file.
 */
export function readRepositoryVersion(root: string): string {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string' || !SEMVER.test(pkg.version)) {
    throw new Error(`package.json: version must be MAJOR.MINOR.PATCH (the release version, ADR 0027), got ${JSON.stringify(pkg.version)}`);
  }
  return pkg.version;
}

/** `v1.2.3` → `1.2.3`; throws for anything but `v` followed by a version. Pure. */
export function versionOfTag(tag: string): string {
  const version = tag.startsWith('v') ? tag.slice(1) : '';
  if (!SEMVER.test(version)) throw new Error(`release tag must be vMAJOR.MINOR.PATCH, got "${tag}"`);
  return version;
}

/**
 * Every copy of the version in the checkout at `root` that is not `version`, and every place that must name it but
 * does not: each chart's `Chart.yaml` `version` and `appVersion`; its `values.yaml` `image.tag` (empty, meaning
 * appVersion, or the version); the `app.kubernetes.io/version` label of each CRD that carries one; the install
 * command `helm install <system>-operator oci://… --version <version>` in `docs/operators/<system>.md` and the root
 * `README.md`; and a
 * `## [<version>]` section with at least one entry in `CHANGELOG.md`, dated (`- YYYY-MM-DD`) when `dated`. Reads
 * files only; an empty list means consistent.
 */
export function versionProblems(root: string, version: string, options: { readonly dated?: boolean } = {}): VersionProblem[] {
  return [...IMAGE_SYSTEMS.flatMap((system) => chartProblems(root, system, version)), ...IMAGE_SYSTEMS.flatMap((system) => docsProblems(root, system, version)), ...changelogProblems(root, version, options.dated ?? false)];
}

function chartProblems(root: string, system: ReleaseSystem, version: string): VersionProblem[] {
  const chartDir = `charts/${system}-operator`;
  const problems: VersionProblem[] = [];
  const chart = parse(readFileSync(join(root, chartDir, 'Chart.yaml'), 'utf8')) as { version?: unknown; appVersion?: unknown };
  for (const field of ['version', 'appVersion'] as const) {
    if (String(chart[field]) !== version) problems.push({ file: `${chartDir}/Chart.yaml`, message: `${field} is ${JSON.stringify(chart[field])}, the release version is ${version}` });
  }
  const values = parse(readFileSync(join(root, chartDir, 'values.yaml'), 'utf8')) as { image?: { tag?: unknown } };
  const tag = values.image?.tag ?? '';
  if (tag !== '' && tag !== version) problems.push({ file: `${chartDir}/values.yaml`, message: `image.tag is ${JSON.stringify(tag)}: leave it "" (the chart's appVersion) or set ${version}` });
  const crdDir = join(root, chartDir, 'crds');
  for (const file of existsSync(crdDir) ? readdirSync(crdDir).filter((name) => name.endsWith('.yaml')).sort() : []) {
    for (const document of parseAllDocuments(readFileSync(join(crdDir, file), 'utf8'))) {
      const labels = (document.toJS() as { metadata?: { labels?: Record<string, unknown> } } | null)?.metadata?.labels ?? {};
      const label = labels[CRD_VERSION_LABEL];
      if (label !== undefined && label !== version) problems.push({ file: `${chartDir}/crds/${file}`, message: `label ${CRD_VERSION_LABEL} is ${JSON.stringify(label)}, the release version is ${version}` });
    }
  }
  return problems;
}

function docsProblems(root: string, system: ReleaseSystem, version: string): VersionProblem[] {
  const command = installCommand(system, version);
  return [`docs/operators/${system}.md`, 'README.md']
    .filter((file) => !readFileSync(join(root, file), 'utf8').includes(command))
    .map((file) => ({ file, message: `has no install command "${command}"` }));
}

function changelogProblems(root: string, version: string, dated: boolean): VersionProblem[] {
  const file = 'CHANGELOG.md';
  if (!existsSync(join(root, file))) return [{ file, message: 'is missing' }];
  const section = changelogSection(readFileSync(join(root, file), 'utf8'), version);
  if (section === undefined) return [{ file, message: `has no section "## [${version}]"` }];
  const problems: VersionProblem[] = [];
  if (!/^\s*[-*] \S/m.test(section.body)) problems.push({ file, message: `section [${version}] lists nothing` });
  if (dated && !/^\d{4}-\d{2}-\d{2}$/.test(section.date)) problems.push({ file, message: `section [${version}] must be dated "## [${version}] - YYYY-MM-DD" when it is released, got "${section.date}"` });
  return problems;
}

/** One release's section of a Keep a Changelog file. */
export interface ChangelogSection {
  /** What follows `## [version] - ` on the heading (a date, or `Unreleased`); empty when nothing does. */
  readonly date: string;
  /** The lines up to the next `## ` heading, trimmed. */
  readonly body: string;
}

/** The section `## [<version>]` of a changelog's text, or `undefined` when there is none. Pure. */
export function changelogSection(changelog: string, version: string): ChangelogSection | undefined {
  const lines = changelog.split('\n');
  const heading = `## [${version}]`;
  const start = lines.findIndex((line) => line === heading || line.startsWith(`${heading} `));
  if (start === -1) return undefined;
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const date = (lines[start] ?? '').slice(heading.length).replace(/^\s*-\s*/, '').trim();
  return { date, body: lines.slice(start + 1, end === -1 ? undefined : end).join('\n').trim() };
}
