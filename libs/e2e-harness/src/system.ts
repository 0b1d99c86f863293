import { join } from 'node:path';
import { resolvePaths } from '@domain-operators/testenv';

/** The operators this repository ships; each has `operators/<system>`, `charts/<system>-operator` and `e2e/<system>`. */
export const OPERATOR_SYSTEMS = ['kafka', 'opensearch', 'redis'] as const;

/** One of {@link OPERATOR_SYSTEMS}. */
export type OperatorSystem = (typeof OPERATOR_SYSTEMS)[number];

/** Where one operator's parts live in the checkout. Pure over `root`. */
export interface OperatorLayout {
  /** `operators/<system>`: the Nx project root. */
  readonly projectDir: string;
  /** `operators/<system>/src/main.ts`: the bundle's entry point. */
  readonly entryPoint: string;
  /** `dist/operators/<system>/main.js`: the bundle, as the Nx `build` target writes it. */
  readonly bundle: string;
  /** `charts/<system>-operator`. */
  readonly chartDir: string;
  /** `.testenv/logs/e2e-<system>-operator.log`: stdout and stderr of every operator process a suite starts. */
  readonly logFile: string;
}

/** The {@link OperatorLayout} of `system` in the checkout at `root` (default: the checkout holding this file). */
export function operatorLayout(system: OperatorSystem, root: string = resolvePaths().root): OperatorLayout {
  const projectDir = join(root, 'operators', system);
  return {
    projectDir,
    entryPoint: join(projectDir, 'src', 'main.ts'),
    bundle: join(root, 'dist', 'operators', system, 'main.js'),
    chartDir: join(root, 'charts', `${system}-operator`),
    logFile: join(resolvePaths(root).logsDir, `e2e-${system}-operator.log`),
  };
}
