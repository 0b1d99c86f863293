// Sums the vitest JSON reports of one test run and prints the closing line "N passed, N failed, N skipped".
// Exits 1 when any test failed or no test ran at all (a run that tests nothing is not a green run).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface VitestReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests?: number;
}

const dir = process.argv[2] ?? '.reports/vitest';
let passed = 0;
let failed = 0;
let skipped = 0;
let files: string[] = [];
try {
  files = readdirSync(dir).filter((f) => f.endsWith('.json'));
} catch {
  files = [];
}
for (const file of files.sort()) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as VitestReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  process.stdout.write(`  ${file.replace(/\.json$/, '')}: ${report.numPassedTests} passed, ${report.numFailedTests} failed\n`);
}
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
