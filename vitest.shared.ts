import { defineConfig } from 'vitest/config';
import type { ViteUserConfig } from 'vitest/config';

/** Options for {@link projectVitestConfig}. */
export interface ProjectVitestOptions {
  /**
   * Global setup files for the `integration` project, typically the testenv setup that starts the real
   * components the suite needs (reusing an environment that is already up).
   */
  readonly integrationGlobalSetup?: readonly string[];
}

/**
 * The vitest configuration every workspace project uses: a `unit` project (`src/**\/*.spec.ts` and
 * `bench/**\/*.spec.ts`, virtual time, no network) and an `integration` project (`src/**\/*.int.spec.ts`, real
 * control plane and backends, files run one at a time because they share one environment). Nx's `test` and
 * `integration` targets pick one with `--project`.
 */
export function projectVitestConfig(options: ProjectVitestOptions = {}): ViteUserConfig {
  return defineConfig({
    test: {
      projects: [
        {
          test: {
            name: 'unit',
            // bench/: the pure parts of a project's benchmarks (their reports), which the benchmarks themselves never test.
            include: ['src/**/*.spec.ts', 'bench/**/*.spec.ts'],
            exclude: ['src/**/*.int.spec.ts', '**/node_modules/**'],
            environment: 'node',
          },
        },
        {
          test: {
            name: 'integration',
            include: ['src/**/*.int.spec.ts'],
            environment: 'node',
            globalSetup: [...(options.integrationGlobalSetup ?? [])],
            fileParallelism: false,
            testTimeout: 180_000,
            hookTimeout: 600_000,
          },
        },
      ],
    },
  });
}

/** Options for {@link e2eVitestConfig}. */
export interface E2eVitestOptions {
  /** Global setup files, typically one that brings up the testenv components the suite needs and builds the operator. */
  readonly globalSetup?: readonly string[];
}

/**
 * The vitest configuration of an `e2e/<area>` project: one `e2e` project (`src/**\/*.e2e.spec.ts`) whose files run
 * one at a time (they share one environment and start operator processes) with long timeouts. Nx's `e2e` target
 * picks it with `--project e2e`.
 */
export function e2eVitestConfig(options: E2eVitestOptions = {}): ViteUserConfig {
  return defineConfig({
    test: {
      projects: [
        {
          test: {
            name: 'e2e',
            include: ['src/**/*.e2e.spec.ts'],
            environment: 'node',
            globalSetup: [...(options.globalSetup ?? [])],
            fileParallelism: false,
            testTimeout: 600_000,
            hookTimeout: 900_000,
          },
        },
      ],
    },
  });
}
