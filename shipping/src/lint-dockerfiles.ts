// `nx run shipping:lint` (with eslint): lints every operators/<system>/Dockerfile with dockerfile-utils and the
// operator image rules, one line per file and one per problem. Exits non-zero when any file has a problem.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { lintDockerfile } from './dockerfile-rules.ts';
import { dockerfilePath, IMAGE_SYSTEMS, REPO_ROOT } from './repo.ts';

let failed = 0;
for (const system of IMAGE_SYSTEMS) {
  const file = dockerfilePath(system);
  const problems = lintDockerfile(readFileSync(file, 'utf8'));
  process.stdout.write(`dockerfile lint ${relative(REPO_ROOT, file)}: ${problems.length === 0 ? 'ok' : 'FAILED'}\n`);
  for (const problem of problems) process.stdout.write(`  ${relative(REPO_ROOT, file)}:${problem.line}: ${problem.message}\n`);
  if (problems.length > 0) failed++;
}
process.exitCode = failed === 0 ? 0 : 1;
