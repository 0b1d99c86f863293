#!/usr/bin/env bash
# Runs every test (`npm test`): lint, type checks and unit tests of every project, then integration and e2e
# suites against the real local environment, which this script brings up and takes down again.
# Exits non-zero on any failure; the last line is the total "N passed, N failed, N skipped".
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
rm -rf .reports/vitest
mkdir -p .reports/vitest

started_env=0
finish() {
  status=$?
  if [ "$started_env" = 1 ] && [ -z "${TESTENV_KEEP:-}" ]; then
    node libs/testenv/src/cli.ts down || status=1
    # The node changes host-global state; a run must leave none of it (processes, mounts, cgroups, chains, bridge).
    node libs/testenv/src/cli.ts leftovers || status=1
  fi
  node scripts/summarize-tests.ts .reports/vitest || status=1
  exit "$status"
}
trap finish EXIT

nx run-many -t lint typecheck test build --outputStyle=static --skipNxCache
started_env=1
node libs/testenv/src/cli.ts up
nx run-many -t integration e2e --parallel=1 --outputStyle=static
