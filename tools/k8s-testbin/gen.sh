#!/usr/bin/env bash
# Regenerates go.mod/go.sum of this wrapper module for another Kubernetes version:
#   tools/k8s-testbin/gen.sh 1.34.10
# Needs only the Go module proxy. Run it when bumping K8S_VERSION in scripts/lib/versions.sh
# (the one pin cluster.sh, node.sh and kind.sh read), then commit go.mod, go.sum and kind/.
set -euo pipefail
V="${1:?usage: gen.sh <k8s version, e.g. 1.34.10>}"
V="${V#v}"
cd "$(dirname "$0")"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod

# k8s.io/kubernetes requires its staging modules at v0.0.0 and maps them with
# `replace => ./staging/...`. Replaces of a dependency are ignored, so this (main) module
# must replace each one with its published v0.<minor>.<patch> tag. The list changes
# between minors, so it is read from the tag's own go.mod rather than hard-coded.
MOD=$(go mod download -json "k8s.io/kubernetes@v$V" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
[[ -s "$MOD" ]] || { echo "gen.sh: could not fetch go.mod of k8s.io/kubernetes@v$V" >&2; exit 1; }
GOVER=$(sed -n 's/^go \([0-9.]*\)$/\1/p' "$MOD")

cat >go.mod <<EOF
module edu-platform.local/tools/k8s-testbin

go $GOVER

// Same GODEBUG defaults as upstream builds of this release, although a newer Go compiles it.
godebug default=go${GOVER%.*}

// tool directives keep the binaries' whole dependency graph in go.mod/go.sum (go mod tidy
// would otherwise drop it: main packages cannot be imported). etcd comes from this graph so
// it is exactly the etcd version this Kubernetes release pins.
tool (
	go.etcd.io/etcd/server/v3
	k8s.io/kubernetes/cmd/kube-apiserver
	k8s.io/kubernetes/cmd/kube-controller-manager
	k8s.io/kubernetes/cmd/kube-proxy
	k8s.io/kubernetes/cmd/kube-scheduler
	k8s.io/kubernetes/cmd/kubelet
)
EOF
go mod edit -require="k8s.io/kubernetes@v$V"
for m in $(sed -n 's#^[[:space:]]*\(k8s.io/[^ ]*\) => ./staging/src/.*#\1#p' "$MOD"); do
	go mod edit -replace="$m=$m@v0.${V#1.}"
done
rm -f go.sum
go mod tidy
echo "gen.sh: go.mod/go.sum now pin k8s.io/kubernetes v$V and $(go list -m -f '{{.Path}} {{.Version}}' go.etcd.io/etcd/server/v3)" >&2

# kind/: kubeadm and kubectl for scripts/kind.sh's node image, in a module of their own so that
# their extra dependencies (kustomize, cli-runtime, system-validators, ...) leave this module's
# go.sum, and so the cached server binaries of cluster.sh/node.sh, untouched. It starts from this
# module's requirements, so every module both graphs share stays at the same version.
gen_kind_module() {
	mkdir -p kind
	awk '/^\/\/ tool directives/ { print "// kubeadm and kubectl for scripts/kind.sh'"'"'s node image; written by ../gen.sh from ../go.mod."; c = 1; next }
		c && /^\/\// { next } { c = 0 }
		/^tool \(/ { print "tool (\n\tk8s.io/kubernetes/cmd/kubeadm\n\tk8s.io/kubernetes/cmd/kubectl\n)"; skip = 1; next }
		skip && /^\)/ { skip = 0; next }
		!skip' go.mod |
		sed 's#^module .*#module edu-platform.local/tools/k8s-testbin/kind#' >kind/go.mod
	rm -f kind/go.sum
	(cd kind && go mod tidy)
	echo "gen.sh: kind/go.mod/go.sum pin kubeadm and kubectl v$V" >&2
}
gen_kind_module
