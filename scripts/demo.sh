#!/usr/bin/env bash
# The main job, end to end on this machine (the README's first command): installs what it needs (pnpm, the
# workspace, the rig's real peers), starts a throw-away control plane, installs crds/ and the examples, runs the
# real oooi-controller until it converges, prints the children and the status a user would check, and stops
# everything it started.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh >&2
pnpm --silent rig install k8s etcd kwok >&2
exec pnpm --silent exec tsx e2e/controller/demo.ts
