#!/bin/bash
# The image's default command: a single-node KRaft broker (broker + controller in one JVM) from
# /opt/kafka/config/server.properties, configured by env. The Helm chart does not use it (it runs
# its own start.sh from a ConfigMap); this is for running the image by hand.
#   CLUSTER_ID                    KRaft cluster id (22 chars, base64url); default: a fixed dev id
#   KAFKA_ADVERTISED_LISTENERS    default PLAINTEXT://<first address of hostname -i>:9092
#   KAFKA_DATA_DIR                default /var/lib/kafka/data (a volume)
#   KAFKA_HEAP_OPTS               default -Xms512m -Xmx512m
# Writes only to KAFKA_DATA_DIR and /tmp, so the root filesystem may be read-only.
set -euo pipefail

data="${KAFKA_DATA_DIR:-/var/lib/kafka/data}"
cluster_id="${CLUSTER_ID:-Xho1KT35HCLYfhC5zSQMfA}"
advertised="${KAFKA_ADVERTISED_LISTENERS:-PLAINTEXT://$(hostname -i | cut -d' ' -f1):9092}"
props=/tmp/edu-kafka-server.properties

{
  grep -v -E '^(log\.dirs|advertised\.listeners)=' /opt/kafka/config/server.properties
  printf 'log.dirs=%s/kraft-combined-logs\nadvertised.listeners=%s\n' "$data" "$advertised"
} >"$props"
/opt/kafka/bin/kafka-storage.sh format --ignore-formatted --cluster-id "$cluster_id" --config "$props"
exec /opt/kafka/bin/kafka-server-start.sh "$props"
