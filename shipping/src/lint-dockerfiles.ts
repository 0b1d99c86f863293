// `nx run shipping:lint` (with eslint): lints operators/Dockerfile (every operator's image) with dockerfile-utils and
// the operator image rules, one line for the file and one per problem. Exits non-zero when it has a problem.
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { lintDockerfile } from './dockerfile-rules.ts';
import { dockerfilePath, REPO_ROOT } from './repo.ts';

const file = dockerfilePath();
const problems = lintDockerfile(readFileSync(file, 'utf8'));
process.stdout.write(`dockerfile lint ${relative(REPO_ROOT, file)}: ${problems.length === 0 ? 'ok' : 'FAILED'}\n`);
for (const problem of problems) process.stdout.write(`  ${relative(REPO_ROOT, file)}:${problem.line}: ${problem.message}\n`);
process.exitCode = problems.length === 0 ? 0 : 1;
