// `kubectl apply` as a team runs it, for the suites that check what a person sees (admission refusals and warnings).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ensureTestEnv } from '@domain-operators/testenv';
import { targetsExistingCluster } from './cluster.ts';

const run = promisify(execFile);

/** What `kubectl apply` printed (stdout then stderr) and whether it succeeded. */
export interface Applied {
  readonly ok: boolean;
  readonly output: string;
}

/** The admin kubeconfig file of the cluster the suites target (`$E2E_KUBECONFIG`, else testenv's apiserver, started if needed). */
export async function adminKubeconfig(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return targetsExistingCluster(env) ? (env['E2E_KUBECONFIG'] ?? '') : (await ensureTestEnv(['apiserver'])).apiserver.kubeconfig;
}

/**
 * `kubectl apply [--dry-run=server] -f -` of `object` (as JSON on stdin) with `kubeconfig`. Resolves whether it
 * succeeded and its output; never rejects for a refused apply.
 */
export async function kubectlApply(kubeconfig: string, object: object, options: { readonly dryRun: boolean }): Promise<Applied> {
  const child = run('kubectl', ['--kubeconfig', kubeconfig, 'apply', ...(options.dryRun ? ['--dry-run=server'] : []), '-f', '-'], { encoding: 'utf8' });
  child.child.stdin?.end(JSON.stringify(object));
  try {
    const { stdout, stderr } = await child;
    return { ok: true, output: `${stdout}${stderr}` };
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}
