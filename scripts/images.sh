#!/usr/bin/env bash
# The platform's container images, built without Docker: buildah on a Debian root filesystem made
# here with debootstrap. Each image is also written as an OCI archive, the form a node imports.
#
#   scripts/images.sh build [platform|kafka|mongo|kube-router|base|jre|all]... [--tag TAG] [--no-load]
#                                  build what is missing or out of date (default: all, which is
#                                  platform and kafka); when scripts/node.sh reports the node up,
#                                  import platform/kafka into it
#   scripts/images.sh verify [platform|kafka|mongo|kube-router|all]...
#                                  run the built image for real (see verify_* below; all: platform
#                                  and kafka)
#   scripts/images.sh archive-path debian|base|jre|platform|kafka|mongo|kube-router [--tag TAG]
#                                  print the OCI archive's path; exit 1 if it is not built
#   scripts/images.sh status       one line per image: name, built or missing, archive size
#   scripts/images.sh prune        drop dangling layers: old builds and the --layers cache (the
#                                  next platform build runs npm ci again)
#
# Images (buildah names; the archives carry the same names):
#   localhost/edu-debian:bookworm        debootstrap --variant=minbase + ca-certificates, apt sources
#                                        of this host
#   localhost/edu-node-base:<node>       + this host's node binary and npm (node --version, no
#                                        nodejs.org needed): the Dockerfile's NODE_IMAGE
#   localhost/edu-platform:<tag>         the project's Dockerfile (buildah bud), tag default dev
#   localhost/edu-jre:17                 debian + Debian's openjdk-17-jre-headless: the parent of the
#                                        two Java images below, so the JRE is one shared layer
#   localhost/edu-kafka:<kafka version>  jre + Kafka's jars from the cache of scripts/infra.sh,
#                                        tools/images/kafka/ scripts
#   localhost/edu-mongo-standin:<mongo-java-server version>
#                                        jre + mongo-java-server and the MongoLauncher of
#                                        scripts/infra.sh's cache: the in-memory MongoDB stand-in on
#                                        0.0.0.0:27017 as uid 1000, for clusters with no registry
#                                        (k8s-tests/kind/mongo-standin.yaml)
#   localhost/edu-kube-router:<version>  debian + iptables, ipset, conntrack, kmod + kube-router
#                                        of scripts/netpol.sh build: the network policy controller
#                                        DaemonSet of k8s-tests/kind/kube-router.yaml
# Caching: each image records a stamp, the sha256 of its inputs (parent stamp, versions, the
# Dockerfile, package-lock.json and sources for the platform); a build with an unchanged stamp, the
# image present and its archive written is skipped.
#
# Env: EDU_CACHE_DIR (default ~/.cache/edu-platform), EDU_IMAGE_TAG (dev),
#      EDU_BUILDAH_DRIVER (overlay|vfs; default: overlay when the kernel mounts it, else vfs),
#      EDU_BUILDAH_RUNROOT (/run/edu-platform/buildah), EDU_IMAGES_VERIFY_TIMEOUT (seconds, 90).
# Needs root (debootstrap, buildah's storage). Never touches images, containers or storage it did
# not create: buildah runs with its own storage under $EDU_CACHE_DIR/images/storage.
set -euo pipefail

# Bump when a recipe below changes in a way the stamps cannot see.
readonly RECIPE=2

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO_ROOT="$(cd "$SCRIPT_DIR/.." && pwd)"
readonly SCRIPT_DIR REPO_ROOT
# DEBIAN_SUITE, KAFKA_VERSION, MJS_VERSION (as scripts/infra.sh), KUBE_ROUTER_VERSION (as netpol.sh).
# shellcheck source=scripts/lib/versions.sh
source "$REPO_ROOT/scripts/lib/versions.sh"
readonly CACHE_DIR="${EDU_CACHE_DIR:-$HOME/.cache/edu-platform}"
readonly IMAGES_DIR="$CACHE_DIR/images"
readonly STORAGE_ROOT="$IMAGES_DIR/storage"
readonly RUNROOT="${EDU_BUILDAH_RUNROOT:-/run/edu-platform/buildah}"
readonly KAFKA_TOOLS="$REPO_ROOT/tools/images/kafka"
readonly MONGO_TOOLS="$REPO_ROOT/tools/images/mongo"
readonly KUBE_ROUTER_TOOLS="$REPO_ROOT/tools/images/kube-router"

log() { printf 'images: %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 1
}

usage() {
  sed -n '4,/images.sh prune/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
}

# ---------------------------------------------------------------------------------------------
# Tools and buildah's storage
# ---------------------------------------------------------------------------------------------

# Install a Debian package only when its command is missing; waits for another helper's dpkg lock.
ensure_cmd() { # cmd package
  command -v "$1" >/dev/null 2>&1 && return 0
  log "installing $2 (apt)"
  [[ $EUID -eq 0 ]] || die "$1 is missing and installing $2 needs root"
  local apt=(apt-get -q -o DPkg::Lock::Timeout=600)
  DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "$2" >&2 ||
    { "${apt[@]}" update >&2 && DEBIAN_FRONTEND=noninteractive "${apt[@]}" install -y --no-install-recommends "$2" >&2; } ||
    die "apt-get install $2 failed"
}

# overlay needs the kernel to mount overlayfs on the storage's file system (not possible on some
# overlay-in-overlay containers); vfs always works but copies every layer in full. The choice is
# kept with the storage: containers/storage cannot switch driver on an existing root.
storage_driver() {
  local file="$IMAGES_DIR/storage.driver"
  if [[ -n "${EDU_BUILDAH_DRIVER:-}" ]]; then
    printf '%s\n' "$EDU_BUILDAH_DRIVER"
  elif [[ -f "$file" ]]; then
    cat "$file"
  else
    local t driver=vfs
    t="$(mktemp -d "$IMAGES_DIR/.overlay-probe.XXXXXX")"
    mkdir "$t/lower" "$t/upper" "$t/work" "$t/merged"
    if mount -t overlay overlay -o "lowerdir=$t/lower,upperdir=$t/upper,workdir=$t/work" "$t/merged" 2>/dev/null; then
      umount "$t/merged"
      driver=overlay
    fi
    rm -rf "$t"
    printf '%s\n' "$driver" | tee "$file"
  fi
}

DRIVER=""
BH=()
bh() { "${BH[@]}" "$@"; }

setup() {
  [[ $EUID -eq 0 ]] || die "needs root (debootstrap, buildah storage)"
  mkdir -p "$IMAGES_DIR" "$RUNROOT"
  ensure_cmd buildah buildah
  # buildah only recommends an OCI runtime, and recommends are not installed: without one every
  # `buildah run` fails with "exec: no command" (a fresh machine whose node suite has not yet
  # installed runc).
  ensure_cmd runc runc
  DRIVER="$(storage_driver)"
  BH=(buildah --root "$STORAGE_ROOT" --runroot "$RUNROOT" --storage-driver "$DRIVER")
  # One build at a time: two would race on the same stamps and archives.
  exec 7>"$IMAGES_DIR/.lock"
  flock -w 1800 7 || die "timed out waiting for another images.sh build ($IMAGES_DIR/.lock)"
  rm -rf "$IMAGES_DIR"/.tmp.*
}

