{{/*
MongoDB and Kafka as the pods see them: the render-time check that both are configured, their TLS
files (Secrets mounted read-only under /etc/edu-platform/), SASL and MongoDB credentials (always
`secretKeyRef`, never a ConfigMap), and the topic settings. Names follow the kit's variables
(services/kit/src/core/kafka-config.ts, mongo-tls.ts).
*/}}

{{- define "edu-platform.kafka.dir" -}}/etc/edu-platform/kafka{{- end -}}
{{- define "edu-platform.mongodb.dir" -}}/etc/edu-platform/mongodb{{- end -}}

{{/* Fails the render, in one message, when MongoDB or Kafka is not configured or half configured. */}}
{{- define "edu-platform.stores.check" -}}
{{- $m := .Values.mongodb -}}
{{- $k := .Values.kafka -}}
{{- $missing := list -}}
{{- if not (or $m.enabled $m.uri $m.existingSecret) -}}
{{- $missing = append $missing "MongoDB: set mongodb.uri (or mongodb.existingSecret with each service's URI), or mongodb.enabled=true for the in-cluster development server" -}}
{{- end -}}
{{- if not (or $k.enabled $k.brokers) -}}
{{- $missing = append $missing "Kafka, which is mandatory (every service's events, the DOCX import queue and the operator's scaling run on it): set kafka.brokers, or kafka.enabled=true for the in-cluster development broker" -}}
{{- end -}}
{{- if $missing -}}
{{- fail (printf "edu-platform has no default database or broker host; configure %s (worked examples: charts/edu-platform/examples/)" (join "; and " $missing)) -}}
{{- end -}}
{{- if and $k.sasl.mechanism (not (include "edu-platform.kafka.passwordSecret" .)) -}}
{{- fail "kafka.sasl.mechanism needs the password from a Secret: set kafka.existingSecret (or kafka.sasl.passwordSecret)" -}}
{{- end -}}
{{- if and $k.sasl.mechanism (not (or $k.sasl.username $k.sasl.usernameSecret $k.existingSecret)) -}}
{{- fail "kafka.sasl.mechanism needs a user name: set kafka.sasl.username, or kafka.existingSecret (or kafka.sasl.usernameSecret) holding it" -}}
{{- end -}}
{{- range $store, $tls := dict "kafka" $k.tls "mongodb" $m.tls -}}
{{- if and (or $tls.caSecret.name $tls.clientCertSecret.name) (not $tls.enabled) -}}
{{- fail (printf "%s.tls.caSecret / clientCertSecret are set but %s.tls.enabled is false: set %s.tls.enabled=true" $store $store $store) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "edu-platform.kafka.passwordSecret" -}}
{{- default .Values.kafka.existingSecret .Values.kafka.sasl.passwordSecret -}}
{{- end -}}

{{/* Non-secret Kafka client settings: TLS files and the SASL mechanism (services, operator, workers). */}}
{{- define "edu-platform.kafka.clientConfig" -}}
{{- $k := .Values.kafka -}}
{{- $dir := include "edu-platform.kafka.dir" . -}}
{{- if $k.tls.enabled }}
KAFKA_SSL: "true"
{{- if $k.tls.caSecret.name }}
KAFKA_SSL_CA_FILE: {{ printf "%s/ca.crt" $dir | quote }}
{{- end }}
{{- if $k.tls.clientCertSecret.name }}
KAFKA_SSL_CERT_FILE: {{ printf "%s/client.crt" $dir | quote }}
KAFKA_SSL_KEY_FILE: {{ printf "%s/client.key" $dir | quote }}
{{- end }}
{{- end }}
{{- if $k.sasl.mechanism }}
KAFKA_SASL_MECHANISM: {{ $k.sasl.mechanism | quote }}
{{- if $k.sasl.username }}
KAFKA_SASL_USERNAME: {{ $k.sasl.username | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Topic creation settings (services and workers). Args: root, prefix (bool: include KAFKA_TOPIC_PREFIX). */}}
{{- define "edu-platform.kafka.topicConfig" -}}
{{- $t := .root.Values.kafka.topics -}}
{{- if .prefix }}
KAFKA_TOPIC_PREFIX: {{ .root.Values.kafka.topicPrefix | quote }}
{{- end }}
KAFKA_TOPIC_CREATION: {{ ternary "create" "verify" $t.create | quote }}
KAFKA_TOPIC_REPLICATION_FACTOR: {{ $t.replicationFactor | int64 | quote }}
{{- if $t.minInsyncReplicas }}
KAFKA_TOPIC_MIN_INSYNC_REPLICAS: {{ $t.minInsyncReplicas | int64 | quote }}
{{- end }}
{{- if $t.retentionMs }}
KAFKA_TOPIC_RETENTION_MS: {{ $t.retentionMs | int64 | quote }}
{{- end }}
{{- if $t.overrides }}
KAFKA_TOPICS_JSON: {{ toJson $t.overrides | quote }}
{{- end }}
{{- end -}}

