#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine. Idempotent; safe to run again.
#   - Debian packages: redis-server (testenv's standalone Redis and the pod runner), openssl (test PKI).
#   - npm packages, including the pinned Node 24 binary that npm scripts use (package.json "node" dependency).
# Go modules and Maven jars are fetched and cached by `npm run testenv -- up` on first use
# (under ~/.cache/domain-operators, ~/go/pkg/mod and ~/.m2).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  # Debian starts the packaged service; testenv runs its own processes, so stop the system one.
  if command -v systemctl >/dev/null 2>&1; then $sudo systemctl disable --now redis-server >/dev/null 2>&1 || true; fi
  $sudo service redis-server stop >/dev/null 2>&1 || true
fi

for tool in go java mvn; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: '$tool' is required (see README: Requirements)" >&2; exit 1; }
done

if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
echo "setup: node $(node_modules/.bin/node --version), go $(go env GOVERSION), $(java -version 2>&1 | head -1)"