image_exists() { bh inspect --type image "$1" >/dev/null 2>&1; }

# ---------------------------------------------------------------------------------------------
# Stamps and archives
# ---------------------------------------------------------------------------------------------

sha_of() { sha256sum | cut -d' ' -f1; }

archive_of() { # image ref (localhost/name:tag)
  local ref="${1#localhost/}"
  printf '%s/%s.oci.tar\n' "$IMAGES_DIR" "${ref/:/_}"
}
stamp_file_of() { printf '%s.stamp\n' "$(archive_of "$1")"; }

up_to_date() { # ref stamp
  [[ -f "$(stamp_file_of "$1")" && "$(cat "$(stamp_file_of "$1")")" == "$2" && -f "$(archive_of "$1")" ]] &&
    image_exists "$1"
}

# up_to_date, saying so: build_image and build_platform start with it.
is_current() { # ref stamp
  up_to_date "$1" "$2" || return 1
  log "$1 is up to date"
}

# Write the OCI archive (gzip layers: buildah 1.28 compresses oci-archive layers even with
# --disable-compression), then the stamp, both atomically.
finish_image() { # ref stamp
  local ref="$1" archive tmp
  archive="$(archive_of "$ref")"
  tmp="$IMAGES_DIR/.tmp.$(basename "$archive")"
  rm -f "$tmp"
  bh push --quiet "$ref" "oci-archive:$tmp:$ref" >&2
  mv -f "$tmp" "$archive"
  printf '%s\n' "$2" >"$(stamp_file_of "$ref")"
  log "$ref: $(du -h "$archive" | cut -f1) archive $archive"
}

# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------

# The Debian mirror apt on this host uses (deb822 sources first, then one-line sources). None
# configured is an error: a mirror's host name is never written here.
debian_mirror() {
  local uri="" f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -f "$f" && -z "$uri" ]] && uri="$(awk '/^URIs:/ && $2 ~ /\/debian\/?$/ { print $2; exit }' "$f")"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [[ -f "$f" && -z "$uri" ]] && uri="$(awk '$1 == "deb" && $2 !~ /^\[/ && $2 ~ /\/debian\/?$/ { print $2; exit }' "$f")"
  done
  [[ -n "$uri" ]] || die "no Debian mirror in /etc/apt/sources.list or /etc/apt/sources.list.d: configure apt first"
  printf '%s\n' "$uri"
}

node_version() { node --version | sed 's/^v//'; }
npm_dir() { printf '%s\n' "$(dirname "$(readlink -f "$(command -v node)")")/../lib/node_modules/npm"; }

# An entry of scripts/infra.sh's Maven cache: <home>/libs (runtime dependencies of a pom) and, with
# a launcher source, <home>/classes compiled from it. When missing it is made the way infra.sh
# does (same folder, same .complete stamp: the sha256 of the pom and source, under its
# provisioning lock), so either script may run first on a fresh machine.
infra_entry() { # home marker-jar pom [launcher.java]
  local home="$1" marker="$2" pom="$3" src="${4:-}" stamp
  stamp="$(cat "$pom" ${src:+"$src"} | sha_of)"
  if [[ "$(cat "$home/.complete" 2>/dev/null)" != "$stamp" ]]; then
    ensure_cmd mvn maven
    [[ -z "$src" ]] || ensure_cmd javac openjdk-17-jdk-headless
    exec 8>"$CACHE_DIR/.provision.lock"
    flock -w 900 8 || die "timed out waiting for another provisioning run ($CACHE_DIR/.provision.lock)"
    if [[ "$(cat "$home/.complete" 2>/dev/null)" != "$stamp" ]]; then
      log "fetching $(basename "$home") jars from Maven Central (~1 min)"
      local tmp
      tmp="$(mktemp -d "$CACHE_DIR/.tmp.$(basename "$home").XXXXXX")"
      chmod 755 "$tmp"
      cp "$pom" "$tmp/pom.xml"
      mvn -B -q -f "$tmp/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
        -DoutputDirectory="$tmp/libs" >"$tmp/maven.log" 2>&1 ||
        die "maven failed for $pom (log: $tmp/maven.log)"
      if [[ -n "$src" ]]; then
        cp "$src" "$tmp/"
        javac -nowarn -d "$tmp/classes" -cp "$tmp/libs/*" "$tmp/$(basename "$src")" >&2 || die "javac failed for $src"
      fi
      printf '%s\n' "$stamp" >"$tmp/.complete"
      rm -rf "$home"
      mv -T "$tmp" "$home"
    fi
    exec 8>&-
  fi
  [[ -f "$home/libs/$marker" ]] || die "$marker missing in $home ($pom out of step with the version here?)"
  printf '%s\n' "$home"
}

kafka_libs() {
  infra_entry "$CACHE_DIR/kafka-$KAFKA_VERSION" "kafka_2.13-$KAFKA_VERSION.jar" "$REPO_ROOT/tools/kafka/pom.xml"
}

mjs_home() {
  infra_entry "$CACHE_DIR/mongo-java-server-$MJS_VERSION" "mongo-java-server-core-$MJS_VERSION.jar" \
    "$REPO_ROOT/tools/mongo-java-server/pom.xml" "$REPO_ROOT/tools/mongo-java-server/MongoLauncher.java"
}

# Everything the Dockerfile copies, as .dockerignore leaves it (tests and node_modules excluded).
platform_inputs_sha() {
  (
    cd "$REPO_ROOT"
    ls Dockerfile .dockerignore package.json package-lock.json tsconfig.json
    find services operator kafka crds \( -name node_modules -o -name test \) -prune -o -type f -print
  ) | LC_ALL=C sort | (cd "$REPO_ROOT" && xargs -d '\n' sha256sum) | sha_of
}

# ---------------------------------------------------------------------------------------------
# Working containers: removed on exit, whatever happens
# ---------------------------------------------------------------------------------------------

CONTAINERS=()
RUN_PIDS=() # `buildah run` processes of verify, stopped before their containers are removed
NETNS=""    # verify's private network namespace
cleanup() {
  local c p
  for p in "${RUN_PIDS[@]}"; do stop_run "$p"; done
  for c in "${CONTAINERS[@]}"; do bh rm "$c" >/dev/null 2>&1 || true; done
  [[ -z "$NETNS" ]] || ip netns del "$NETNS" 2>/dev/null || true
}
trap cleanup EXIT

# Sets CTR (not printed: a $(...) subshell would lose the CONTAINERS entry that cleanup needs).
CTR=""
CTR_SEQ=0
new_container() { # image
  CTR_SEQ=$((CTR_SEQ + 1))
  CTR="$(bh from --quiet --pull=never --name "edu-images-$$-$CTR_SEQ" "$1")"
  CONTAINERS+=("$CTR")
}

