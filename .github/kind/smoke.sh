#!/usr/bin/env bash
# The charts' operators, from the images built in this run, reconcile real objects in the kind cluster:
# examples/kafka (with the login Secret deploy-backends.sh created), an OpenSearchConnection, and a
# RedisReplication that the redis operator deploys. Waits for Ready on each, then lists them all.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
here="$root/.github/kind"

wait_ready() { # kind name [namespace]
  kubectl wait --for=condition=Ready "$1/$2" ${3:+-n "$3"} --timeout=5m || {
    kubectl get "$1/$2" ${3:+-n "$3"} -o yaml >&2
    kubectl -n domain-operators logs -l app.kubernetes.io/part-of=domain-operators --all-containers --tail=100 --prefix >&2 || true
    exit 1
  }
}

echo "smoke: examples/kafka"
for file in "$root"/examples/kafka/*.yaml; do
  # The Secret of the example holds a placeholder password; deploy-backends.sh created the real one.
  case "$file" in *-login-secret.yaml) continue ;; esac
  kubectl apply -f "$file"
done
wait_ready kafkaconnection main
wait_ready kafkatopic orders team-a
wait_ready kafkauser orders-app team-a

echo "smoke: OpenSearchConnection"
kubectl apply -f "$here/opensearch-connection.yaml"
wait_ready opensearchconnection kind

echo "smoke: RedisReplication deployed by the redis operator"
kubectl apply -f "$here/redis-replication.yaml"
wait_ready redisreplication cache redis-smoke

kubectl get kafka,opensearch,redis -A
