#!/bin/bash
# kafka-server-start.sh <server.properties> [--override key=value ...]   (see kafka-run-class.sh)
set -euo pipefail

base_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
[[ $# -ge 1 ]] || {
  echo "usage: kafka-server-start.sh server.properties [--override property=value]*" >&2
  exit 2
}
export KAFKA_HEAP_OPTS="${KAFKA_HEAP_OPTS:--Xms512m -Xmx512m}"
export KAFKA_LOG4J_OPTS="${KAFKA_LOG4J_OPTS:--Dlog4j.configuration=file:$base_dir/config/log4j.properties}"
exec "$base_dir/bin/kafka-run-class.sh" kafka.Kafka "$@"
