#!/usr/bin/env bash
# Runs every test of the project (the README's test command; .ci/run calls exactly this).
# On a fresh machine it installs everything it needs first: pnpm and the workspace (scripts/bootstrap.sh),
# then the rig's real peers (kube-apiserver, etcd, CoreDNS, Envoy, DHCP/DNS clients, podman; cached by version),
# then the four container images (scripts/images.sh; e2e/images runs them as their pods would).
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$*"; }
reports=$(mktemp -d)
trap 'node scripts/test-summary.mjs "$reports"/*.json; rm -rf "$reports"' EXIT
step bootstrap;               scripts/bootstrap.sh
step 'generated files in sync'; pnpm --silent generate:check
step lint;                    pnpm --silent lint
step typecheck;               pnpm --silent typecheck
step bundle;                  pnpm --silent bundle
for b in packages/controller/dist/oooi-controller.js packages/dhcp/dist/oooi-dhcp.js packages/xds/dist/oooi-xds.js; do
  [ -s "$b" ] || { echo "bundle missing: $b" >&2; exit 1; }
done
step 'unit tests';            pnpm --silent test:unit --json --outputFile="$reports/unit.json"
step 'rig install';           pnpm --silent rig install
# the images (podman, installed by the rig's apt piece; a machine without it fails here): e2e/images runs them
step 'images';                scripts/images.sh build
step 'e2e tests';             pnpm --silent test:e2e --json --outputFile="$reports/e2e.json"
