#!/usr/bin/env bash
# The main job, end to end on this machine (the README's first command): installs what it needs (pnpm, the
# workspace, the rig's real peers), then runs the sandbox (e2e/sandbox/): a throw-away control plane, the Helm
# chart, the operator and its workloads (CoreDNS, oooi-dhcp, Envoy + oooi-xds) on a VLAN of network namespaces —
# every oooi container from its image with podman when podman is here (the sandbox builds the images with
# scripts/images.sh first, and only again when an input changed), else as processes — two hosted-cluster
# stand-ins (a real apiserver each) until every object is Ready, then a VM that gets a lease, resolves its API name
# and calls it through Envoy, and *.apps names answered by stand-in routers (through Envoy from a pod on the pod
# network).
# Options: --keep (leave it running until Ctrl-C), --print-kubeconfig.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh >&2
pnpm --silent rig install >&2
exec pnpm --silent exec tsx e2e/sandbox/main.ts "$@"
