#!/usr/bin/env bash
# Installs everything the project needs on a fresh machine. Idempotent; safe to run again.
#   - Debian packages: redis-server (testenv's standalone Redis), openssl (test PKI), shellcheck (actionlint checks
#     the workflows' shell steps with it, and shipping:lint the scripts they run), and for testenv's node: runc, the
#     CNI plugins (containernetworking-plugins), iptables and conntrack (kube-proxy), busybox-static (a stand-in
#     binary for testenv's image test). The images the node runs are
#     built from Debian packages that `apt-get download` fetches, so the package lists must be there too.
#   - helm (chart validation and the e2e harness) and actionlint (workflow checks), built with `go install` into the
#     shared build cache.
#   - npm packages, including the pinned Node 24 binary that npm scripts use (package.json "node" dependency).
# Go modules and Maven jars are fetched and cached by `npm run testenv -- up` on first use
# (under ~/.cache/domain-operators, ~/go/pkg/mod and ~/.m2).
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
command -v openssl >/dev/null 2>&1 || need+=(openssl)
command -v shellcheck >/dev/null 2>&1 || need+=(shellcheck)
command -v runc >/dev/null 2>&1 || need+=(runc)
# testenv's image integration test packs busybox-static's /bin/busybox where the node's Go programs go.
[ -x /bin/busybox ] || need+=(busybox-static)
[ -x /usr/lib/cni/bridge ] || need+=(containernetworking-plugins)
command -v iptables >/dev/null 2>&1 || need+=(iptables)
command -v conntrack >/dev/null 2>&1 || need+=(conntrack)
# `apt-get download` (testenv's image builder) needs the package lists; a fresh image may have none.
apt_lists_missing() {
  local list
  for list in /var/lib/apt/lists/*; do
    case "${list##*/}" in lock | partial | auxfiles) ;; *) [ -e "$list" ] && return 1 ;; esac
  done
  return 0
}
if [ ${#need[@]} -eq 0 ] && apt_lists_missing; then
  need+=(apt-lists)
fi
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${need[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
  $sudo apt-get update -qq
  packages=()
  for p in "${need[@]}"; do [ "$p" = apt-lists ] || packages+=("$p"); done
  if [ ${#packages[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  fi
  # Debian starts the packaged service; testenv runs its own processes, so stop the system one.
  if command -v systemctl >/dev/null 2>&1; then $sudo systemctl disable --now redis-server >/dev/null 2>&1 || true; fi
  $sudo service redis-server stop >/dev/null 2>&1 || true
fi

for tool in go java mvn; do
  command -v "$tool" >/dev/null 2>&1 || { echo "setup: '$tool' is required (see README: Requirements)" >&2; exit 1; }
done

# Helm, built from the Go module proxy (no binary downloads), stamped as the release Makefile does: its version and
# the Kubernetes version of its client-go (1.37), which `helm template`/`helm lint` report as the cluster version.
# helm and actionlint build in the background while `npm ci` downloads (on a cold cache the three together take
# about as long as the helm build alone).
helm_version=v3.22.0
cache_dir="${DOMAIN_OPERATORS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/domain-operators}"
helm_bin="$cache_dir/bin/helm"
mkdir -p "$cache_dir/bin"
go_builds=()
if [ ! -x "$helm_bin" ] || ! "$helm_bin" version --template '{{.Version}}' 2>/dev/null | grep -qx "$helm_version"; then
  echo "setup: building helm $helm_version from the Go module proxy into $helm_bin (a few minutes on a cold cache)"
  GOBIN="$cache_dir/bin" GOFLAGS=-mod=mod CGO_ENABLED=0 go install -trimpath -ldflags "-s -w \
    -X helm.sh/helm/v3/internal/version.version=$helm_version -X helm.sh/helm/v3/internal/version.metadata= \
    -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/chartutil.k8sVersionMinor=37 \
    -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMajor=1 -X helm.sh/helm/v3/pkg/lint/rules.k8sVersionMinor=37" \
    "helm.sh/helm/v3/cmd/helm@$helm_version" &
  go_builds+=("$!:helm")
fi

# actionlint (checks .github/workflows in `nx run shipping:lint`), built from the Go module proxy like helm.
actionlint_version=v1.7.12
actionlint_bin="$cache_dir/bin/actionlint"
if [ ! -x "$actionlint_bin" ] || [ "$("$actionlint_bin" -version 2>/dev/null | head -1)" != "$actionlint_version" ]; then
  echo "setup: building actionlint $actionlint_version from the Go module proxy into $actionlint_bin"
  GOBIN="$cache_dir/bin" GOFLAGS=-mod=mod CGO_ENABLED=0 go install -trimpath -ldflags "-s -w" \
    "github.com/rhysd/actionlint/cmd/actionlint@$actionlint_version" &
  go_builds+=("$!:actionlint")
fi

if [ ! -x node_modules/.bin/node ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
fi
for build in "${go_builds[@]}"; do
  wait "${build%%:*}" || { echo "setup: building ${build#*:} failed (its go output is above)" >&2; exit 1; }
done
echo "setup: node $(node_modules/.bin/node --version), go $(go env GOVERSION), helm $("$helm_bin" version --template '{{.Version}}'), actionlint $("$actionlint_bin" -version | head -1), $(java -version 2>&1 | head -1)"
