#!/usr/bin/env bash
# The newcomer's first command (`npm start`): set everything up, bring up the local environment
# (real kube-apiserver, etcd, controller-manager, pod runner, Kafka, OpenSearch, Redis) and show its status.
# The operators join here as they land (issues #6, #7, #8).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
node libs/testenv/src/cli.ts up
node libs/testenv/src/cli.ts status
cat <<MSG

The environment is up. Try:
  export KUBECONFIG=$PWD/.testenv/kubeconfig
  kubectl get namespaces
Connection details for every component: .testenv/env.json. Logs: .testenv/logs/.
Stop everything with: npm run testenv -- down
MSG
