// The testenv command line: `npm run testenv -- up [--only apiserver,kafka,opensearch,redis] | down [--only …] | status | leftovers | prepare`.
import { parseArgs } from 'node:util';
import type { ComponentName } from './component.ts';
import { COMPONENT_NAMES, isComponentName } from './components.ts';
import { downEnvironment, environmentLeftovers, environmentStatus, upEnvironment } from './environment.ts';
import { resolvePaths } from './paths.ts';
import { prepareEnvironment } from './prepare.ts';

const USAGE = `usage: testenv up|down|status|leftovers|prepare [--only ${COMPONENT_NAMES.join(',')}]`;

async function main(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: { only: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    allowPositionals: true,
  });
  const command = positionals[0];
  if (values.help === true || command === undefined || positionals.length > 1) {
    process.stderr.write(`${USAGE}\n`);
    return values.help === true ? 0 : 2;
  }
  const only: ComponentName[] = [];
  for (const name of (values.only ?? '').split(',').filter((n) => n !== '')) {
    if (!isComponentName(name)) {
      process.stderr.write(`testenv: unknown component "${name}"; known: ${COMPONENT_NAMES.join(', ')}\n`);
      return 2;
    }
    only.push(name);
  }
  const paths = resolvePaths();
  switch (command) {
    case 'up': {
      const started = Date.now();
      await upEnvironment({ only, paths });
      process.stderr.write(`testenv: up in ${((Date.now() - started) / 1000).toFixed(1)} s; details in ${paths.envFile}\n`);
      return 0;
    }
    case 'down':
      await downEnvironment({ only, paths });
      process.stderr.write('testenv: down\n');
      return 0;
    case 'leftovers': {
      // After a full `down`: exits 1 and names each thing of the node still on the host.
      const found = await environmentLeftovers({ paths });
      for (const line of found) process.stderr.write(`testenv: left on the host: ${line}\n`);
      if (found.length === 0) process.stderr.write('testenv: nothing of the node is left on the host\n');
      return found.length === 0 ? 0 : 1;
    }
    case 'prepare': {
      // Builds what `up` needs into the cache without starting anything (npm test runs it beside the unit tests).
      const started = Date.now();
      await prepareEnvironment({ paths });
      process.stderr.write(`testenv: prepared in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      return 0;
    }
    case 'status': {
      const status = await environmentStatus({ paths });
      for (const [name, state] of Object.entries(status)) process.stdout.write(`${name.padEnd(12)} ${state}\n`);
      return 0;
    }
    default:
      process.stderr.write(`testenv: unknown command "${command}"\n${USAGE}\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
