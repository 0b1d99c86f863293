#!/usr/bin/env bash
# The newcomer's first command (`npm start`): set everything up, bring up the local environment (real
# kube-apiserver, etcd, controller-manager, scheduler, a real node with containerd and the kubelet, Kafka,
# OpenSearch), then run the three operators on it as Pods installed by their Helm charts, with the resources of
# examples/local applied and Ready, until Ctrl-C (which uninstalls the operators' releases and leaves the
# environment and the resources up). See libs/e2e-harness/src/local-stack.ts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export PATH="$PWD/node_modules/.bin:$PATH"
exec node libs/e2e-harness/src/local-stack.main.ts "$@"