{{/* Non-secret MongoDB client settings (services and workers). */}}
{{- define "edu-platform.mongodb.clientConfig" -}}
{{- $m := .Values.mongodb -}}
{{- $dir := include "edu-platform.mongodb.dir" . -}}
{{- if $m.tls.enabled }}
MONGODB_TLS: "true"
{{- if $m.tls.caSecret.name }}
MONGODB_TLS_CA_FILE: {{ printf "%s/ca.crt" $dir | quote }}
{{- end }}
{{- if $m.tls.clientCertSecret.name }}
MONGODB_TLS_CERT_FILE: {{ printf "%s/client.crt" $dir | quote }}
MONGODB_TLS_KEY_FILE: {{ printf "%s/client.key" $dir | quote }}
{{- end }}
{{- end }}
{{- if and $m.auth.existingSecret $m.auth.authSource }}
MONGODB_AUTH_SOURCE: {{ $m.auth.authSource | quote }}
{{- end }}
{{- end -}}

{{/*
Credentials read from Secrets, as a JSON list of {name, secret, key}: the SASL user name (unless
literal) and password, and with "mongodb" in stores the MongoDB user name and password. The pods get them
as secretKeyRef variables, the workers through WORKER_SECRET_ENV. Args: root, stores (list of "kafka", "mongodb": what the pod talks to).
*/}}
{{- define "edu-platform.stores.secretRefs" -}}
{{- $k := .root.Values.kafka -}}
{{- $m := .root.Values.mongodb -}}
{{- $refs := list -}}
{{- if and (has "kafka" .stores) $k.sasl.mechanism -}}
{{- if not $k.sasl.username -}}
{{- $refs = append $refs (dict "name" "KAFKA_SASL_USERNAME" "secret" (default $k.existingSecret $k.sasl.usernameSecret) "key" $k.secretKeys.username) -}}
{{- end -}}
{{- $refs = append $refs (dict "name" "KAFKA_SASL_PASSWORD" "secret" (include "edu-platform.kafka.passwordSecret" .root) "key" $k.secretKeys.password) -}}
{{- end -}}
{{- if and (has "mongodb" .stores) $m.auth.existingSecret -}}
{{- $refs = append $refs (dict "name" "MONGODB_USERNAME" "secret" $m.auth.existingSecret "key" $m.auth.usernameKey) -}}
{{- $refs = append $refs (dict "name" "MONGODB_PASSWORD" "secret" $m.auth.existingSecret "key" $m.auth.passwordKey) -}}
{{- end -}}
{{- toJson $refs -}}
{{- end -}}

{{/* The credentials above as container env entries. Args: root, stores (list of "kafka", "mongodb": what the pod talks to). */}}
{{- define "edu-platform.stores.secretEnv" -}}
{{- range (include "edu-platform.stores.secretRefs" . | fromJsonArray) }}
- name: {{ .name }}
  valueFrom:
    secretKeyRef:
      name: {{ .secret }}
      key: {{ .key }}
{{- end }}
{{- end -}}

