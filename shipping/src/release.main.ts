// `nx run shipping:release-dry-run` (and the release workflow, with --tag): every step of a release but the pushes.
//   node src/release.main.ts [--out <dir>] [--tag vX.Y.Z]
// Prints what would be pushed and every version problem; exits 1 when there is one (or a tool fails).
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { prepareRelease } from './release.ts';
import { REPO_ROOT } from './repo.ts';

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { out: { type: 'string' }, tag: { type: 'string' } }, strict: true });
  const outDir = resolve(values.out ?? `${REPO_ROOT}/dist/release`);
  const report = await prepareRelease({ root: REPO_ROOT, outDir, ...(values.tag !== undefined && { tag: values.tag }) });
  const shown = (path: string): string => (relative(REPO_ROOT, path).startsWith('..') ? path : relative(REPO_ROOT, path));
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  out(`release ${report.version}${values.tag === undefined ? ' (dry run: nothing pushed)' : ` (tag ${values.tag})`}; CRD changes since ${report.previousTag ?? 'the beginning (first release)'}`);
  for (const operator of report.operators) {
    out(`  ${operator.system}-operator: --version "${operator.reportedVersion}"; image ${operator.image}; chart ${shown(operator.chartPackage)} defaults to ${operator.chartDefaultImage}; ${operator.crdCount} CRDs in ${shown(operator.crdBundle)}`);
  }
  out(`  release notes: ${shown(report.notesFile)}`);
  for (const problem of report.problems) out(`  PROBLEM ${problem.file}: ${problem.message}`);
  out(report.problems.length === 0 ? 'release: versions consistent, ready to push' : `release: ${report.problems.length} problem(s), not releasable`);
  return report.problems.length === 0 ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`release: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