# Run a build step in the container with this host's network (apt, npm): no CNI network, no
# iptables rule is created for it.
bh_run() { # ctr command...
  local ctr="$1"
  shift
  bh run --network host "$ctr" -- "$@"
}

commit() { # ctr ref
  bh commit --quiet --rm "$1" "$2" >/dev/null
  local c kept=()
  for c in "${CONTAINERS[@]}"; do [[ "$c" == "$1" ]] || kept+=("$c"); done
  CONTAINERS=("${kept[@]}")
}

# The one shape of every image built in a container: nothing to do when REF is up to date with
# STAMP; else a container from PARENT, which `RECIPE ctr stamp [arg...]` fills (its config with
# the io.edu-platform.inputs label, and a check that what it installed runs), committed as REF and
# written out as its archive and stamp.
build_image() { # ref stamp parent what recipe [arg...]
  local ref="$1" stamp="$2" parent="$3" what="$4" recipe="$5"
  shift 5
  is_current "$ref" "$stamp" && return 0
  local t0=$SECONDS ctr
  log "building $ref ($what)"
  new_container "$parent"
  ctr="$CTR"
  "$recipe" "$ctr" "$stamp" "$@"
  commit "$ctr" "$ref"
  finish_image "$ref" "$stamp"
  log "$ref built in $((SECONDS - t0)) s"
}

# ---------------------------------------------------------------------------------------------
# debian: minimal bookworm from this host's mirror
# ---------------------------------------------------------------------------------------------

readonly DEBIAN_REF="localhost/edu-debian:$DEBIAN_SUITE"

debian_stamp() {
  {
    printf 'recipe=%s suite=%s mirror=%s\n' "$RECIPE" "$DEBIAN_SUITE" "$(debian_mirror)"
    cat /etc/apt/sources.list.d/debian.sources 2>/dev/null || true
  } | sha_of
}

# Docs, man pages and translations are dropped from the root filesystem and from every package
# installed later (as Debian's own slim images do): they are a third of a JRE's install.
slim_rootfs() { # mnt
  local mnt="${1:?}"
  # Guard against ever running the removals below on anything but a debootstrap'd tree.
  [[ "$mnt" != / && -f "$mnt/etc/debian_version" ]] || die "slim_rootfs: $mnt is not a Debian root filesystem"
  cat >"$mnt/etc/dpkg/dpkg.cfg.d/edu-slim" <<'CFG'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-include /usr/share/locale/locale.alias
CFG
  printf 'APT::Install-Recommends "false";\nAPT::Install-Suggests "false";\n' >"$mnt/etc/apt/apt.conf.d/edu-slim"
  find "$mnt/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  rm -rf "${mnt:?}"/usr/share/{man,info}/* "${mnt:?}"/var/cache/apt/archives/*.deb "${mnt:?}"/var/cache/apt/*.bin \
    "${mnt:?}"/var/lib/apt/lists/* "${mnt:?}"/var/log/* "${mnt:?}"/tmp/* "${mnt:?}"/dev/* "${mnt:?}"/proc/* "${mnt:?}"/sys/*
  find "$mnt/usr/share/locale" -mindepth 1 -maxdepth 1 -not -name locale.alias -exec rm -rf {} +
  # Host files debootstrap copied in; the runtime provides its own.
  rm -f "$mnt/etc/resolv.conf" "$mnt/etc/hostname"
  : >"$mnt/etc/machine-id"
}

build_debian() {
  local stamp
  stamp="$(debian_stamp)"
  build_image "$DEBIAN_REF" "$stamp" scratch "debootstrap --variant=minbase $DEBIAN_SUITE, ~2 min" debian_recipe
}

debian_recipe() { # ctr stamp
  local ctr="$1" stamp="$2" mirror mnt
  ensure_cmd debootstrap debootstrap
  mirror="$(debian_mirror)"
  log "debootstrap from $mirror"
  mnt="$(bh mount "$ctr")"
  if ! debootstrap --variant=minbase --include=ca-certificates --components=main \
    "$DEBIAN_SUITE" "$mnt" "$mirror" >"$IMAGES_DIR/debootstrap.log" 2>&1; then
    tail -n 20 "$IMAGES_DIR/debootstrap.log" >&2
    die "debootstrap failed (log: $IMAGES_DIR/debootstrap.log)"
  fi
  # The same sources as this host (updates and security included), not only debootstrap's one line.
  if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    cp /etc/apt/sources.list.d/debian.sources "$mnt/etc/apt/sources.list.d/debian.sources"
    rm -f "$mnt/etc/apt/sources.list"
  fi
  slim_rootfs "$mnt"
  bh umount "$ctr" >/dev/null
  bh config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin --cmd /bin/bash \
    --label "io.edu-platform.inputs=$stamp" "$ctr"
}

# ---------------------------------------------------------------------------------------------
# base: debian + this host's node and npm (the Dockerfile's NODE_IMAGE)
# ---------------------------------------------------------------------------------------------

base_ref() { printf 'localhost/edu-node-base:%s\n' "$(node_version)"; }

base_stamp() {
  printf 'recipe=%s debian=%s node=%s npm=%s\n' "$RECIPE" "$(debian_stamp)" "$(node_version)" \
    "$(node "$(npm_dir)/bin/npm-cli.js" --version 2>/dev/null)" | sha_of
}

build_base() {
  build_debian
  local ref stamp node_bin npm
  ref="$(base_ref)"
  stamp="$(base_stamp)"
  node_bin="$(readlink -f "$(command -v node)")"
  npm="$(cd "$(npm_dir)" && pwd -P)"
  build_image "$ref" "$stamp" "$DEBIAN_REF" "from $node_bin and $npm" base_recipe "$node_bin" "$npm"
}

base_recipe() { # ctr stamp node-binary npm-dir
  local ctr="$1" stamp="$2" node_bin="$3" npm="$4" mnt
  mnt="$(bh mount "$ctr")"
  # The layout of the official node images: /usr/local/bin/node, npm under /usr/local/lib.
  install -D -m 0755 "$node_bin" "$mnt/usr/local/bin/node"
  mkdir -p "$mnt/usr/local/lib/node_modules"
  tar -C "$npm/.." --exclude=npm/docs --exclude=npm/man -cf - npm | tar -C "$mnt/usr/local/lib/node_modules" -xf -
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$mnt/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$mnt/usr/local/bin/npx"
  # npm's global config file (prefix /usr/local). It exists so that a build can bind-mount its
  # registry/CA settings over it: a mount on a missing path would leave an empty file in a layer.
  mkdir -p "$mnt/usr/local/etc"
  printf '%s\n' "# npm's global config; scripts/images.sh mounts the build host's registry and CA here while building." \
    >"$mnt/usr/local/etc/npmrc"
  bh umount "$ctr" >/dev/null
  bh config --env "NODE_VERSION=$(node_version)" --cmd node --label "io.edu-platform.inputs=$stamp" "$ctr"
  # What the Dockerfile's stages run: node, npm, npx, groupadd/useradd.
  bh run --network none "$ctr" -- sh -ec \
    'node --version; npm --version; npx --version; command -v groupadd; command -v useradd' >&2 ||
    die "the node base image cannot run node/npm/npx/useradd"
}

