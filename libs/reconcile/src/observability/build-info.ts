import { Gauge } from 'prom-client';
import type { Registry } from 'prom-client';
// The repository's one version (ADR 0027). esbuild inlines this JSON into each operator's bundle, and the images are
// built from the whole workspace, so every build reports the version it was built from. The root package.json belongs
// to no Nx project, so the boundary rule (which guards imports between projects) has nothing to protect here.
// eslint-disable-next-line @nx/enforce-module-boundaries -- the workspace root's package.json, not another project
import rootPackage from '../../../../package.json' with { type: 'json' };

/** What an operator process was built from. */
export interface BuildInfo {
  /** The release version: `version` in the repository's root `package.json` (ADR 0027). */
  readonly version: string;
  /** The Node.js release running the process (`process.version`, e.g. `v24.9.0`). */
  readonly nodeVersion: string;
}

/** This process's {@link BuildInfo}. Pure (reads only the inlined package.json and `process.version`). */
export function buildInfo(): BuildInfo {
  return { version: rootPackage.version, nodeVersion: process.version };
}

/** `kafka-operator` → `kafka_operator_build_info`: the operator's name made a Prometheus metric name. Pure. */
export function buildInfoMetricName(operator: string): string {
  return `${operator.replace(/[^a-zA-Z0-9_]/g, '_')}_build_info`;
}

/**
 * Registers the gauge `<operator>_build_info{version,node_version}` in `registry`, always 1 (the Prometheus
 * `*_build_info` convention: join on it to label any series with the build). Throws when the registry already
 * holds a metric of that name.
 */
export function registerBuildInfo(registry: Registry, operator: string, info: BuildInfo): void {
  const gauge = new Gauge({
    name: buildInfoMetricName(operator),
    help: `The ${operator} build: its release version and Node.js version; always 1.`,
    labelNames: ['version', 'node_version'] as const,
    registers: [registry],
  });
  gauge.set({ version: info.version, node_version: info.nodeVersion }, 1);
}
