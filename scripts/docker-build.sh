#!/usr/bin/env bash
# `nx run <system>-operator:docker`: builds the operator's image ghcr.io/domain-operators/<system>-operator:<tag> from
# operators/Dockerfile with --build-arg SYSTEM=<system> and the repository root as context. The tag is $IMAGE_TAG,
# else the chart's appVersion. Where no container engine answers (`docker info` fails, as on the machines that run
# `npm test`), it says so and exits 0: building images is for hosted CI (.github/workflows/e2e-kind.yml) and
# developers with Docker. Extra arguments go to `docker build` (e.g. --platform linux/arm64).
set -euo pipefail
system="${1:?usage: scripts/docker-build.sh <kafka|opensearch|redis> [docker build flags…]}"
shift
cd "$(dirname "$0")/.."
case "$system" in kafka | opensearch | redis) ;; *) echo "docker: unknown operator '$system'" >&2; exit 2 ;; esac

engine="${CONTAINER_ENGINE:-docker}"
app_version="$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "charts/$system-operator/Chart.yaml")"
image="${IMAGE_REPOSITORY:-ghcr.io/domain-operators/$system-operator}:${IMAGE_TAG:-$app_version}"

if ! command -v "$engine" >/dev/null 2>&1 || ! "$engine" info >/dev/null 2>&1; then
  echo "docker: no container engine here ('$engine info' failed), skipped building $image"
  exit 0
fi
echo "docker: building $image"
exec "$engine" build --file operators/Dockerfile --build-arg "SYSTEM=$system" --tag "$image" "$@" .
