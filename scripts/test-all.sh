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

# The first run on a machine builds Kubernetes, the node's add-ons and the Java launchers (about 15 minutes of Go
# and Maven work on two cores). `testenv prepare` does it in the background, at a lower priority, beside lint, type
# checks and unit tests, so their idle time and its downloads overlap; warm, it only checks the cache.
# Its own process group (setsid), so an early exit stops the Go builds it started too.
setsid nice -n 10 node libs/testenv/src/cli.ts prepare >.reports/testenv-prepare.log 2>&1 &
prepare_pid=$!

started_env=0
finish() {
  status=$?
  kill -- "-$prepare_pid" 2>/dev/null || true
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
# The release's own checks without its pushes (ADR 0027): versions, chart packages, default images, CRD bundles.
nx run shipping:release-dry-run --outputStyle=static --skipNxCache
# A failed prepare is not fatal here: `up` builds what is missing and fails with the build's own error.
if wait "$prepare_pid"; then cat .reports/testenv-prepare.log; else
  echo "testenv prepare failed; testenv up will build again:"; tail -n 20 .reports/testenv-prepare.log
fi
started_env=1
node libs/testenv/src/cli.ts up
# Integration and e2e suites: projects that stop or take over shared components alone first, then the lanes
# (`lane:<name>` tags: runtime, kafka, opensearch, redis) side by side, since those suites mostly wait on timers and
# the cluster rather than on the CPU. See libs/e2e-harness/src/suite-lanes.ts.
node libs/e2e-harness/src/run-suites.main.ts
