import type { OperatorSystem } from './system.ts';

/**
 * The environment variable through which an e2e run's global setup hands the operator image it loaded (its
 * manifest digest) to the suite's test files, which vitest runs in worker processes started after the setup:
 * `DOMAIN_OPERATORS_E2E_IMAGE_DIGEST_KAFKA`. Pure.
 */
export function preparedImageVariable(system: OperatorSystem): string {
  return `DOMAIN_OPERATORS_E2E_IMAGE_DIGEST_${system.toUpperCase()}`;
}

/** Records in `env` that this run built `system`'s bundle and loaded its image with `manifestDigest`. */
export function recordPreparedImage(system: OperatorSystem, manifestDigest: string, env: NodeJS.ProcessEnv = process.env): void {
  env[preparedImageVariable(system)] = manifestDigest;
}

/**
 * The digest of the image this run's global setup loaded for `system`, or undefined when no setup did (a test file
 * run on its own, `npm start`): then the caller builds and loads it itself. Pure apart from reading `env`.
 */
export function preparedImage(system: OperatorSystem, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const digest = env[preparedImageVariable(system)];
  return digest === undefined || !/^sha256:[0-9a-f]{64}$/.test(digest) ? undefined : digest;
}