# ---------------------------------------------------------------------------------------------
# platform: the project's Dockerfile
# ---------------------------------------------------------------------------------------------

TAG="${EDU_IMAGE_TAG:-dev}"
platform_ref() { printf 'localhost/edu-platform:%s\n' "$TAG"; }

# The CA bundle npm must trust inside the build (this host's egress may re-sign TLS, as it does
# here): npm's own cafile if set, else the system bundle.
host_ca_bundle() {
  local ca
  ca="$(npm config get cafile 2>/dev/null || true)"
  [[ -n "$ca" && "$ca" != null && -f "$ca" ]] || ca=/etc/ssl/certs/ca-certificates.crt
  [[ -f "$ca" ]] || die "no CA bundle found (npm cafile, /etc/ssl/certs/ca-certificates.crt)"
  printf '%s\n' "$ca"
}

build_platform() {
  build_base
  local ref base stamp
  ref="$(platform_ref)"
  base="$(base_ref)"
  stamp="$(printf 'recipe=%s base=%s inputs=%s\n' "$RECIPE" "$(base_stamp)" "$(platform_inputs_sha)" | sha_of)"
  is_current "$ref" "$stamp" && return 0
  local t0=$SECONDS ca npmrc="$IMAGES_DIR/build.npmrc"
  ca="$(host_ca_bundle)"
  # Passed in as bind mounts for the RUN steps only, so nothing of this host ends up in a layer
  # and the Dockerfile stays the one Docker builds elsewhere. Proxy variables, if set, are passed
  # by buildah itself.
  # npm's own configuration names the registry (its default when none is set); never a host written here.
  printf 'registry=%s\ncafile=/etc/ssl/certs/ca-certificates.crt\n' "$(npm config get registry)" >"$npmrc"
  log "building $ref (buildah bud, NODE_IMAGE=$base; npm ci inside, ~3 min cold)"
  (
    cd "$REPO_ROOT"
    bh bud --layers --pull=never --network host --jobs 1 \
      --volume "$ca:/etc/ssl/certs/ca-certificates.crt:ro" --volume "$npmrc:/usr/local/etc/npmrc:ro" \
      --build-arg "NODE_IMAGE=$base" --label "io.edu-platform.inputs=$stamp" \
      -f Dockerfile -t "$ref" . >"$IMAGES_DIR/platform-build.log" 2>&1
  ) || {
    tail -n 30 "$IMAGES_DIR/platform-build.log" >&2
    die "buildah bud failed (log: $IMAGES_DIR/platform-build.log)"
  }
  finish_image "$ref" "$stamp"
  log "$ref built in $((SECONDS - t0)) s"
}

# ---------------------------------------------------------------------------------------------
# Shared steps of the images built on debian: apt packages and the runtime user
# ---------------------------------------------------------------------------------------------

