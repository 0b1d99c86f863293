#!/usr/bin/env bash
# The newcomer's first command (`npm start`): set everything up, bring up the local environment (real
# kube-apiserver, etcd, controller-manager, pod runner, Kafka, OpenSearch, Redis), then run the three operators
# against it with the resources of examples/local applied and Ready, until Ctrl-C (which stops the operators and
# leaves the environment up). See libs/e2e-harness/src/local-stack.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
exec node libs/e2e-harness/src/local-stack.main.ts "$@"
