#!/usr/bin/env bash
# Installs the JS toolchain the repo needs on a machine that has only Node.js 20 and npm:
# pnpm at the pinned version (corepack cannot verify signatures on this registry mirror, so npm installs it),
# then the workspace's dependencies from the committed lockfile.
set -euo pipefail
cd "$(dirname "$0")/.."
PNPM_VERSION=12.4.2
if [ "$(pnpm --version 2>/dev/null || true)" != "$PNPM_VERSION" ]; then
  npm i -g --silent "pnpm@$PNPM_VERSION"
fi
export npm_config_nodedir=${npm_config_nodedir:-/usr} # node-gyp must not download headers
pnpm install --frozen-lockfile --reporter=append-only 2>&1 | tail -n 3