# Debian packages from this host's mirror (the sources debian carries), with this host's network;
# lists and caches are removed in the same step so that none of them reaches a layer.
apt_install() { # ctr log package...
  local ctr="$1" logf="$2"
  shift 2
  # The JRE's postinst links its man pages; the directory is gone in the slim root filesystem.
  bh_run "$ctr" sh -ec 'mkdir -p /usr/share/man/man1
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@"
    apt-get clean
    rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /var/log/apt /var/log/dpkg.log /usr/share/man/*' \
    sh "$@" >"$logf" 2>&1 || {
    tail -n 20 "$logf" >&2
    die "apt-get install $* failed (log: $logf)"
  }
}

# A system user and group with the same id, no home, no login shell: the uid the chart and the
# kind manifests run the server as. runAsUser works without a passwd entry, but Java's user.name
# and user.home, id and whoami want one.
add_user() { # ctr name id
  # shellcheck disable=SC2016 # the container's sh expands them
  bh_run "$1" sh -ec 'groupadd --system --gid "$2" "$1"
    useradd --system --uid "$2" --gid "$2" --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$1"' \
    sh "$2" "$3" >"$IMAGES_DIR/useradd.log" 2>&1 || {
    cat "$IMAGES_DIR/useradd.log" >&2
    die "adding the user $2 ($3) failed"
  }
}

# ---------------------------------------------------------------------------------------------
# jre: debian + Debian's JRE, the parent of kafka and mongo
# ---------------------------------------------------------------------------------------------

readonly JRE_REF="localhost/edu-jre:17"
readonly JRE_PACKAGE=openjdk-17-jre-headless

jre_stamp() {
  printf 'recipe=%s debian=%s packages=%s\n' "$RECIPE" "$(debian_stamp)" "$JRE_PACKAGE" | sha_of
}

build_jre() {
  build_debian
  local stamp
  stamp="$(jre_stamp)"
  build_image "$JRE_REF" "$stamp" "$DEBIAN_REF" "$JRE_PACKAGE from apt; 15 s to 2 min, as fast as the mirror" jre_recipe
}

jre_recipe() { # ctr stamp
  local ctr="$1" stamp="$2"
  apt_install "$ctr" "$IMAGES_DIR/jre-build.log" "$JRE_PACKAGE"
  bh config --label "io.edu-platform.inputs=$stamp" "$ctr"
  bh run --network none "$ctr" -- java -version >&2 2>&1 || die "java does not run in $JRE_REF"
}

# ---------------------------------------------------------------------------------------------
# kafka: jre + the cached Kafka jars
# ---------------------------------------------------------------------------------------------

readonly KAFKA_REF="localhost/edu-kafka:$KAFKA_VERSION"

kafka_stamp() { # kafka home
  {
    printf 'recipe=%s jre=%s kafka=%s jars=%s\n' "$RECIPE" "$(jre_stamp)" "$KAFKA_VERSION" "$(cat "$1/.complete")"
    cd "$REPO_ROOT" && find tools/images/kafka tools/kafka/log4j.properties -type f | LC_ALL=C sort | xargs -d '\n' sha256sum
  } | sha_of
}

build_kafka() {
  build_jre
  local home stamp
  home="$(kafka_libs)"
  stamp="$(kafka_stamp "$home")"
  build_image "$KAFKA_REF" "$stamp" "$JRE_REF" "on $JRE_REF, jars from $home" kafka_recipe "$home"
}

kafka_recipe() { # ctr stamp kafka-home
  local ctr="$1" stamp="$2" home="$3"
  # The chart runs the broker as 1000:1000 (kafka.podSecurityContext), like apache/kafka.
  add_user "$ctr" kafka 1000
  bh_run "$ctr" sh -ec 'mkdir -p /opt/kafka/libs /opt/kafka/bin /opt/kafka/config /var/lib/kafka/data
    chown 1000:1000 /var/lib/kafka/data' >&2
  bh copy --quiet "$ctr" "$home/libs" /opt/kafka/libs >/dev/null
  bh copy --quiet --chmod 0755 "$ctr" "$KAFKA_TOOLS/bin" /opt/kafka/bin >/dev/null
  bh copy --quiet "$ctr" "$KAFKA_TOOLS/config" /opt/kafka/config >/dev/null
  bh copy --quiet "$ctr" "$REPO_ROOT/tools/kafka/log4j.properties" /opt/kafka/config/log4j.properties >/dev/null
  bh config --env PATH=/opt/kafka/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --env "KAFKA_VERSION=$KAFKA_VERSION" --user 1000:1000 --workingdir /opt/kafka --port 9092 \
    --cmd '["/opt/kafka/bin/edu-kafka-start.sh"]' \
    --label "io.edu-platform.inputs=$stamp" "$ctr"
  bh run --network none "$ctr" -- java -version >&2 2>&1 || die "java does not run in $KAFKA_REF"
}

# ---------------------------------------------------------------------------------------------
# mongo: jre + mongo-java-server and the MongoLauncher of scripts/infra.sh's cache
# ---------------------------------------------------------------------------------------------

readonly MONGO_REF="localhost/edu-mongo-standin:$MJS_VERSION"
readonly MONGO_HOME=/opt/mongo-java-server

mongo_stamp() { # mongo-java-server home
  {
    printf 'recipe=%s jre=%s mjs=%s entry=%s\n' "$RECIPE" "$(jre_stamp)" "$MJS_VERSION" "$(cat "$1/.complete")"
    cd "$REPO_ROOT" && find tools/images/mongo -type f | LC_ALL=C sort | xargs -d '\n' sha256sum
  } | sha_of
}

build_mongo() {
  build_jre
  local home stamp
  home="$(mjs_home)"
  stamp="$(mongo_stamp "$home")"
  build_image "$MONGO_REF" "$stamp" "$JRE_REF" "on $JRE_REF, jars and launcher from $home" mongo_recipe "$home"
}

mongo_recipe() { # ctr stamp mongo-java-server-home
  local ctr="$1" stamp="$2" home="$3" rc=0
  # uid 1000 like the Kafka image; the server writes nothing (in-memory backend, no perf data), so
  # the root filesystem may be read-only.
  add_user "$ctr" mongodb 1000
  bh copy --quiet "$ctr" "$home/libs" "$MONGO_HOME/libs" >/dev/null
  bh copy --quiet "$ctr" "$home/classes" "$MONGO_HOME/classes" >/dev/null
  bh copy --quiet --chmod 0755 "$ctr" "$MONGO_TOOLS/edu-mongo-start.sh" /usr/local/bin/edu-mongo-start.sh >/dev/null
  bh config --env "MJS_VERSION=$MJS_VERSION" --env "MJS_HOME=$MONGO_HOME" --user 1000:1000 \
    --workingdir "$MONGO_HOME" --port 27017 --cmd '["/usr/local/bin/edu-mongo-start.sh"]' \
    --label "io.edu-platform.inputs=$stamp" "$ctr"
  # The launcher's classes come from this host's javac: a JDK newer than the image's JRE would
  # write class files it cannot load. Without arguments MongoLauncher prints its usage and exits 2
  # (an UnsupportedClassVersionError exits 1).
  bh run --network none "$ctr" -- java -cp "$MONGO_HOME/libs/*:$MONGO_HOME/classes" MongoLauncher >/dev/null 2>&1 ||
    rc=$?
  ((rc == 2)) || die "MongoLauncher does not load in $MONGO_REF (exit $rc; was $home/classes compiled by a JDK newer than 17?)"
}

# ---------------------------------------------------------------------------------------------
# kube-router: debian + iptables, ipset, conntrack, kmod + the binary of scripts/netpol.sh build
# ---------------------------------------------------------------------------------------------

readonly KUBE_ROUTER_REF="localhost/edu-kube-router:$KUBE_ROUTER_VERSION"
# What its network policy controller runs: iptables-save/-restore (both backends: the entrypoint
# picks the node's), ipset, conntrack to drop flows a new policy denies, and kmod: iptables and
# ipset modprobe a netfilter module that is not loaded yet (from the node's /lib/modules).
readonly KUBE_ROUTER_PACKAGES=(iptables ipset conntrack kmod)

# The binary netpol.sh builds from the Go proxy and caches (a no-op when it is up to date).
kube_router_bin() {
  local bin="$CACHE_DIR/netpol-kube-router-$KUBE_ROUTER_VERSION/bin/kube-router"
  # 7>&-: netpol.sh takes its own fd 7 lock for up/down; it must never see ours.
  bash "$SCRIPT_DIR/netpol.sh" build >&2 7>&- || die "scripts/netpol.sh build failed"
  [[ -x "$bin" ]] || die "$bin missing after scripts/netpol.sh build (KUBE_ROUTER_VERSION out of step with netpol.sh?)"
  printf '%s\n' "$bin"
}

kube_router_stamp() { # binary
  {
    printf 'recipe=%s debian=%s version=%s packages=%s binary=%s\n' "$RECIPE" "$(debian_stamp)" \
      "$KUBE_ROUTER_VERSION" "${KUBE_ROUTER_PACKAGES[*]}" "$(sha_of <"$1")"
    cd "$REPO_ROOT" && find tools/images/kube-router -type f | LC_ALL=C sort | xargs -d '\n' sha256sum
  } | sha_of
}

build_kube_router() {
  build_debian
  local bin stamp
  bin="$(kube_router_bin)"
  stamp="$(kube_router_stamp "$bin")"
  build_image "$KUBE_ROUTER_REF" "$stamp" "$DEBIAN_REF" "${KUBE_ROUTER_PACKAGES[*]} from apt, $bin" \
    kube_router_recipe "$bin"
}

kube_router_recipe() { # ctr stamp kube-router-binary
  local ctr="$1" stamp="$2" bin="$3"
  apt_install "$ctr" "$IMAGES_DIR/kube-router-build.log" "${KUBE_ROUTER_PACKAGES[@]}"
  bh copy --quiet --chmod 0755 "$ctr" "$bin" /usr/local/bin/kube-router >/dev/null
  bh copy --quiet --chmod 0755 "$ctr" "$KUBE_ROUTER_TOOLS/edu-kube-router-start.sh" \
    /usr/local/bin/edu-kube-router-start.sh >/dev/null
  # Root: it programs the node's iptables and ipsets (the DaemonSet runs it privileged).
  # debian's /bin/bash command cleared first: the DaemonSet's args alone follow the entrypoint (in
  # one call buildah warns that the old command would be passed to the entrypoint).
  bh config --cmd '' "$ctr"
  bh config --env "KUBE_ROUTER_VERSION=$KUBE_ROUTER_VERSION" \
    --entrypoint '["/usr/local/bin/edu-kube-router-start.sh"]' \
    --label "io.edu-platform.inputs=$stamp" "$ctr"
  # shellcheck disable=SC2016 # the container's sh expands it
  bh run --network none "$ctr" -- sh -ec 'kube-router --version
    for c in iptables-legacy-save iptables-nft-save ip6tables-legacy-save ip6tables-nft-save ipset conntrack modprobe update-alternatives; do
      command -v "$c" >/dev/null || { echo "$c missing"; exit 1; }
    done' >&2 2>&1 || die "kube-router or its tools do not run in $KUBE_ROUTER_REF"
}

# ---------------------------------------------------------------------------------------------
# Import into the node of scripts/node.sh, when it is up
# ---------------------------------------------------------------------------------------------

NO_LOAD=0
load_into_node() { # ref name:tag (as the chart names it)
  ((NO_LOAD == 0)) || return 0
  local node_sh="$SCRIPT_DIR/node.sh"
  if [[ ! -x "$node_sh" ]] || ! "$node_sh" status >/dev/null 2>&1; then
    log "node not up: $2 not imported (later: scripts/node.sh load $(archive_of "$1") $2)"
    return 0
  fi
  log "importing $2 into the node"
  "$node_sh" load "$(archive_of "$1")" "$2" >&2 || die "scripts/node.sh load failed for $2"
}

# ---------------------------------------------------------------------------------------------
# Verify: run the images for real
# ---------------------------------------------------------------------------------------------

readonly VERIFY_TIMEOUT="${EDU_IMAGES_VERIFY_TIMEOUT:-90}"

# buildah stops the container (SIGKILL) when its `buildah run` gets SIGTERM.
stop_run() { # pid
  kill -TERM "$1" 2>/dev/null || return 0
  local deadline=$((SECONDS + 15))
  while kill -0 "$1" 2>/dev/null && ((SECONDS < deadline)); do sleep 0.2; done
  kill -KILL "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}

# Poll URL until it answers 2xx, the run process exits, or VERIFY_TIMEOUT passes.
wait_http() { # url pid log
  local deadline=$((SECONDS + VERIFY_TIMEOUT))
  until curl -fsS -o /dev/null "$1" 2>/dev/null; do
    kill -0 "$2" 2>/dev/null || {
      tail -n 20 "$3" >&2
      die "the container exited before $1 answered (log: $3)"
    }
    ((SECONDS < deadline)) || die "$1 did not answer within ${VERIFY_TIMEOUT}s (log: $3)"
    sleep 0.2
  done
}

free_port() {
  local port
  for port in $(seq 14901 14999); do
    (: <"/dev/tcp/127.0.0.1/$port") 2>/dev/null || {
      printf '%s\n' "$port"
      return 0
    }
  done
  die "no free port in 14901-14999"
}

# A network namespace of its own for a verify run, loopback only: the image's fixed ports clash
# with nothing on the host, and whatever it programs (iptables, ipsets) goes with the namespace.
private_netns() {
  [[ -z "$NETNS" ]] || return 0
  NETNS="edu-images-verify-$$"
  ip netns add "$NETNS"
  ip -n "$NETNS" link set lo up
}

# The test profile of scripts/infra.sh (else dev): the host's MongoDB stand-in and Kafka.
infra_env() { # key
  local f
  for f in "$CACHE_DIR/run/test/infra.env" "$CACHE_DIR/run/dev/infra.env"; do
    [[ -f "$f" ]] && grep -m1 "^$1=" "$f" | cut -d= -f2- && return 0
  done
  die "no infra profile is up: run scripts/infra.sh up --profile test"
}

# The auth service from the image, as its own user, against the host's MongoDB and Kafka:
# /readyz (MongoDB reached) and a real registration (bcrypt's native module, a MongoDB write).
# NODE_ENV=development: production refuses the stand-in MongoDB, which has no transactions.
verify_platform() {
  local ref ctr port log="$IMAGES_DIR/verify-platform.log" t0=$SECONDS pid code
  ref="$(platform_ref)"
  image_exists "$ref" || die "$ref is not built (scripts/images.sh build platform)"
  new_container "$ref"
  ctr="$CTR"
  port="$(free_port)"
  bh config --env NODE_ENV=development --env "PORT=$port" --env "MONGODB_URI=$(infra_env MONGODB_URI)" \
    --env "MONGODB_DB=edu_images_verify_$$" --env "KAFKA_BROKERS=$(infra_env KAFKA_BROKERS)" \
    --env LOG_LEVEL=warn "$ctr"
  # Not through bh(): $! must be buildah itself, and it must not hold the build lock (fd 7).
  "${BH[@]}" run --network host "$ctr" -- node dist/services/cli.js auth >"$log" 2>&1 7>&- &
  pid=$!
  RUN_PIDS+=("$pid")
  wait_http "http://127.0.0.1:$port/readyz" "$pid" "$log"
  log "platform: auth from $ref (user $(bh inspect --format '{{.OCIv1.Config.User}}' "$ref")) ready on :$port after $((SECONDS - t0)) s"
  code="$(curl -sS -o "$IMAGES_DIR/verify-register.json" -w '%{http_code}' -H 'content-type: application/json' \
    -d "{\"email\":\"verify-$$-$RANDOM@example.com\",\"password\":\"Verify-Image-1234\",\"fullName\":\"Image Check\"}" \
    "http://127.0.0.1:$port/v1/auth/register")"
  [[ "$code" == 201 ]] || die "POST /v1/auth/register answered $code: $(head -c 300 "$IMAGES_DIR/verify-register.json")"
  log "platform: POST /v1/auth/register -> 201"
  stop_run "$pid"
  RUN_PIDS=()
}

# scripts/lib/image-check.ts kafka|mongo (the project's own drivers) inside the verify run's
# network namespace, bounded by VERIFY_TIMEOUT; prints its line, or its error (and fails).
image_check() { # kafka|mongo
  (cd "$REPO_ROOT" && env TIMEOUT_MS=$((VERIFY_TIMEOUT * 1000)) ip netns exec "$NETNS" \
    node --import tsx scripts/lib/image-check.ts "$1" 2>&1)
}

# The chart's own start.sh, server.properties and env (rendered by helm from the chart), with the
# chart's uid, in a private network namespace (its fixed ports 9092/9093 clash with nothing on the
# host), advertised on 127.0.0.1 instead of the pod's DNS name; then scripts/lib/image-check.ts kafka in the same
# namespace. Without helm, the image's default command is run instead.
render_chart_kafka() { # dir
  local helm="" h
  # helm on PATH, else the one scripts/cluster.sh caches.
  for h in "$(command -v helm || true)" "$CACHE_DIR"/k8s-cli-*/bin/helm; do
    [[ -x "$h" ]] && helm="$h" && break
  done
  [[ -n "$helm" ]] || return 1
  "$helm" template edu-verify "$REPO_ROOT/charts/edu-platform" --set kafka.enabled=true --set mongodb.enabled=true \
    --show-only templates/kafka/configmap.yaml --show-only templates/kafka/statefulset.yaml >"$1/chart.yaml" ||
    return 1
  # config/server.properties, config/start.sh and run.args from the render.
  (cd "$REPO_ROOT" && node --import tsx scripts/lib/chart-kafka.ts "$1")
}

