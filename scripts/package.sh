#!/usr/bin/env bash
# A release for a cluster admin to push to their own registry (docs/operating.md): the chart
# archive and the platform image as an OCI archive, with a SHA256SUMS file.
#
#   scripts/package.sh [--out DIR] [--chart-only]
#
#   DIR (default dist/release) ends up holding exactly:
#     edu-platform-<chart version>.tgz             helm package charts/edu-platform
#     edu-platform-image-<appVersion>.oci.tar      the Dockerfile's image, built by scripts/images.sh
#                                                  (buildah, no Docker) with the tag <appVersion>,
#                                                  the tag the chart pulls by default
#     SHA256SUMS                                   sha256sum -c SHA256SUMS verifies both
#   --chart-only   the chart archive and SHA256SUMS only (no root, no buildah)
#
# Both versions are read from charts/edu-platform/Chart.yaml through helm, never written here.
# helm is the one scripts/cluster.sh caches (`scripts/cluster.sh tools` fetches it when missing).
# The image build needs root (scripts/images.sh); an unchanged image is not rebuilt, only its
# archive is written once per tag. Logs go to stderr; stdout gets how to push and install.
#
# Env: EDU_CACHE_DIR (as the other scripts), EDU_RELEASE_REGISTRY (registry/path shown in the
#      printed commands; default registry.example.org/edu).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
readonly ROOT
readonly CHART="$ROOT/charts/edu-platform"
readonly REGISTRY="${EDU_RELEASE_REGISTRY:-registry.example.org/edu}"

log() { printf 'package: %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}
usage() { sed -n '5,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2; }

OUT="$ROOT/dist/release"
CHART_ONLY=0
while (($#)); do
  case "$1" in
    --out)
      OUT="${2:?--out needs a directory}"
      shift 2
      ;;
    --chart-only)
      CHART_ONLY=1
      shift
      ;;
    -h | --help)
      usage
      exit 0
      ;;
    *)
      usage
      die "unknown argument $1"
      ;;
  esac
done

HELM=""
TMP=""
trap '[[ -z "$TMP" ]] || rm -rf "$TMP"' EXIT

find_helm() {
  eval "$("$ROOT/scripts/cluster.sh" env | grep '^HELM=')"
  if [[ ! -x "$HELM" ]]; then
    log "helm is not cached yet: scripts/cluster.sh tools"
    "$ROOT/scripts/cluster.sh" tools >&2
  fi
  [[ -x "$HELM" ]] || die "helm not found at $HELM after scripts/cluster.sh tools"
}

# A top-level key of `helm show chart` (Chart.yaml as helm reads it), quotes removed.
chart_field() { # key
  local v
  v="$("$HELM" show chart "$CHART" | sed -n "s/^$1:[[:space:]]*//p" | sed -n 1p | tr -d "\"'")"
  [[ "$v" =~ ^[0-9A-Za-z][0-9A-Za-z.+_-]*$ ]] || die "charts/edu-platform/Chart.yaml: $1 '$v' is not a version"
  printf '%s\n' "$v"
}

# What goes into the chart and the image, uncommitted: said, not refused (a developer may package
# work in progress; an admin packages a clean checkout of a tag).
warn_if_dirty() {
  local dirty
  dirty="$(git -C "$ROOT" status --porcelain -- charts Dockerfile package.json package-lock.json tsconfig.json \
    services operator kafka crds 2>/dev/null | wc -l)" || return 0
  ((dirty == 0)) || log "warning: $dirty uncommitted change(s) in the chart or the image's sources go into this release"
}

main() {
  local t0=$SECONDS version app_version chart_file image_file=""
  find_helm
  version="$(chart_field version)"
  app_version="$(chart_field appVersion)"
  chart_file="edu-platform-$version.tgz"
  mkdir -p "$OUT"
  OUT="$(cd "$OUT" && pwd)"
  TMP="$(mktemp -d "$OUT/.package.XXXXXX")"
  warn_if_dirty

  log "chart $version (appVersion $app_version): helm lint + helm package"
  "$HELM" lint --quiet "$CHART" >&2 || die "helm lint failed: the chart is not released"
  "$HELM" package "$CHART" --destination "$TMP" >&2
  [[ -f "$TMP/$chart_file" ]] || die "helm package did not write $chart_file"

  if ((CHART_ONLY == 0)); then
    image_file="edu-platform-image-$app_version.oci.tar"
    log "image edu-platform:$app_version: scripts/images.sh build platform --tag $app_version"
    "$ROOT/scripts/images.sh" build platform --tag "$app_version" --no-load >&2
    local archive
    archive="$("$ROOT/scripts/images.sh" archive-path platform --tag "$app_version")"
    cp "$archive" "$TMP/$image_file"
  fi

  (cd "$TMP" && sha256sum "$chart_file" ${image_file:+"$image_file"} >SHA256SUMS && sha256sum --quiet -c SHA256SUMS) ||
    die "SHA256SUMS does not verify"
  # The directory holds this release only: earlier versions' archives are removed.
  rm -f "$OUT"/edu-platform-*.tgz "$OUT"/edu-platform-image-*.oci.tar "$OUT/SHA256SUMS"
  mv "$TMP"/* "$OUT/"
  log "done in $((SECONDS - t0)) s: $(cd "$OUT" && du -h "$chart_file" ${image_file:+"$image_file"} | tr '\t\n' ' ')"
  print_next_steps "$version" "$app_version" "$chart_file" "$image_file"
}

print_next_steps() { # version app_version chart_file image_file
  local rel="${OUT#"$ROOT"/}"
  cat <<EOF

Release $1 in $rel/ (verify with: cd $rel && sha256sum -c SHA256SUMS)
  $3
EOF
  if [[ -n "$4" ]]; then
    cat <<EOF
  $4

1. Push the image to your registry (any one of):
     skopeo copy oci-archive:$rel/$4 docker://$REGISTRY/edu-platform:$2
     mkdir -p edu-image && tar -xf $rel/$4 -C edu-image && crane push edu-image $REGISTRY/edu-platform:$2
     podman load -i $rel/$4 && podman push localhost/edu-platform:$2 docker://$REGISTRY/edu-platform:$2
     docker load -i $rel/$4 && docker tag localhost/edu-platform:$2 $REGISTRY/edu-platform:$2 \\
       && docker push $REGISTRY/edu-platform:$2     (Docker with the containerd image store: it loads OCI archives)
EOF
  fi
  cat <<EOF

2. Install (values: docs/operating.md, charts/edu-platform/examples/):
     helm install edu-platform $rel/$3 --namespace edu-platform --create-namespace \\
       --set image.registry=$REGISTRY -f my-values.yaml
EOF
}

main
