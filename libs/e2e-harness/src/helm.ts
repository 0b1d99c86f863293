import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { resolvePaths } from '@domain-operators/testenv';

const run = promisify(execFile);

/**
 * Path of the `helm` binary that `scripts/setup.sh` builds from the Go module proxy:
 * `<cache>/bin/helm`, where `<cache>` is testenv's shared build cache (`$DOMAIN_OPERATORS_CACHE`, else
 * `$XDG_CACHE_HOME/domain-operators`, else `~/.cache/domain-operators`). Throws, naming the fix, when it is missing.
 */
export function helmPath(env: NodeJS.ProcessEnv = process.env): string {
  const path = join(resolvePaths(undefined, env).cacheDir, 'bin', 'helm');
  if (!existsSync(path)) throw new Error(`helm is not installed at ${path}: run \`npm run setup\` (scripts/setup.sh builds it with go install)`);
  return path;
}

/** The outcome of one helm command that was allowed to fail. */
export interface HelmResult {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `helm <args>` and resolves with its exit code and output; never rejects for a non-zero exit (tests assert
 * on failures), only when helm cannot be started.
 */
export async function helm(args: readonly string[], options: { readonly cwd?: string } = {}): Promise<HelmResult> {
  try {
    const { stdout, stderr } = await run(helmPath(), [...args], { cwd: options.cwd, maxBuffer: 64 * 1024 * 1024 });
    return { exitCode: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw err;
    return { exitCode: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Options for {@link helmTemplate}. */
export interface HelmTemplateOptions {
  readonly chartDir: string;
  readonly releaseName: string;
  readonly namespace: string;
  /** Values files, in order (later ones win). */
  readonly valuesFiles?: readonly string[];
  /** `--set-json key=<json>` overrides, applied after the files. */
  readonly setJson?: Readonly<Record<string, unknown>>;
  /** Render the chart's `crds/` folder too (`--include-crds`). */
  readonly includeCrds?: boolean;
}

/** The `helm template` arguments for `options`. Pure. */
export function helmTemplateArgs(options: HelmTemplateOptions): string[] {
  return [
    'template',
    options.releaseName,
    options.chartDir,
    '--namespace',
    options.namespace,
    ...(options.includeCrds === true ? ['--include-crds'] : []),
    ...(options.valuesFiles ?? []).flatMap((file) => ['--values', file]),
    ...Object.entries(options.setJson ?? {}).flatMap(([key, value]) => ['--set-json', `${key}=${JSON.stringify(value)}`]),
  ];
}

/** Renders a chart with `helm template` and resolves with the YAML; rejects with helm's message on failure. */
export async function helmTemplate(options: HelmTemplateOptions): Promise<string> {
  const result = await helm(helmTemplateArgs(options));
  if (result.exitCode !== 0) throw new Error(`helm ${helmTemplateArgs(options).join(' ')} failed (exit ${result.exitCode}): ${result.stderr.trim()}`);
  return result.stdout;
}
