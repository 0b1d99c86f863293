// `npm start`'s last step: the three operators as local processes against testenv, with the examples of
// examples/local applied and Ready, until SIGINT or SIGTERM. Wiring only; see local-stack.ts.
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { promisify } from 'node:util';
import { shutdownSignal } from '@domain-operators/reconcile';
import { resolvePaths } from '@domain-operators/testenv';
import { LOCAL_STACK_USAGE, parseLocalStackArgs } from './local-stack-args.ts';
import { kubectlGetArgs, LOCAL_STACK_READY, startLocalStack } from './local-stack.ts';
import type { LocalStack } from './local-stack.ts';

const out = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

let args;
try {
  args = parseLocalStackArgs(process.argv.slice(2));
} catch (err) {
  process.stderr.write(`local-stack: ${(err as Error).message}\n${LOCAL_STACK_USAGE}\n`);
  process.exit(2);
}
const root = resolvePaths().root;
const signal = shutdownSignal();
let stack: LocalStack;
try {
  stack = await startLocalStack({ log: out }, { systems: args.systems, signal, ...(args.instance !== undefined && { instance: args.instance }) });
} catch (err) {
  if (signal.aborted) {
    out('local-stack: interrupted; the operators started so far are stopped, the environment stays up');
    process.exit(130);
  }
  process.stderr.write(`local-stack: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

const kubectl = kubectlGetArgs(relative(root, stack.kubeconfig), args.systems);
out(`\n$ kubectl ${kubectl.join(' ')}`);
try {
  const { stdout } = await promisify(execFile)('kubectl', kubectl, { cwd: root });
  out(stdout.trimEnd());
} catch (err) {
  const failed = err as NodeJS.ErrnoException & { stderr?: string };
  out(failed.code === 'ENOENT' ? '(kubectl is not installed here: install it to look around)' : `(kubectl failed: ${failed.stderr?.trim() ?? failed.message})`);
}
out(`
${LOCAL_STACK_READY}: ${stack.operators.length} operators running, ${stack.resources.length} resources Ready.
  export KUBECONFIG=$PWD/${relative(root, stack.kubeconfig)}
  kubectl get ${args.systems.join(',')} -A
Operator logs: ${stack.operators.map((operator) => `.testenv/logs/e2e-${operator.system}-operator.log`).join(', ')}.
Ctrl-C stops the operators; the environment stays up (stop it with: npm run testenv -- down).`);

// An operator that dies while the stack runs is reported, not restarted: its log says why.
const reported = new Set<string>();
const watchdog = setInterval(() => {
  for (const operator of stack.operators) {
    if (operator.pid() !== undefined || reported.has(operator.system)) continue;
    reported.add(operator.system);
    out(`local-stack: ${operator.system}-operator is not running any more; see .testenv/logs/e2e-${operator.system}-operator.log`);
  }
}, 5_000);
await new Promise<void>((resolve) => {
  if (signal.aborted) resolve();
  signal.addEventListener(
    'abort',
    () => {
      resolve();
    },
    { once: true },
  );
});
clearInterval(watchdog);
out('local-stack: stopping the operators');
await stack.stop();
out('local-stack: operators stopped; the environment and the example resources stay (npm run testenv -- down stops the environment)');
process.exit(0);
