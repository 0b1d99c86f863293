import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OPERATOR_SYSTEMS } from '@domain-operators/e2e-harness';
import type { OperatorSystem } from '@domain-operators/e2e-harness';

/** The `charts/` folder of this checkout. */
export const CHARTS_DIR: string = dirname(dirname(fileURLToPath(import.meta.url)));

/** One chart of this repository. */
export interface ChartRef {
  readonly system: OperatorSystem;
  /** `<system>-operator`. */
  readonly name: string;
  /** Absolute path of the chart folder. */
  readonly dir: string;
}

/** The three operator charts. */
export const CHARTS: readonly ChartRef[] = OPERATOR_SYSTEMS.map((system) => ({ system, name: `${system}-operator`, dir: join(CHARTS_DIR, `${system}-operator`) }));

/** The example values files, `charts/examples/values-*.yaml` (each valid for every chart), as absolute paths. */
export function exampleValuesFiles(chartsDir: string = CHARTS_DIR): string[] {
  const dir = join(chartsDir, 'examples');
  return readdirSync(dir)
    .filter((file) => /^values-.+\.ya?ml$/.test(file))
    .sort()
    .map((file) => join(dir, file));
}
