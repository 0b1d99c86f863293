import type { TestenvPaths } from './paths.ts';

/** The components `testenv up --only` can name. */
export type ComponentName = 'apiserver' | 'kafka' | 'opensearch' | 'redis' | 's3';

/** What every component gets from the orchestrator. */
export interface ComponentContext {
  readonly paths: TestenvPaths;
  /** Reports one step of progress (the orchestrator prefixes the component and elapsed time). Must not throw. */
  progress(message: string): void;
}

/**
 * One real process (or a few) of the local environment.
 *
 * Contract: `up` is idempotent: when the component is already running and healthy it returns its info
 * without restarting it; it builds what is missing (cached by version under `paths.cacheDir`), starts the
 * processes detached (they outlive the CLI), waits until they really serve, and rejects with an error whose
 * message names the component and carries the last lines of its log. `down` stops every process it started
 * and never throws when nothing runs.
 */
export interface Component<Info> {
  readonly name: ComponentName;
  up(ctx: ComponentContext): Promise<Info>;
  down(ctx: ComponentContext): Promise<void>;
  /** True when the processes run and answer a real request. */
  healthy(ctx: ComponentContext): Promise<boolean>;
}