verify_kafka() {
  image_exists "$KAFKA_REF" || die "$KAFKA_REF is not built (scripts/images.sh build kafka)"
  local dir log="$IMAGES_DIR/verify-kafka.log" t0=$SECONDS ctr pid args=() cmd=() line
  dir="$(mktemp -d "$IMAGES_DIR/.tmp.verify-kafka.XXXXXX")"
  mkdir -p "$dir/data" "$dir/tmp"
  chown 1000:1000 "$dir/data" "$dir/tmp"
  if render_chart_kafka "$dir"; then
    while IFS= read -r line; do
      case "$line" in
        CMD=*) mapfile -t cmd < <(node -e 'for (const a of JSON.parse(process.argv[1])) console.log(a)' "${line#CMD=}") ;;
        *) args+=("$line") ;;
      esac
    done <"$dir/run.args"
    args+=(--volume "$dir/config:/etc/edu-kafka:ro" --volume "$dir/data:/var/lib/kafka/data" --volume "$dir/tmp:/tmp")
    log "kafka: the chart's start.sh ($(printf '%s ' "${args[@]}" | grep -o -- '--user=[0-9:]*'))"
  else
    log "kafka: helm not found; running the image's default command"
    args=(--env KAFKA_ADVERTISED_LISTENERS=PLAINTEXT://127.0.0.1:9092 --volume "$dir/data:/var/lib/kafka/data" --volume "$dir/tmp:/tmp")
    cmd=(/opt/kafka/bin/edu-kafka-start.sh)
  fi
  private_netns
  new_container "$KAFKA_REF"
  ctr="$CTR"
  "${BH[@]}" run --network "ns:/run/netns/$NETNS" "${args[@]}" "$ctr" -- "${cmd[@]}" >"$log" 2>&1 7>&- &
  pid=$!
  RUN_PIDS+=("$pid")
  local out
  if ! out="$(image_check kafka)"; then
    tail -n 20 "$log" >&2
    die "kafka probe failed: $out (broker log: $log)"
  fi
  log "kafka: $KAFKA_REF $out, $((SECONDS - t0)) s from start"
  stop_run "$pid"
  RUN_PIDS=()
  rm -rf "$dir"
}

