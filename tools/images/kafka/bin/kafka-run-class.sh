#!/bin/bash
# The image carries Kafka's jars from Maven Central (the cache of scripts/infra.sh), not the release
# tarball, so these are small stand-ins for the release's bin/ scripts, honouring the variables the
# chart and operators set: KAFKA_HEAP_OPTS, KAFKA_JVM_PERFORMANCE_OPTS, KAFKA_LOG4J_OPTS,
# KAFKA_OPTS, LOG_DIR.
#   kafka-run-class.sh <main class> [args...]
set -euo pipefail

base_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOG_DIR="${LOG_DIR:-/tmp/kafka-logs}"
mkdir -p "$LOG_DIR"
# A tool run with `kubectl exec` must not take the broker's heap.
heap="${KAFKA_HEAP_OPTS:--Xmx256m}"
# C1 only and the serial collector: the fastest start on small nodes (scripts/infra.sh measured
# ~2.5 s vs ~4.2 s with G1 + C2 on 2 cores); a larger broker sets KAFKA_JVM_PERFORMANCE_OPTS.
perf="${KAFKA_JVM_PERFORMANCE_OPTS:--XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true}"
log4j="${KAFKA_LOG4J_OPTS:--Dlog4j.configuration=file:$base_dir/config/tools-log4j.properties}"

# The option strings are lists of JVM flags: split them on whitespace, as Kafka's own script does.
read -r -a jvm_opts <<<"$heap $perf $log4j ${KAFKA_OPTS:-}"
exec java "${jvm_opts[@]}" -Dkafka.logs.dir="$LOG_DIR" -cp "$base_dir/libs/*" "$@"
