#!/usr/bin/env bash
# Regenerates go.mod/go.sum of this wrapper module for another kube-router release:
#   tools/netpol/gen.sh v2.1.0
# then set KUBE_ROUTER_VERSION in scripts/lib/versions.sh to match and commit go.mod and go.sum.
#
# `go get -tool` records exactly the versions kube-router's own go.mod pins. Do not run
# `go mod tidy` here: it also resolves imports of other platforms and tests that kube-router's
# pruned module graph leaves out, at their latest versions, which then win for the Linux build too
# (grpc v1.62 became v1.84).
#
# The checksum database reachable here has no entry for any kube-router release (its lookups
# answer 404), so that one module is exempted from it (GONOSUMDB) and its hash is pinned in
# go.sum on first download; every dependency is still verified against the checksum database.
set -euo pipefail
V="${1:?usage: gen.sh <kube-router version, e.g. v2.1.0>}"
cd "$(dirname "$0")"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod GONOSUMDB=github.com/cloudnativelabs/kube-router/v2
cat >go.mod <<MOD
module edu-platform.local/tools/netpol

go 1.24.0
MOD
rm -f go.sum
go get -tool "github.com/cloudnativelabs/kube-router/v2/cmd/kube-router@$V"
GOFLAGS=-mod=readonly go build -o /dev/null github.com/cloudnativelabs/kube-router/v2/cmd/kube-router ./cmd/...
echo "gen.sh: go.mod/go.sum now pin kube-router $V" >&2
