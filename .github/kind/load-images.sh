#!/usr/bin/env bash
# Puts into the kind node the images the e2e suites' Pods run, so that none is pulled from a registry the operators
# are not published to, and no suite waits for a pull:
#   - each operator's image under its chart's default name (what `helm install` without image values deploys, as the
#     suites install it), built before by `nx run <system>-operator:docker` (docker build of operators/Dockerfile
#     with --build-arg SYSTEM=<system>), loaded with `kind load docker-image`;
#   - redis:7.2, which the redis suites' RedisReplications run on an existing cluster (e2e/redis/src/fixtures.ts),
#     pulled by the node's own containerd.
set -euo pipefail
cluster="${1:?usage: load-images.sh <kind cluster name>}"
cd "$(dirname "$0")/../.."

for system in kafka opensearch redis; do
  image="$(helm template load-images "charts/$system-operator" --show-only templates/deployment.yaml | sed -n 's/^ *image: "\(.*\)"$/\1/p')"
  [ -n "$image" ] || { echo "images: charts/$system-operator renders no image" >&2; exit 1; }
  docker image inspect "$image" >/dev/null 2>&1 || { echo "images: $image was not built (nx run $system-operator:docker)" >&2; exit 1; }
  echo "images: loading $image"
  kind load docker-image --name "$cluster" "$image"
done

echo "images: pulling redis:7.2 on the node"
docker exec "$cluster-control-plane" crictl pull docker.io/library/redis:7.2
