import { parseArgs } from 'node:util';
import { OPERATOR_SYSTEMS } from './system.ts';
import type { OperatorSystem } from './system.ts';

/** The command line of `local-stack.main.ts`, as parsed by {@link parseLocalStackArgs}. */
export interface LocalStackArgs {
  /** Operators to run; all three unless `--only` names some. */
  readonly systems: readonly OperatorSystem[];
  /** `--instance <id>`: run beside `npm start`'s stack under suffixed names (tests). */
  readonly instance?: string;
}

/** Usage text of `local-stack.main.ts`. */
export const LOCAL_STACK_USAGE = `usage: node libs/e2e-harness/src/local-stack.main.ts [--only ${OPERATOR_SYSTEMS.join(',')}] [--instance <id>]`;

/**
 * Parses `[--only kafka,opensearch,redis] [--instance <id>]`. An instance id is 1 to 12 lower-case letters and digits,
 * starting with a letter (it becomes part of namespace names). Throws with a message naming the bad argument. Pure.
 */
export function parseLocalStackArgs(argv: readonly string[]): LocalStackArgs {
  const { values } = parseArgs({ args: [...argv], options: { only: { type: 'string' }, instance: { type: 'string' } }, allowPositionals: false });
  const systems: OperatorSystem[] = [];
  for (const name of (values.only ?? OPERATOR_SYSTEMS.join(',')).split(',').filter((n) => n !== '')) {
    const system = OPERATOR_SYSTEMS.find((known) => known === name);
    if (system === undefined) throw new Error(`unknown operator "${name}" in --only; known: ${OPERATOR_SYSTEMS.join(', ')}`);
    if (!systems.includes(system)) systems.push(system);
  }
  if (systems.length === 0) throw new Error('--only names no operator');
  const instance = values.instance;
  if (instance !== undefined && !/^[a-z][a-z0-9]{0,11}$/.test(instance)) throw new Error(`--instance "${instance}": use 1 to 12 lower-case letters and digits, starting with a letter`);
  return { systems: OPERATOR_SYSTEMS.filter((system) => systems.includes(system)), ...(instance !== undefined && { instance }) };
}