# The image's own default command as its own user, in a private network namespace;
# scripts/lib/image-check.ts mongo (ping, then a document written and read back, retried until the
# server answers) from the same namespace; then its listening socket must be the wildcard address (a
# Service reaches the pod's address, not its loopback).
verify_mongo() {
  image_exists "$MONGO_REF" || die "$MONGO_REF is not built (scripts/images.sh build mongo)"
  local log="$IMAGES_DIR/verify-mongo.log" t0=$SECONDS ctr pid out cmd=() uids listen
  mapfile -t cmd < <(bh inspect --type image --format '{{range .OCIv1.Config.Cmd}}{{println .}}{{end}}' "$MONGO_REF")
  ((${#cmd[@]})) || die "$MONGO_REF has no default command"
  private_netns
  new_container "$MONGO_REF"
  ctr="$CTR"
  "${BH[@]}" run --network "ns:/run/netns/$NETNS" "$ctr" -- "${cmd[@]}" >"$log" 2>&1 7>&- &
  pid=$!
  RUN_PIDS+=("$pid")
  if ! out="$(image_check mongo)"; then
    tail -n 20 "$log" >&2
    die "mongo probe failed: $out (server log: $log)"
  fi
  uids="$(ip netns pids "$NETNS" | xargs -r ps -o uid= -p | sort -u | tr -d ' ' | paste -sd,)"
  [[ "$uids" == 1000 ]] || die "the server runs as uid(s) '$uids', expected 1000"
  listen="$(ip netns exec "$NETNS" ss -Hltn 'sport = :27017' | awk '{ print $4 }')"
  [[ "$listen" =~ ^(\*|0\.0\.0\.0|\[::\]):27017$ ]] || die "27017 is bound to '$listen', not to all interfaces"
  log "mongo: $MONGO_REF ($(grep -m1 -o "mongo-launcher: .*" "$log" | sed "s/^mongo-launcher: //")) as uid $uids on $listen: $out, $((SECONDS - t0)) s from start"
  stop_run "$pid"
  RUN_PIDS=()
}

# The entrypoint's backend choice and kube-router itself (--version), then the tools its policy
# controller runs, for real but inside a private network namespace: an ipset and an iptables rule
# matching it (the kernel's ip_set and xt_set as the pod will use them); then the entrypoint's
# cleanup on chains and sets named like kube-router's, which must leave the others alone. All of
# it goes with the namespace.
verify_kube_router() {
  image_exists "$KUBE_ROUTER_REF" || die "$KUBE_ROUTER_REF is not built (scripts/images.sh build kube-router)"
  local t0=$SECONDS ctr out run mode version
  private_netns
  new_container "$KUBE_ROUTER_REF"
  ctr="$CTR"
  run=("${BH[@]}" run --network "ns:/run/netns/$NETNS" --cap-add CAP_NET_ADMIN --cap-add CAP_NET_RAW "$ctr" --)
  out="$("${run[@]}" /usr/local/bin/edu-kube-router-start.sh --version 2>&1 7>&-)" ||
    die "the entrypoint failed: $out"
  grep -qF "version $KUBE_ROUTER_VERSION," <<<"$out" || die "kube-router --version says: $out"
  mode="$(grep -m1 -o '^edu-kube-router: iptables-[a-z]*' <<<"$out")" || die "the entrypoint chose no iptables backend: $out"
  version="$(grep -m1 -o 'version [^,]*' <<<"$out")"
  # shellcheck disable=SC2016 # the container's sh expands it
  out="$("${run[@]}" sh -ec 'ipset create EDU-VERIFY hash:ip
    ipset add EDU-VERIFY 192.0.2.1
    ipset test EDU-VERIFY 192.0.2.1 2>/dev/null
    iptables -N EDU-VERIFY
    iptables -A EDU-VERIFY -m set --match-set EDU-VERIFY src -m comment --comment edu-verify -j DROP
    iptables -I INPUT -j EDU-VERIFY
    [ "$(iptables-save -t filter | grep -c -- "--match-set EDU-VERIFY src")" = 1 ]
    conntrack -L >/dev/null 2>&1 || conntrack --version >/dev/null
    before="$(iptables-save -t filter | grep -v "^[#*]" | grep -c EDU-VERIFY)"
    # What kube-router leaves on a node: its chains, jumps into them, sets its rules match.
    ipset create KUBE-SRC-EDUVERIFY hash:ip
    ipset create KUBE-DST-EDUVERIFY hash:ip
    iptables -N KUBE-ROUTER-FORWARD
    iptables -N KUBE-POD-FW-EDUVERIFY
    iptables -N KUBE-NWPLCY-EDUVERIFY
    iptables -I FORWARD -m comment --comment "kube-router netpol - TEMCG2JMHZYE7H7T" -j KUBE-ROUTER-FORWARD
    iptables -A KUBE-ROUTER-FORWARD -d 192.0.2.9 -j KUBE-POD-FW-EDUVERIFY
    iptables -A KUBE-POD-FW-EDUVERIFY -j KUBE-NWPLCY-EDUVERIFY
    iptables -A KUBE-NWPLCY-EDUVERIFY -m set --match-set KUBE-SRC-EDUVERIFY src -m set --match-set KUBE-DST-EDUVERIFY dst -j ACCEPT
    /usr/local/bin/edu-kube-router-start.sh cleanup 2>&1 | grep "removed"
    ! iptables-save | grep -E "KUBE-(ROUTER|POD-FW|NWPLCY)-"
    ! ipset list -n | grep -E "^KUBE-(SRC|DST)-"
    [ "$(iptables-save -t filter | grep -v "^[#*]" | grep -c EDU-VERIFY)" = "$before" ] && ipset list -n | grep -qx EDU-VERIFY
    echo "iptables: $(readlink -f "$(command -v iptables)")"' 2>&1 7>&-)" ||
    die "iptables/ipset/conntrack or the cleanup failed in $KUBE_ROUTER_REF: $out"
  log "kube-router: $KUBE_ROUTER_REF $version, ${mode#edu-kube-router: } in an empty namespace; ipset, iptables set match, conntrack ok; cleanup: $(tr '\n' ' ' <<<"$out")$((SECONDS - t0)) s"
}

cmd_verify() { # what...
  local what
  for what in "$@"; do
    [[ "$what" =~ ^(platform|kafka|mongo|kube-router|all)$ ]] ||
      die "unknown image '$what' (expected platform, kafka, mongo, kube-router or all)"
  done
  setup
  for what in "$@"; do
    case "$what" in
      platform) verify_platform ;;
      kafka) verify_kafka ;;
      mongo) verify_mongo ;;
      kube-router) verify_kube_router ;;
      all)
        verify_platform
        verify_kafka
        ;;
    esac
  done
}

# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------

readonly IMAGE_NAMES=(debian base jre platform kafka mongo kube-router)

image_ref_of() { # one of IMAGE_NAMES
  case "$1" in
    debian) printf '%s\n' "$DEBIAN_REF" ;;
    base) base_ref ;;
    jre) printf '%s\n' "$JRE_REF" ;;
    platform) platform_ref ;;
    kafka) printf '%s\n' "$KAFKA_REF" ;;
    mongo) printf '%s\n' "$MONGO_REF" ;;
    kube-router) printf '%s\n' "$KUBE_ROUTER_REF" ;;
    *) die "unknown image '$1' (expected ${IMAGE_NAMES[*]})" ;;
  esac
}

