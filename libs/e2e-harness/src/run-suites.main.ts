// `npm test`'s suite phase: every integration and e2e target of the workspace, planned by lane (suite-lanes.ts) and
// run by suite-run.ts. Each step is `nx run <project>:<target>`; in a lane, every output line carries its project's
// name, so the lanes' interleaved logs stay readable. Exits 1 when any step failed, 130/143 after SIGINT/SIGTERM (children
// stopped first). Wiring only.
import { spawn } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { resolvePaths } from '@domain-operators/testenv';
import { planSuites } from './suite-lanes.ts';
import type { SuiteProject, SuiteStep } from './suite-lanes.ts';
import { formatSuiteReport, runSuitePlan } from './suite-run.ts';

const root = resolvePaths().root;
const nx = join(root, 'node_modules', '.bin', 'nx');

function readProjects(): SuiteProject[] {
  const files = globSync('**/project.json', { cwd: root, exclude: (name) => name === 'node_modules' || name === 'dist' || name.startsWith('.') });
  return files.map((file) => {
    const json = JSON.parse(readFileSync(join(root, file), 'utf8')) as { name?: string; tags?: string[]; targets?: Record<string, unknown> };
    return { name: json.name ?? dirname(file), tags: json.tags ?? [], targets: Object.keys(json.targets ?? {}) };
  });
}

const children = new Set<number>();
const stop = new AbortController();
let stoppedBy: NodeJS.Signals | undefined;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    stoppedBy = signal;
    stop.abort();
    for (const pid of children) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * `nx run project:target`, in its own process group. A lane's step runs with Nx's `stream` output style, which
 * prefixes every line with the project's name as it comes, so lanes side by side stay readable.
 */
async function runStep(step: SuiteStep, lane: string | undefined): Promise<number> {
  const label = `${step.project}:${step.target}`;
  process.stdout.write(`${lane === undefined ? '' : `[lane ${lane}] `}> nx run ${label}\n`);
  const child = spawn(nx, ['run', label, `--outputStyle=${lane === undefined ? 'static' : 'stream'}`], { cwd: root, detached: true, stdio: 'inherit' });
  if (child.pid !== undefined) children.add(child.pid);
  return new Promise((resolve) => {
    child.on('error', (err) => {
      process.stdout.write(`cannot start nx run ${label}: ${err.message}\n`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      if (child.pid !== undefined) children.delete(child.pid);
      resolve(code ?? 128 + (signal === null ? 0 : constants.signals[signal]));
    });
  });
}

const plan = planSuites(readProjects());
process.stdout.write(
  `suites: ${plan.alone.length} step(s) alone, then ${plan.lanes.length} lanes side by side: ` +
    `${plan.lanes.map((lane) => `${lane.name} (${lane.steps.map((s) => `${s.project}:${s.target}`).join(', ')})`).join('; ')}\n`,
);
const report = await runSuitePlan(plan, runStep, stop.signal);
process.stdout.write(`${formatSuiteReport(report)}\n`);
if (stoppedBy !== undefined) process.exit(stoppedBy === 'SIGINT' ? 130 : 143);
process.exit(report.failed ? 1 : 0);
