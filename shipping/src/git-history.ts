import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function git(root: string, args: readonly string[]): Promise<string> {
  const { stdout } = await run('git', [...args], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

/** `1.2.3` or `1.2.3-rc.1` as comparable numbers: major, minor, patch, then a release above its pre-releases. Pure. */
function versionKey(version: string): [number, number, number, number] {
  const [core = '', pre] = version.split('-', 2);
  const [major = 0, minor = 0, patch = 0] = core.split('.').map(Number);
  return [major, minor, patch, pre === undefined ? 1 : 0];
}

/** Negative, zero or positive as `a` is older than, the same as or newer than `b` (pre-releases by core only). Pure. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [versionKey(a), versionKey(b)];
  for (let i = 0; i < x.length; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

/**
 * The newest tag `vX.Y.Z` in `tags` older than `version`, or `undefined` when there is none (the first release).
 * Pure; tags that are not release tags are ignored.
 */
export function previousReleaseTag(tags: readonly string[], version: string): string | undefined {
  return tags
    .filter((tag) => /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(tag) && compareVersions(tag.slice(1), version) < 0)
    .sort((a, b) => compareVersions(b.slice(1), a.slice(1)))[0];
}

/** Every tag of the repository at `root` (`git tag --list`). A shallow clone without tags yields none. */
export async function gitTags(root: string): Promise<string[]> {
  return (await git(root, ['tag', '--list'])).split('\n').filter((tag) => tag !== '');
}

/** The text of every `*.yaml` file directly in `dir` (relative to the repository) at the commit `ref`; none when `dir` did not exist there. */
export async function yamlFilesAt(root: string, ref: string, dir: string): Promise<string[]> {
  const listing = await git(root, ['ls-tree', '--name-only', `${ref}:${dir}`]).catch((err: unknown) => {
    if (err instanceof Error && /not a tree object|does not exist|Not a valid object name/.test(err.message)) return '';
    throw err;
  });
  const files = listing.split('\n').filter((file) => file.endsWith('.yaml')).sort();
  return Promise.all(files.map((file) => git(root, ['show', `${ref}:${dir}/${file}`])));
}
