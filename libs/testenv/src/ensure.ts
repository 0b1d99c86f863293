import type { ComponentName } from './component.ts';
import type { TestEnv } from './env-file.ts';
import { upEnvironment } from './environment.ts';

/** A {@link TestEnv} in which the requested components are guaranteed present. */
export type EnsuredTestEnv<N extends ComponentName> = TestEnv & { readonly [K in N]-?: NonNullable<TestEnv[K]> };

/**
 * For test suites (`beforeAll` or vitest global setup): makes sure the named components are up, reusing what
 * already runs (a second call costs a health check), and returns the environment. It never stops anything:
 * `npm test` takes the environment down at the end; after a local run, `npm run testenv -- down` does.
 * Rejects with the component's log tail when one cannot start.
 */
export async function ensureTestEnv<N extends ComponentName>(components: readonly N[]): Promise<EnsuredTestEnv<N>> {
  const env = await upEnvironment({ only: components });
  for (const name of components) {
    if (env[name] === undefined) throw new Error(`testenv: ${name} did not come up`);
  }
  return env as EnsuredTestEnv<N>;
}
