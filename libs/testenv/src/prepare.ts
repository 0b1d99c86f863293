import { mkdir } from 'node:fs/promises';
import type { ComponentContext } from './component.ts';
import { ensureBinaries } from './control-plane/build.ts';
import { controlPlaneLayout } from './control-plane/layout.ts';
import { ensureKafkaBuild } from './kafka/build.ts';
import { KAFKA_VERSION } from './kafka/kafka.ts';
import { buildNodeImages } from './node/images.ts';
import { ensureNodeAddonBinaries } from './node-build/addon-binaries.ts';
import { ensureOpenSearchBuild } from './opensearch/build.ts';
import { opensearchLayout } from './opensearch/layout.ts';
import { OPENSEARCH_VERSION } from './opensearch/settings.ts';
import type { TestenvPaths } from './paths.ts';
import { resolvePaths } from './paths.ts';
import { ensureS3Build } from './s3/build.ts';
import { ensureKstatusBuild } from './kstatus/build.ts';
import { progressContexts } from './progress.ts';

/** Options of {@link prepareEnvironment}. */
export interface PrepareOptions {
  readonly paths?: TestenvPaths;
  /** Receives one progress line at a time, prefixed with elapsed time and the build's name. */
  readonly log?: (line: string) => void;
}

/**
 * Builds or fetches, into the machine-wide cache, everything `testenv up` would otherwise build on its first run:
 * the Kubernetes and etcd binaries, the node's add-ons and their images, the Kafka class path, the OpenSearch
 * launcher, the S3 gateway and kstatus-check (the e2e suites' kstatus). Starts no process that outlives it and takes no lock (every build renames its result
 * into place, so a concurrent `up` at worst builds the same thing twice). The six builds run concurrently: their downloads wait on
 * the network while another build compiles. Cheap when everything is cached (hash and existence checks only).
 * `npm test` runs it in the background beside lint, type checks and unit tests, which is what makes a first run on an
 * empty cache fit its time budget. Rejects, after every build finished, naming each one that failed.
 */
export async function prepareEnvironment(options: PrepareOptions = {}): Promise<void> {
  const paths = options.paths ?? resolvePaths();
  await mkdir(paths.logsDir, { recursive: true });
  const contextFor = progressContexts(paths, options.log);
  const builds: Record<string, (ctx: ComponentContext) => Promise<unknown>> = {
    kubernetes: (ctx) => ensureBinaries(ctx, controlPlaneLayout(paths)),
    node: async (ctx) => buildNodeImages(ctx, await ensureNodeAddonBinaries(ctx)),
    kafka: (ctx) => ensureKafkaBuild(ctx, KAFKA_VERSION),
    opensearch: (ctx) => ensureOpenSearchBuild(ctx, opensearchLayout(paths, OPENSEARCH_VERSION)),
    s3: (ctx) => ensureS3Build(ctx),
    kstatus: (ctx) => ensureKstatusBuild(ctx),
  };
  const failures: string[] = [];
  await Promise.all(
    Object.entries(builds).map(async ([name, build]) => {
      const ctx = contextFor(name);
      try {
        await build(ctx);
        ctx.progress('ready');
      } catch (err) {
        failures.push(`${name}: ${(err as Error).message}`);
        ctx.progress('FAILED');
      }
    }),
  );
  if (failures.length > 0) throw new Error(`testenv prepare failed:\n${failures.join('\n\n')}`);
}
