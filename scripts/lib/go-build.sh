# shellcheck shell=bash
# The backgrounded go command with progress lines and the Kubernetes version stamp, shared by
# scripts/cluster.sh, scripts/node.sh and scripts/kind.sh. Sourced: it only defines functions. The caller defines log and die (their
# prefix is the caller's).

# go build -v names each package it compiles (cache hits are silent), so counting lines gives a
# progress signal for a build that is otherwise quiet for minutes: a line every 30 s.
run_go() { # what log go-args...
  local what=$1 logf=$2 start=$SECONDS
  shift 2
  log "building $what ..."
  go "$@" 2>>"$logf" &
  local pid=$! last=$SECONDS
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    if ((SECONDS - last >= 30)); then
      last=$SECONDS
      log "  $what: $(grep -vc '^go: downloading' "$logf" || true) packages compiled so far, $((SECONDS - start))s"
    fi
  done
  if ! wait "$pid"; then
    tail -n 40 "$logf" >&2
    die "go build of $what failed (full log: $logf)"
  fi
  log "  $what done in $((SECONDS - start))s"
}

# The -ldflags of a Kubernetes binary built from the module in MODDIR: stripped, and stamped as
# hack/lib/version.sh stamps a release. Without these, /version says v0.0.0-master+$Format:%H$,
# which breaks semver checks in clients (helm kubeVersion, client-node) and makes kubeadm pick the
# wrong images. gitCommit stays empty: the proxy's .info for these tags does not carry the commit.
# The buildDate is the tag's time from the proxy: reproducible, not "now". Needs K8S_VERSION.
k8s_version_ldflags() { # moddir
  local minor=${K8S_VERSION#v1.} date x="" pkg
  minor=${minor%%.*}
  date=$(cd "$1" && go list -m -json k8s.io/kubernetes | sed -n 's/.*"Time": "\(.*\)".*/\1/p')
  date=${date:-1970-01-01T00:00:00Z}
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    x+=" -X $pkg.gitVersion=$K8S_VERSION -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
    x+=" -X $pkg.gitTreeState=clean -X $pkg.gitCommit= -X $pkg.buildDate=$date"
  done
  echo "-s -w$x"
}

# Starts a cached build whose output goes to a directory beside PREFIX: takes PREFIX.lock on fd 8
# (two test runs on one machine build once; the second waits), then fails (returns 1, the lock let
# go) when CHECK says the output is already there. Else it removes what earlier builds killed by
# SIGKILL left (they never ran their trap; safe under the lock) and sets BUILD_TMP to a new
# PREFIX.build.XXXXXX, removed when the script exits unless finish_build moves it into place.
begin_build() { # prefix check-command
  exec 8>"$1.lock"
  flock -n 8 || {
    log "waiting for another build of $(basename "$1") to finish"
    flock 8
  }
  if "$2"; then
    exec 8>&-
    return 1
  fi
  rm -rf "$1.build."*
  BUILD_TMP=$(mktemp -d "$1.build.XXXXXX")
  # shellcheck disable=SC2064 # the path is meant to expand now
  trap "rm -rf '$BUILD_TMP'" EXIT
}

# Ends begin_build: STAMP's output as TMP/.complete, TMP in DIR's place, the lock let go.
finish_build() { # tmp dir stamp-command
  "$3" >"$1/.complete"
  rm -rf "$2"
  mv "$1" "$2"
  trap - EXIT
  exec 8>&-
}

run_go_build() { # what log go-build-args...
  local what=$1 logf=$2
  shift 2
  run_go "$what" "$logf" build -v "$@"
}
