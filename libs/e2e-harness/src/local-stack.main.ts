// `npm start`'s last step: the three operators as Pods of their Helm releases on testenv's node, with the examples
// of examples/local applied and Ready, until SIGINT or SIGTERM, which uninstalls the releases. Wiring only; see
// local-stack.ts.
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { promisify } from 'node:util';
import { shutdownSignal } from '@domain-operators/reconcile';
import { resolvePaths } from '@domain-operators/testenv';
import { LOCAL_STACK_USAGE, parseLocalStackArgs } from './local-stack-args.ts';
import { kubectlGetPodsArgs, logsCommand, operatorPodHealth, podHealthChange, podTable } from './local-stack-pods.ts';
import type { OperatorPodHealth } from './local-stack-pods.ts';
import { deploymentName, kubectlGetArgs, LOCAL_STACK_READY, startLocalStack } from './local-stack.ts';
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
    out('local-stack: interrupted; the operator releases installed so far are uninstalled, the environment stays up');
    process.exit(130);
  }
  process.stderr.write(`local-stack: FAILED: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

/** Prints `kubectl <args>`'s output; `undefined` when kubectl is not installed (the caller prints its own stand-in). */
async function kubectl(kubectlArgs: readonly string[]): Promise<true | undefined> {
  out(`\n$ kubectl ${kubectlArgs.join(' ')}`);
  try {
    const { stdout } = await promisify(execFile)('kubectl', [...kubectlArgs], { cwd: root });
    out(stdout.trimEnd());
    return true;
  } catch (err) {
    const failed = err as NodeJS.ErrnoException & { stderr?: string };
    if (failed.code === 'ENOENT') return undefined;
    out(`(kubectl failed: ${failed.stderr?.trim() ?? failed.message})`);
    return true;
  }
}

const kubeconfig = relative(root, stack.kubeconfig);
let kubectlMissing = false;
for (const operator of stack.operators) {
  if ((await kubectl(kubectlGetPodsArgs(kubeconfig, operator.namespace))) === undefined) {
    // The same table, from the apiserver.
    kubectlMissing = true;
    out(podTable(await stack.operatorPods(operator), operator.namespace, new Date()));
  }
}
if (!kubectlMissing) await kubectl(['--kubeconfig', kubeconfig, 'get', 'validatingadmissionpolicies']);
if ((await kubectl(kubectlGetArgs(kubeconfig, args.systems))) === undefined) {
  out('(kubectl is not installed here: install it to look around; the Ready lines above are what it would show)');
}
if (kubectlMissing) out('(the Pod tables above come from the apiserver: kubectl is not installed here)');
out(`
${LOCAL_STACK_READY}: ${stack.operators.length} operators running as Pods, ${stack.resources.length} resources Ready.
  export KUBECONFIG=$PWD/${kubeconfig}
  kubectl get ${args.systems.join(',')} -A
Operator logs: ${stack.operators.map((operator) => logsCommand(operator.namespace, deploymentName(operator))).join('; ')}.
Ctrl-C uninstalls the operators' Helm releases; the environment and the example resources stay (stop the environment with: npm run testenv -- down).`);

// The kubelet restarts an operator container that exits; the stack says so, with where to read why.
const health = new Map<string, OperatorPodHealth>();
for (const operator of stack.operators) health.set(operator.system, operatorPodHealth(await stack.operatorPods(operator)));
let watching: Promise<void> = Promise.resolve();
const watchdog = setInterval(() => {
  watching = watching.then(async () => {
    for (const operator of stack.operators) {
      const before = health.get(operator.system);
      let after: OperatorPodHealth;
      try {
        after = operatorPodHealth(await stack.operatorPods(operator));
      } catch {
        continue; // the apiserver did not answer this time; the next tick asks again
      }
      health.set(operator.system, after);
      const deployment = deploymentName(operator);
      const change = before === undefined ? undefined : podHealthChange(`${operator.system}-operator`, before, after, { current: logsCommand(operator.namespace, deployment), previous: logsCommand(operator.namespace, deployment, true) });
      if (change !== undefined) out(`local-stack: ${change}`);
    }
  });
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
await watching;
out(`local-stack: uninstalling the operators (${stack.operators.map((operator) => `helm uninstall ${operator.releaseName} -n ${operator.namespace}`).join('; ')})`);
try {
  await stack.stop();
} catch (err) {
  process.stderr.write(`local-stack: FAILED to uninstall: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
out('local-stack: operators uninstalled; the environment, the CRDs and the example resources stay (npm run testenv -- down stops the environment)');
process.exit(0);
