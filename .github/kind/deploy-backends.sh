#!/usr/bin/env bash
# Deploys the real backends of the kind e2e run from their official images and writes what the suites need to reach
# them to <backends.json>, in the shape of testenv's .testenv/env.json (kafka, opensearch), mode 0600:
#   - Kafka (kafka.yaml): KRaft, SASL/SCRAM, ACLs; a random password for the super user admin, stored in the Secret
#     kafka/kafka-operator-login (the name examples/kafka uses) and set as admin's SCRAM credential;
#   - OpenSearch (opensearch.yaml) with its security plugin and a random admin password (Secret
#     opensearch/opensearch-admin), never the demo default.
# The addresses are NodePorts on the node's InternalIP: the suites on the runner and the operators they install as
# pods reach them alike (on testenv, the node's bridge address plays that part).
# Passwords never appear on a command line: they go through stdin. On GitHub Actions they are masked in the log.
set -euo pipefail
out="${1:?usage: deploy-backends.sh <backends.json>}"
here="$(cd "$(dirname "$0")" && pwd)"

kafka_password="$(openssl rand -hex 24)"
# OpenSearch's password policy wants upper case, lower case, a digit and a special character.
opensearch_password="$(openssl rand -hex 24)Aa1!"
if [ -n "${GITHUB_ACTIONS:-}" ]; then
  echo "::add-mask::$kafka_password"
  echo "::add-mask::$opensearch_password"
fi

login_secret() { # namespace name password (from stdin: none on argv)
  kubectl create namespace "$1" --dry-run=client -o yaml | kubectl apply -f - >/dev/null
  node -e '
    const [namespace, name] = process.argv.slice(1);
    const password = require("node:fs").readFileSync(0, "utf8");
    process.stdout.write(JSON.stringify({ apiVersion: "v1", kind: "Secret", type: "Opaque",
      metadata: { namespace, name }, stringData: { username: "admin", password } }));
  ' "$1" "$2" | kubectl apply -f - >/dev/null
}

echo "backends: deploying Kafka and OpenSearch"
printf '%s' "$kafka_password" | login_secret kafka kafka-operator-login
printf '%s' "$opensearch_password" | login_secret opensearch opensearch-admin
kubectl apply -f "$here/kafka.yaml" -f "$here/opensearch.yaml"
kubectl -n kafka rollout status statefulset/kafka --timeout=5m
kubectl -n opensearch rollout status statefulset/opensearch --timeout=10m

echo "backends: creating the SCRAM credential of Kafka's super user admin"
# shellcheck disable=SC2016 # the inner script expands $? and $status itself
printf 'SCRAM-SHA-512=[password=%s],SCRAM-SHA-256=[password=%s]\n' "$kafka_password" "$kafka_password" |
  kubectl -n kafka exec -i kafka-0 -- sh -c 'umask 077; cat > /tmp/admin-scram.properties &&
    /opt/kafka/bin/kafka-configs.sh --bootstrap-server 127.0.0.1:9094 --alter --entity-type users --entity-name admin \
      --add-config-file /tmp/admin-scram.properties; status=$?; rm -f /tmp/admin-scram.properties; exit $status'

node_ip="$(kubectl get nodes -o jsonpath='{.items[0].status.addresses[?(@.type=="InternalIP")].address}')"
[ -n "$node_ip" ] || { echo "backends: the node reports no InternalIP" >&2; exit 1; }

echo "backends: waiting for OpenSearch to answer as admin on http://$node_ip:30920"
opensearch_root=""
for _ in $(seq 1 120); do
  if opensearch_root="$(printf 'user = "admin:%s"\n' "$opensearch_password" | curl -fsS -K - "http://$node_ip:30920/")"; then break; fi
  sleep 5
done
[ -n "$opensearch_root" ] || { echo "backends: OpenSearch did not answer" >&2; kubectl -n opensearch logs opensearch-0 --tail=50 >&2; exit 1; }

umask 077
KAFKA_PASSWORD="$kafka_password" OPENSEARCH_PASSWORD="$opensearch_password" OPENSEARCH_ROOT="$opensearch_root" NODE_IP="$node_ip" \
  node -e '
    const env = process.env;
    const root = JSON.parse(env.OPENSEARCH_ROOT);
    const backends = {
      kafka: {
        bootstrapServers: [env.NODE_IP + ":30092"],
        superUser: { username: "admin", password: env.KAFKA_PASSWORD, mechanism: "SCRAM-SHA-512" },
        version: "4.1.0",
      },
      opensearch: {
        url: "http://" + env.NODE_IP + ":30920",
        adminUser: { username: "admin", password: env.OPENSEARCH_PASSWORD },
        version: root.version.number,
        ism: true,
      },
    };
    require("node:fs").writeFileSync(process.argv[1], JSON.stringify(backends, null, 2) + "\n", { mode: 0o600 });
  ' "$out"
echo "backends: ready; connection details in $out"
