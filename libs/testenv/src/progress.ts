import type { ComponentContext } from './component.ts';
import type { TestenvPaths } from './paths.ts';

/**
 * A {@link ComponentContext} factory for one run of `up` or `prepare`: each progress line is prefixed with the
 * seconds since the factory was made and the step's name (`[  12.3s] kafka: ready`), and goes to `log` (default:
 * standard error). Pure apart from reading the clock.
 */
export function progressContexts(paths: TestenvPaths, log: (line: string) => void = writeStderr): (name: string) => ComponentContext {
  const started = Date.now();
  return (name) => ({
    paths,
    progress: (message) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1).padStart(6);
      log(`[${seconds}s] ${name}: ${message}`);
    },
  });
}

/** The default progress sink: one line on standard error. */
export function writeStderr(line: string): void {
  process.stderr.write(`${line}\n`);
}
