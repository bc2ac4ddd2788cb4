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
# quiet on success (the last lines only), the whole output on failure: a pipe into `tail` would show only the
# last lines of a failed install, and its exit status would depend on pipefail; a log file keeps pnpm's own.
log=$(mktemp "${TMPDIR:-/tmp}/oooi-bootstrap.XXXXXX")
trap 'rm -f "$log"' EXIT
if pnpm install --frozen-lockfile --reporter=append-only >"$log" 2>&1; then
  tail -n 3 "$log"
else
  status=$?
  cat "$log" >&2
  echo "bootstrap: pnpm install failed (exit $status); its full output is above" >&2
  exit "$status"
fi
