#!/usr/bin/env bash
# Sourced by scripts/node.sh (pause and probe images) and scripts/netpol.sh (its echo image):
# a single-layer OCI image archive assembled by hand from static binaries, without a registry or
# buildah. Needs go (for GOARCH), sha256sum, stat and GNU tar.

sha256_of() { sha256sum "$1" | cut -d' ' -f1; }
size_of() { stat -c %s "$1"; }

# A single-layer OCI image archive assembled by hand (no registry, no buildah needed), named
# through io.containerd.image.name so `ctr images import` keeps the full name.
make_oci_image() { # out name entrypoint file...
  local out=$1 name=$2 entry=$3 d ld cd md arch
  shift 3
  d=$(mktemp -d "$(dirname "$out")/.oci.XXXXXX")
  mkdir -p "$d/rootfs" "$d/oci/blobs/sha256"
  cp "$@" "$d/rootfs/"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$d/rootfs" -cf "$d/layer.tar" .
  ld=$(sha256_of "$d/layer.tar")
  mv "$d/layer.tar" "$d/oci/blobs/sha256/$ld"
  arch=$(go env GOARCH)
  printf '{"architecture":"%s","os":"linux","config":{"Entrypoint":["%s"],"WorkingDir":"/"},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
    "$arch" "$entry" "$ld" >"$d/config.json"
  cd=$(sha256_of "$d/config.json")
  printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar","digest":"sha256:%s","size":%s}]}' \
    "$cd" "$(size_of "$d/config.json")" "$ld" "$(size_of "$d/oci/blobs/sha256/$ld")" >"$d/manifest.json"
  md=$(sha256_of "$d/manifest.json")
  mv "$d/config.json" "$d/oci/blobs/sha256/$cd"
  printf '{"schemaVersion":2,"manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"platform":{"architecture":"%s","os":"linux"},"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"%s"}}]}' \
    "$md" "$(size_of "$d/manifest.json")" "$arch" "$name" "${name##*:}" >"$d/oci/index.json"
  mv "$d/manifest.json" "$d/oci/blobs/sha256/$md"
  echo '{"imageLayoutVersion":"1.0.0"}' >"$d/oci/oci-layout"
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$d/oci" -cf "$out" oci-layout index.json blobs
  rm -rf "$d"
}
