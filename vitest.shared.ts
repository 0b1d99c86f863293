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
 * The vitest configuration every workspace project uses: a `unit` project (`src/**\/*.spec.ts`, virtual time,
 * no network) and an `integration` project (`src/**\/*.int.spec.ts`, real control plane and backends, files run
 * one at a time because they share one environment). Nx's `test` and `integration` targets pick one with `--project`.
 */
export function projectVitestConfig(options: ProjectVitestOptions = {}): ViteUserConfig {
  return defineConfig({
    test: {
      projects: [
        {
          test: {
            name: 'unit',
            include: ['src/**/*.spec.ts'],
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
