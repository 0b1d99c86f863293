// Wiring only. The controllers of this operator land with issue #8; until then the process validates its
// configuration and exits non-zero, so nothing can mistake it for a working operator.
import { loadConfig } from './config.ts';

try {
  const config = loadConfig(process.argv.slice(2), process.env);
  process.stderr.write(
    `redis-operator: configuration is valid (log level ${config.logLevel}, ${config.namespaces.length === 0 ? 'all namespaces' : config.namespaces.join(',')}), ` +
      'but no controllers are implemented yet (issue #8); exiting.\n',
  );
  process.exitCode = 2;
} catch (err) {
  process.stderr.write(`redis-operator: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
