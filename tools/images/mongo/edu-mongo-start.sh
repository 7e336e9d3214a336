#!/bin/bash
# The image's default command: mongo-java-server through tools/mongo-java-server/MongoLauncher.java
# with its in-memory backend (every start is empty, like scripts/infra.sh's test profile), on all
# interfaces so that a Service reaches it. Configured by env:
#   MONGO_PORT   default 27017
#   MONGO_OPLOG  1: keep an oplog, which change streams (watch()) need; costs a write per write
#   JAVA_OPTS    appended to the JVM flags below (e.g. -Xmx1g)
# Writes no file: the root filesystem may be read-only.
set -euo pipefail

args=(0.0.0.0 "${MONGO_PORT:-27017}")
[[ "${MONGO_OPLOG:-0}" == 1 ]] && args+=(--oplog)
read -r -a extra <<<"${JAVA_OPTS:-}"
# The flags of scripts/infra.sh (C1 only and the serial collector: the fastest start on small
# nodes), except the heap: a share of the container's memory limit, not a fixed 512m that a small
# limit would kill. -XX:-UsePerfData: no /tmp/hsperfdata file, so /tmp may be read-only too.
exec java -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -XX:-UsePerfData \
  -XX:InitialRAMPercentage=5 -XX:MaxRAMPercentage=70 -Djava.awt.headless=true \
  -Dorg.slf4j.simpleLogger.showDateTime=true \
  -Dorg.slf4j.simpleLogger.log.de.bwaldvogel.mongo.wire.MongoWireProtocolHandler=warn \
  "${extra[@]}" -cp "${MJS_HOME:-/opt/mongo-java-server}/libs/*:${MJS_HOME:-/opt/mongo-java-server}/classes" \
  MongoLauncher "${args[@]}"