cmd_build() { # what...
  local what
  # Every name is checked before anything is built.
  for what in "$@"; do
    [[ "$what" =~ ^(platform|kafka|mongo|kube-router|base|jre|all)$ ]] ||
      die "unknown image '$what' (expected platform, kafka, mongo, kube-router, base, jre or all)"
  done
  setup
  log "buildah storage: $STORAGE_ROOT (driver $DRIVER)"
  for what in "$@"; do
    case "$what" in
      base) build_base ;;
      platform)
        build_platform
        load_into_node "$(platform_ref)" "edu-platform:$TAG"
        ;;
      kafka)
        build_kafka
        load_into_node "$KAFKA_REF" "edu-kafka:$KAFKA_VERSION"
        ;;
      # Not imported into scripts/node.sh's node: only the kind manifests (k8s-tests/kind) run them.
      mongo) build_mongo ;;
      kube-router) build_kube_router ;;
      jre) build_jre ;;
      # The images of `make package` and the node suite, as before mongo and kube-router existed.
      all)
        build_platform
        build_kafka
        load_into_node "$(platform_ref)" "edu-platform:$TAG"
        load_into_node "$KAFKA_REF" "edu-kafka:$KAFKA_VERSION"
        ;;
    esac
  done
  log "disk: $(du -sh "$IMAGES_DIR" | cut -f1) in $IMAGES_DIR"
}

cmd_archive_path() { # name
  local archive
  image_ref_of "$1" >/dev/null
  archive="$(archive_of "$(image_ref_of "$1")")"
  printf '%s\n' "$archive"
  [[ -f "$archive" ]] || {
    log "$archive is not built yet (scripts/images.sh build $1)"
    return 1
  }
}

cmd_status() {
  setup
  local name ref archive state
  for name in "${IMAGE_NAMES[@]}"; do
    ref="$(image_ref_of "$name")"
    archive="$(archive_of "$ref")"
    state=missing
    if [[ -f "$archive" ]] && image_exists "$ref"; then state=built; fi
    printf '%-11s %-40s %-8s %s\n' "$name" "$ref" "$state" "$([[ -f "$archive" ]] && du -h "$archive" | cut -f1)"
  done
  printf 'storage     %s (%s) %s\n' "$STORAGE_ROOT" "$DRIVER" "$(du -sh "$STORAGE_ROOT" 2>/dev/null | cut -f1)"
}

main() {
  local sub="${1:-}" what=() arg
  [[ -n "$sub" ]] || {
    usage
    exit 2
  }
  shift
  while (($#)); do
    arg="$1"
    shift
    case "$arg" in
      --tag)
        TAG="${1:?--tag needs a value}"
        shift
        ;;
      --no-load) NO_LOAD=1 ;;
      -h | --help)
        usage
        exit 0
        ;;
      -*) die "unknown option $arg" ;;
      *) what+=("$arg") ;;
    esac
  done
  [[ "$TAG" =~ ^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$ ]] || die "invalid tag '$TAG'"
  ((${#what[@]})) || what=(all) # build and verify; archive-path insists on a name
  case "$sub" in
    build) cmd_build "${what[@]}" ;;
    verify) cmd_verify "${what[@]}" ;;
    archive-path)
      [[ ${#what[@]} == 1 && "${what[0]}" != all ]] || die "archive-path needs exactly one image name"
      cmd_archive_path "${what[0]}"
      ;;
    status) cmd_status ;;
    prune)
      setup
      bh rmi --prune >&2 || true
      log "disk: $(du -sh "$IMAGES_DIR" | cut -f1) in $IMAGES_DIR"
      ;;
    -h | --help | help) usage ;;
    *)
      usage
      exit 2
      ;;
  esac
}

main "$@"