{{/*
The TLS files to mount, as a JSON list of {store, secret, key, path}: the Kafka CA and client
certificate, and MongoDB's, for the stores given. Args: root, stores (list of "kafka", "mongodb": what the pod talks to).
*/}}
{{- define "edu-platform.stores.files" -}}
{{- $files := list -}}
{{- range $store := .stores -}}
{{- $tls := (index $.root.Values $store).tls -}}
{{- $dir := include (printf "edu-platform.%s.dir" $store) $.root -}}
{{- if $tls.enabled -}}
{{- with $tls.caSecret.name -}}
{{- $files = append $files (dict "store" $store "secret" . "key" $tls.caSecret.key "path" (printf "%s/ca.crt" $dir)) -}}
{{- end -}}
{{- with $tls.clientCertSecret.name -}}
{{- $files = append $files (dict "store" $store "secret" . "key" $tls.clientCertSecret.certKey "path" (printf "%s/client.crt" $dir)) -}}
{{- $files = append $files (dict "store" $store "secret" . "key" $tls.clientCertSecret.keyKey "path" (printf "%s/client.key" $dir)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- toJson $files -}}
{{- end -}}

{{/* Read-only mounts of the TLS volumes (one per store with files). Args: root, stores (list of "kafka", "mongodb": what the pod talks to). */}}
{{- define "edu-platform.stores.volumeMounts" -}}
{{- $files := include "edu-platform.stores.files" . | fromJsonArray -}}
{{- range $store := list "kafka" "mongodb" }}
{{- if include "edu-platform.stores.has" (dict "files" $files "store" $store) }}
- name: {{ $store }}-tls
  mountPath: {{ include (printf "edu-platform.%s.dir" $store) $.root }}
  readOnly: true
{{- end }}
{{- end }}
{{- end -}}

{{/* "true" when files has an entry of store, else "". Args: files, store. */}}
{{- define "edu-platform.stores.has" -}}
{{- range .files }}{{ if eq .store $.store }}true{{ end }}{{ end -}}
{{- end -}}

{{/* Projected Secret volumes holding the TLS files, group-readable (fsGroup). Args: root, stores (list of "kafka", "mongodb": what the pod talks to). */}}
{{- define "edu-platform.stores.volumes" -}}
{{- $files := include "edu-platform.stores.files" . | fromJsonArray -}}
{{- range $store := list "kafka" "mongodb" }}
{{- if include "edu-platform.stores.has" (dict "files" $files "store" $store) }}
- name: {{ $store }}-tls
  projected:
    defaultMode: 0440
    sources:
      {{- range $files }}
      {{- if eq .store $store }}
      - secret:
          name: {{ .secret }}
          items:
            - key: {{ .key }}
              path: {{ base .path }}
      {{- end }}
      {{- end }}
{{- end }}
{{- end }}
{{- end -}}

{{/* WORKER_SECRET_FILES for the operator: `secret:key:/absolute/path`, comma-separated. */}}
{{- define "edu-platform.worker.secretFiles" -}}
{{- $entries := list -}}
{{- range (include "edu-platform.stores.files" (dict "root" . "stores" (list "kafka" "mongodb")) | fromJsonArray) -}}
{{- $entries = append $entries (printf "%s:%s:%s" .secret .key .path) -}}
{{- end -}}
{{- join "," $entries -}}
{{- end -}}

{{/*
The physical names of the work queue in the DocxImportJob (kafka.topicPrefix applied) and its
partition count as configured (kafka.topics.overrides, else the catalogue's 6 for
docx-import.jobs.v1; 0 when unknown).
*/}}
{{- define "edu-platform.queue.topic" -}}
{{- printf "%s%s" .Values.kafka.topicPrefix .Values.docxImportJob.queue.topic -}}
{{- end -}}
{{- define "edu-platform.queue.consumerGroup" -}}
{{- printf "%s%s" .Values.kafka.topicPrefix .Values.docxImportJob.queue.consumerGroup -}}
{{- end -}}
{{- define "edu-platform.queue.partitions" -}}
{{- $topic := .Values.docxImportJob.queue.topic -}}
{{- $override := dig "partitions" 0 (index .Values.kafka.topics.overrides $topic | default dict) | int -}}
{{- if $override -}}{{ $override }}{{- else if eq $topic "docx-import.jobs.v1" -}}6{{- else -}}0{{- end -}}
{{- end -}}

{{/* mongodb.uri for display: any user:password in it replaced by `***`. */}}
{{- define "edu-platform.mongodb.displayUri" -}}
{{- regexReplaceAll "://[^@/]*@" .Values.mongodb.uri "://***@" -}}
{{- end -}}
