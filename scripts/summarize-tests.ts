// Sums the vitest JSON reports of one test run and prints the closing line "N passed, N failed, N skipped".
// Every failed test is listed above that line with the first lines of its failure message, so the tail of a CI log
// always names what failed even when the log is cut.
// Exits 1 when any test failed or no test ran at all (a run that tests nothing is not a green run).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface VitestAssertion {
  readonly fullName: string;
  readonly status: string;
  readonly failureMessages?: readonly string[];
}

interface VitestFileResult {
  readonly name: string;
  readonly message?: string;
  readonly status?: string;
  readonly assertionResults?: readonly VitestAssertion[];
}

interface VitestReport {
  readonly numPassedTests: number;
  readonly numFailedTests: number;
  readonly numPendingTests: number;
  readonly numTodoTests?: number;
  readonly testResults?: readonly VitestFileResult[];
}

const MESSAGE_LINES = 6;

function firstLines(text: string): string {
  return text
    .split('\n')
    .slice(0, MESSAGE_LINES)
    .map((line) => `      ${line}`)
    .join('\n');
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
const failures: string[] = [];
for (const file of files.sort()) {
  const report = JSON.parse(readFileSync(join(dir, file), 'utf8')) as VitestReport;
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  process.stdout.write(`  ${file.replace(/\.json$/, '')}: ${report.numPassedTests} passed, ${report.numFailedTests} failed\n`);
  for (const result of report.testResults ?? []) {
    const where = result.name.replace(/^.*?\/(libs|operators|e2e|charts|shipping)\//, '$1/');
    for (const assertion of result.assertionResults ?? []) {
      if (assertion.status !== 'failed') continue;
      failures.push(`  FAILED ${where} > ${assertion.fullName}\n${firstLines((assertion.failureMessages ?? []).join('\n'))}`);
    }
    if (result.status === 'failed' && (result.assertionResults ?? []).every((a) => a.status !== 'failed')) {
      failures.push(`  FAILED ${where} (file)\n${firstLines(result.message ?? '')}`);
    }
  }
}
if (failures.length > 0) process.stdout.write(`${failures.join('\n')}\n`);
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
