{{/*
Names, labels, image references, connection strings and the fixed security settings.
Templates call these and carry no logic beyond `if` and `range`; every decision lives here.
Helpers that work on one component take a dict: (dict "root" $ "component" "auth").
*/}}

{{/* Chart name, unless nameOverride. */}}
{{- define "edu-platform.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* `<release>-<chart>`, or the release name alone when it already contains the chart name. */}}
{{- define "edu-platform.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Name of one component's objects: `<fullname>-<component>`. */}}
{{- define "edu-platform.componentName" -}}
{{- printf "%s-%s" (include "edu-platform.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* In-cluster DNS name of one component's Service. */}}
{{- define "edu-platform.componentHost" -}}
{{- printf "%s.%s.svc.%s" (include "edu-platform.componentName" .) .root.Release.Namespace .root.Values.clusterDomain -}}
{{- end -}}

{{- define "edu-platform.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels that select one component's pods; never change them after a release exists. */}}
{{- define "edu-platform.selectorLabels" -}}
app.kubernetes.io/name: {{ include "edu-platform.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Labels that select every pod of the release (peers for network policies). */}}
{{- define "edu-platform.releaseSelectorLabels" -}}
app.kubernetes.io/name: {{ include "edu-platform.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* Labels of every object the chart renders. */}}
{{- define "edu-platform.labels" -}}
{{ include "edu-platform.selectorLabels" . }}
helm.sh/chart: {{ include "edu-platform.chart" .root }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: edu-platform
{{- if .root.Values.commonLabels }}
{{ toYaml .root.Values.commonLabels }}
{{- end }}
{{- end -}}

{{/* Labels of a platform pod: the object labels plus podLabels. */}}
{{- define "edu-platform.podLabels" -}}
{{ include "edu-platform.labels" . }}
{{- if .root.Values.podLabels }}
{{ toYaml .root.Values.podLabels }}
{{- end }}
{{- end -}}

{{/* `registry/repository:tag`, or `@digest` when a digest is given. Args: image, defaultTag. */}}
{{- define "edu-platform.imageRef" -}}
{{- $repository := .image.repository -}}
{{- if .image.registry -}}
{{- $repository = printf "%s/%s" .image.registry .image.repository -}}
{{- end -}}
{{- if .image.digest -}}
{{- printf "%s@%s" $repository .image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repository (default .defaultTag .image.tag) -}}
{{- end -}}
{{- end -}}

{{/* The platform image (services, workers, operator, helm test). */}}
{{- define "edu-platform.image" -}}
{{- include "edu-platform.imageRef" (dict "image" .Values.image "defaultTag" .Chart.AppVersion) -}}
{{- end -}}

{{- define "edu-platform.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "edu-platform.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "edu-platform.operator.serviceAccountName" -}}
{{- if .Values.operator.serviceAccount.create -}}
{{- default (include "edu-platform.componentName" (dict "root" . "component" "operator")) .Values.operator.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.operator.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/* The default DocxImportJob; the CRD caps names at 55 characters (`<name>-workers` names the Deployment). */}}
{{- define "edu-platform.docxImportJob.name" -}}
{{- include "edu-platform.componentName" (dict "root" . "component" "docx-parser") | trunc 55 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels of the DOCX worker pods; the operator adds its own selector labels to them. */}}
{{- define "edu-platform.worker.podLabels" -}}
{{ include "edu-platform.selectorLabels" (dict "root" . "component" "docx-parser-worker") }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/part-of: edu-platform
{{- if .Values.podLabels }}
{{ toYaml .Values.podLabels }}
{{- end }}
{{- end -}}

{{/* Lease the operator's replicas elect a leader with (the Role allows get/update on this name only). */}}
{{- define "edu-platform.operator.leaseName" -}}
{{- include "edu-platform.componentName" (dict "root" . "component" "operator") -}}
{{- end -}}

{{/* ---------------------------------------------------------------- secrets */}}

{{- define "edu-platform.secretName" -}}
{{- default (include "edu-platform.componentName" (dict "root" . "component" "secrets")) .Values.secrets.existingSecret -}}
{{- end -}}

{{/*
One base64 value of the chart's Secret: the given value, else the value already in the cluster
(so upgrades keep it), else a fresh random one. Args: root, key, value.
*/}}
{{- define "edu-platform.secretValue" -}}
{{- if .value -}}
{{- .value | b64enc -}}
{{- else -}}
{{- $existing := lookup "v1" "Secret" .root.Release.Namespace (include "edu-platform.secretName" .root) -}}
{{- $current := dig "data" .key "" $existing -}}
{{- if $current -}}
{{- $current -}}
{{- else -}}
{{- randAlphaNum 48 | b64enc -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "edu-platform.mongodb.secretName" -}}
{{- default (include "edu-platform.componentName" (dict "root" . "component" "mongodb-uris")) .Values.mongodb.existingSecret -}}
{{- end -}}

{{/* ---------------------------------------------------------------- MongoDB and Kafka */}}

{{/* The in-cluster replica set member's stable DNS name (the headless Service publishes it before it is ready). */}}
{{- define "edu-platform.mongodb.memberHost" -}}
{{- $name := include "edu-platform.componentName" (dict "root" . "component" "mongodb") -}}
{{- printf "%s-0.%s.%s.svc.%s:27017" $name $name .Release.Namespace .Values.clusterDomain -}}
{{- end -}}

{{/*
MONGODB_URI of one database. In-cluster: the replica set member. External: mongodb.uri with the
database inserted before the options (the schema forbids a database path in mongodb.uri).
Args: root, database.
*/}}
{{- define "edu-platform.mongodb.uri" -}}
{{- $values := .root.Values.mongodb -}}
{{- if $values.enabled -}}
{{- printf "mongodb://%s/%s?replicaSet=%s" (include "edu-platform.mongodb.memberHost" .root) .database $values.replicaSetName -}}
{{- else -}}
{{- $parts := splitn "?" 2 $values.uri -}}
{{- $base := trimSuffix "/" $parts._0 -}}
{{- if $parts._1 -}}
{{- printf "%s/%s?%s" $base .database $parts._1 -}}
{{- else -}}
{{- printf "%s/%s" $base .database -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* The in-cluster broker's own DNS name, which it advertises (published before the pod is ready). */}}
{{- define "edu-platform.kafka.podHost" -}}
{{- $name := include "edu-platform.componentName" (dict "root" . "component" "kafka") -}}
{{- printf "%s-0.%s-headless.%s.svc.%s:9092" $name $name .Release.Namespace .Values.clusterDomain -}}
{{- end -}}

{{/* KAFKA_BROKERS: the in-cluster broker, else kafka.brokers joined with commas (may be empty). */}}
{{- define "edu-platform.kafka.brokers" -}}
{{- if .Values.kafka.enabled -}}
{{- printf "%s:9092" (include "edu-platform.componentHost" (dict "root" . "component" "kafka")) -}}
{{- else -}}
{{- join "," .Values.kafka.brokers -}}
{{- end -}}
{{- end -}}

{{/* ---------------------------------------------------------------- environment */}}

{{/* `<PEER>_SERVICE_URL` for every enabled service, so a service finds its peers' HTTP contracts. */}}
{{- define "edu-platform.peerUrls" -}}
{{- range $name, $svc := .Values.services }}
{{- if $svc.enabled }}
{{ printf "%s_SERVICE_URL" ($name | upper | replace "-" "_") }}: {{ printf "http://%s:%d" (include "edu-platform.componentHost" (dict "root" $ "component" $name)) (int $svc.port) | quote }}
{{- end }}
{{- end }}
{{- end -}}

{{/* Non-secret environment shared by services, workers and the operator. Args: root, logLevel, env. */}}
{{- define "edu-platform.commonConfig" -}}
NODE_ENV: "production"
LOG_LEVEL: {{ default .root.Values.logLevel .logLevel | quote }}
{{- if not .root.Values.mongodb.requireTransactions }}
MONGODB_REQUIRE_TRANSACTIONS: "false"
{{- end }}
{{- $brokers := include "edu-platform.kafka.brokers" .root }}
{{- if $brokers }}
KAFKA_BROKERS: {{ $brokers | quote }}
{{- end }}
{{- range $key, $value := .env }}
{{ $key }}: {{ $value | quote }}
{{- end }}
{{- end -}}

{{/* One service's ConfigMap data. Args: root, component, svc. */}}
{{- define "edu-platform.service.config" -}}
PORT: {{ .svc.port | quote }}
MONGODB_DB: {{ .svc.database | quote }}
SHUTDOWN_DELAY_MS: {{ mul .root.Values.shutdownDelaySeconds 1000 | quote }}
{{- include "edu-platform.peerUrls" .root }}
{{- if eq .component "auth" }}
{{- /* One hop: the gateway sends the one client address it vouches for (and /v1 needs the internal token). */}}
TRUST_PROXY: "1"
{{- end }}
{{- if eq .component "document-import" }}
{{- include "edu-platform.documentImport.config" .root }}
{{- include "edu-platform.documentImport.queueConfig" .root }}
UPLOAD_SPOOL_DIR: {{ include "edu-platform.uploadSpool.path" . | quote }}
UPLOAD_MAX_CONCURRENT: {{ .root.Values.uploads.maxConcurrent | quote }}
{{- end }}
{{- include "edu-platform.kafka.clientConfig" .root }}
{{- include "edu-platform.kafka.topicConfig" (dict "root" .root "prefix" true) }}
{{- /* Kafka is mandatory in the chart: every service's outbox relay publishes (a service's env may still say none). */}}
{{- if not (hasKey (.svc.env | default dict) "OUTBOX_PUBLISHER") }}
OUTBOX_PUBLISHER: "kafka"
{{- end }}
{{- include "edu-platform.mongodb.clientConfig" .root }}
{{ include "edu-platform.commonConfig" (dict "root" .root "logLevel" .svc.logLevel "env" .svc.env) }}
{{- end -}}

{{/* ---------------------------------------------------------------- upload spool */}}

{{/* Where document-import spools uploads while their request lasts. */}}
{{- define "edu-platform.uploadSpool.path" -}}
/var/spool/edu-upload
{{- end -}}

{{/* The spool's size in MiB: the upload limit times the uploads spooled at once, plus the margin. */}}
{{- define "edu-platform.uploadSpool.mebibytes" -}}
{{- $u := .Values.uploads -}}
{{- add (mul $u.maxFileMebibytes $u.maxConcurrent) $u.spoolMarginMebibytes -}}
{{- end -}}

{{/* The MiB of /tmp (tmpVolume.sizeLimit), for the ephemeral-storage sums; the schema keeps it in Mi or Gi. */}}
{{- define "edu-platform.tmpVolume.mebibytes" -}}
{{- $size := .Values.tmpVolume.sizeLimit -}}
{{- if hasSuffix "Gi" $size -}}
{{- mul (trimSuffix "Gi" $size | int) 1024 -}}
{{- else -}}
{{- trimSuffix "Mi" $size | int -}}
{{- end -}}
{{- end -}}

{{/*
A service's resources. document-import's always carry ephemeral-storage: the request is what its
two emptyDirs may fill (spool + /tmp), the limit that plus uploads.ephemeralMarginMebibytes (logs,
the writable layer); values the user sets win. Args: root, component, svc.
*/}}
{{- define "edu-platform.service.resources" -}}
{{- $resources := deepCopy .svc.resources -}}
{{- if eq .component "document-import" -}}
{{- $disk := add (include "edu-platform.uploadSpool.mebibytes" .root | int) (include "edu-platform.tmpVolume.mebibytes" .root | int) -}}
{{- $requests := merge (dict "ephemeral-storage" (printf "%dMi" $disk)) (default (dict) $resources.requests) -}}
{{- $limits := merge (dict "ephemeral-storage" (printf "%dMi" (add $disk .root.Values.uploads.ephemeralMarginMebibytes))) (default (dict) $resources.limits) -}}
{{- $_ := set $resources "requests" $requests -}}
{{- $_ := set $resources "limits" $limits -}}
{{- end -}}
{{- toYaml $resources -}}
{{- end -}}

{{/*
What the document-import service and its DOCX workers must agree on: the payload spool (GridFS in
the release's document-import database, as pods share no directory) and the peers outside the
platform (absent when not configured: the features needing them answer DEPENDENCY_UNAVAILABLE).
*/}}
{{- define "edu-platform.documentImport.config" -}}
{{- $questionBank := index .Values.services "question-bank" }}
DOCX_IMPORT_PAYLOAD_STORE: "gridfs"
{{- if $questionBank.enabled }}
QUESTION_BANK_URL: {{ printf "http://%s:%d" (include "edu-platform.componentHost" (dict "root" . "component" "question-bank")) (int $questionBank.port) | quote }}
{{- end }}
{{- if .Values.peers.documentServiceUrl }}
DOCUMENT_SERVICE_URL: {{ .Values.peers.documentServiceUrl | quote }}
{{- end }}
{{- if .Values.peers.examServiceUrl }}
EXAM_SERVICE_URL: {{ .Values.peers.examServiceUrl | quote }}
{{- end }}
{{- end -}}

{{/* The service's side of the work queue: where it enqueues, and what its `queue` object reports. */}}
{{- define "edu-platform.documentImport.queueConfig" -}}
{{- $job := .Values.docxImportJob }}
DOCX_IMPORT_TOPIC: {{ $job.queue.topic | quote }}
DOCX_IMPORT_CONSUMER_GROUP: {{ $job.queue.consumerGroup | quote }}
WORKER_CONCURRENCY: {{ $job.worker.concurrency | quote }}
{{- end -}}

{{/*
The DOCX workers' ConfigMap data: document-import's database, spool and peers, the Kafka and
MongoDB client settings (the files and credentials come through the operator's WORKER_SECRET_FILES
and WORKER_SECRET_ENV), and worker.extraEnv's literal values. The operator injects
DOCX_IMPORT_TOPIC, DOCX_IMPORT_CONSUMER_GROUP and WORKER_CONCURRENCY from the job's spec: physical
names. The workers still get the release's KAFKA_TOPIC_PREFIX: they relay document-import's outbox
(job events, re-enqueued work) into the release's topics, so their bus prefixes like every other
bus of the release, and the worker takes the prefix off the job's physical names once, at start.
*/}}
{{- define "edu-platform.worker.config" -}}
{{- $job := .Values.docxImportJob -}}
MONGODB_DB: {{ (index .Values.services "document-import").database | quote }}
{{- include "edu-platform.peerUrls" . }}
{{- include "edu-platform.documentImport.config" . }}
{{- include "edu-platform.kafka.clientConfig" . }}
{{- include "edu-platform.kafka.topicConfig" (dict "root" . "prefix" true) }}
{{- include "edu-platform.mongodb.clientConfig" . }}
{{- range $job.worker.extraEnv }}
{{- if hasKey . "value" }}
{{ .name }}: {{ .value | quote }}
{{- end }}
{{- end }}
{{ include "edu-platform.commonConfig" (dict "root" . "logLevel" $job.worker.logLevel "env" $job.worker.env) }}
{{- end -}}

{{/* The operator's ConfigMap data (OPERATOR_NAMESPACE and POD_NAME come from the downward API). */}}
{{- define "edu-platform.operator.config" -}}
PORT: {{ .Values.operator.port | quote }}
LEADER_ELECTION: "true"
LEASE_NAME: {{ include "edu-platform.operator.leaseName" . | quote }}
LEASE_DURATION_SECONDS: {{ .Values.operator.leaseDurationSeconds | quote }}
RESYNC_SECONDS: {{ .Values.operator.resyncSeconds | quote }}
{{- include "edu-platform.operator.workerPolicy" . }}
{{- include "edu-platform.kafka.clientConfig" . }}
{{ include "edu-platform.commonConfig" (dict "root" . "logLevel" .Values.operator.logLevel "env" .Values.operator.env) }}
{{- end -}}

{{/*
What a DOCX worker pod is, decided by the operator (operator/src/controller/worker-policy.ts),
never by a DocxImportJob: its ServiceAccount, image (the platform image's repository, plus
operator.workerPolicy.allowedImages), pull secrets, ConfigMap, credentials (the document-import
database and WORKER_API_TOKEN, not INTERNAL_API_TOKEN), labels, user, /tmp, and resource bounds.
*/}}
{{- define "edu-platform.operator.workerPolicy" -}}
{{- $policy := .Values.operator.workerPolicy }}
{{- $repository := .Values.image.repository }}
{{- if .Values.image.registry }}
{{- $repository = printf "%s/%s" .Values.image.registry .Values.image.repository }}
{{- end }}
{{- $labels := list }}
{{- range $k, $v := (include "edu-platform.worker.podLabels" . | fromYaml) }}
{{- $labels = append $labels (printf "%s=%s" $k $v) }}
{{- end }}
WORKER_SERVICE_ACCOUNT: {{ include "edu-platform.serviceAccountName" . | quote }}
WORKER_IMAGE: {{ include "edu-platform.image" . | quote }}
WORKER_ALLOWED_IMAGES: {{ prepend $policy.allowedImages $repository | uniq | join "," | quote }}
WORKER_IMAGE_PULL_SECRETS: {{ join "," .Values.imagePullSecrets | quote }}
WORKER_CONFIGMAP: {{ include "edu-platform.componentName" (dict "root" . "component" "docx-parser-worker") | quote }}
WORKER_SECRET_ENV: {{ include "edu-platform.worker.secretEnv" . | quote }}
{{- with include "edu-platform.worker.secretFiles" . }}
WORKER_SECRET_FILES: {{ . | quote }}
{{- end }}
WORKER_POD_LABELS: {{ $labels | sortAlpha | join "," | quote }}
WORKER_RUN_AS_USER: {{ .Values.podSecurityContext.runAsUser | quote }}
WORKER_RUN_AS_GROUP: {{ .Values.podSecurityContext.runAsGroup | quote }}
WORKER_FS_GROUP: {{ .Values.podSecurityContext.fsGroup | quote }}
WORKER_TMP_SIZE_LIMIT: {{ .Values.tmpVolume.sizeLimit | quote }}
WORKER_MAX_CPU: {{ $policy.maxResources.cpu | quote }}
WORKER_MAX_MEMORY: {{ $policy.maxResources.memory | quote }}
WORKER_MAX_EPHEMERAL_STORAGE: {{ index $policy.maxResources "ephemeral-storage" | quote }}
{{- end -}}

{{/*
WORKER_SECRET_ENV (`NAME=secret:key`, comma-separated): the document-import database's URI, the
worker token, the Kafka SASL and MongoDB credentials, and worker.extraEnv's secretKeyRef entries.
*/}}
{{- define "edu-platform.worker.secretEnv" -}}
{{- $entries := list (printf "MONGODB_URI=%s:document-import" (include "edu-platform.mongodb.secretName" .)) (printf "WORKER_API_TOKEN=%s:WORKER_API_TOKEN" (include "edu-platform.secretName" .)) -}}
{{- range (include "edu-platform.stores.secretRefs" (dict "root" . "stores" (list "kafka" "mongodb")) | fromJsonArray) -}}
{{- $entries = append $entries (printf "%s=%s:%s" .name .secret .key) -}}
{{- end -}}
{{- range $e := .Values.docxImportJob.worker.extraEnv -}}
{{- if hasKey $e "valueFrom" -}}
{{- $ref := dig "valueFrom" "secretKeyRef" dict $e -}}
{{- if not (and $ref.name $ref.key) -}}
{{- fail (printf "docxImportJob.worker.extraEnv %s: the workers take only `value` or `valueFrom.secretKeyRef` with name and key (the operator builds their pods)" $e.name) -}}
{{- end -}}
{{- $entries = append $entries (printf "%s=%s:%s" $e.name $ref.name $ref.key) -}}
{{- end -}}
{{- end -}}
{{- join "," $entries -}}
{{- end -}}

{{/* One variable from the chart's Secret (or secrets.existingSecret). Args: root, key. */}}
{{- define "edu-platform.secretKeyEnv" -}}
- name: {{ .key }}
  valueFrom:
    secretKeyRef:
      name: {{ include "edu-platform.secretName" .root }}
      key: {{ .key }}
{{- end -}}

{{/*
Secret environment of a service: its MONGODB_URI, INTERNAL_API_TOKEN and METRICS_TOKEN; auth also
AUTH_JWT_SECRET, the question bank also WORKER_API_TOKEN (accepted on the routes the DOCX workers
call, and nowhere else). Args: root, component.
*/}}
{{- define "edu-platform.secretEnv" -}}
- name: MONGODB_URI
  valueFrom:
    secretKeyRef:
      name: {{ include "edu-platform.mongodb.secretName" .root }}
      key: {{ .component }}
{{ include "edu-platform.secretKeyEnv" (dict "root" .root "key" "INTERNAL_API_TOKEN") }}
{{ include "edu-platform.secretKeyEnv" (dict "root" .root "key" "METRICS_TOKEN") }}
{{- if eq .component "auth" }}
{{ include "edu-platform.secretKeyEnv" (dict "root" .root "key" "AUTH_JWT_SECRET") }}
{{- end }}
{{- if eq .component "question-bank" }}
{{ include "edu-platform.secretKeyEnv" (dict "root" .root "key" "WORKER_API_TOKEN") }}
{{- end }}
{{- end -}}

{{/* ---------------------------------------------------------------- pods */}}

{{/* Pod annotations: podAnnotations plus checksums that roll the pods when their config changes. Args: root, config (rendered ConfigMap). */}}
{{- define "edu-platform.podAnnotations" -}}
checksum/config: {{ .config | sha256sum }}
checksum/secrets: {{ toJson .root.Values.secrets | sha256sum }}
{{- if .root.Values.podAnnotations }}
{{ toYaml .root.Values.podAnnotations }}
{{- end }}
{{- end -}}

{{/* Restricted pod security: non-root, RuntimeDefault seccomp. Args: a podSecurityContext value. */}}
{{- define "edu-platform.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .runAsUser }}
runAsGroup: {{ .runAsGroup }}
fsGroup: {{ .fsGroup }}
fsGroupChangePolicy: OnRootMismatch
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* Restricted container security: read-only root, no privilege escalation, no capabilities. */}}
{{- define "edu-platform.containerSecurityContext" -}}
runAsNonRoot: true
allowPrivilegeEscalation: false
readOnlyRootFilesystem: true
privileged: false
capabilities:
  drop:
    - ALL
seccompProfile:
  type: RuntimeDefault
{{- end -}}

{{/* imagePullSecrets, nodeSelector and tolerations of the platform's pods, as pod spec lines. Args: root, indent. */}}
{{- define "edu-platform.podScheduling" -}}
{{- $values := .root.Values -}}
{{- if $values.imagePullSecrets }}
{{- $secrets := list }}
{{- range $values.imagePullSecrets }}
{{- $secrets = append $secrets (dict "name" .) }}
{{- end }}
{{- dict "imagePullSecrets" $secrets | toYaml | nindent .indent }}
{{- end }}
{{- if $values.nodeSelector }}
{{- dict "nodeSelector" $values.nodeSelector | toYaml | nindent .indent }}
{{- end }}
{{- if $values.tolerations }}
{{- dict "tolerations" $values.tolerations | toYaml | nindent .indent }}
{{- end }}
{{- end -}}

{{/* Liveness on /healthz, readiness on /readyz, both on the container port named http. */}}
{{- define "edu-platform.probes" -}}
livenessProbe:
  httpGet:
    path: /healthz
    port: http
  {{- toYaml .Values.probes.liveness | nindent 2 }}
readinessProbe:
  httpGet:
    path: /readyz
    port: http
  {{- toYaml .Values.probes.readiness | nindent 2 }}
{{- end -}}

{{/* ---------------------------------------------------------------- network policies */}}

{{/* networkPolicy.extraIngress and networkPolicy.prometheus, as a JSON list of {namespaceLabels, podLabels}. */}}
{{- define "edu-platform.networkPolicy.extraSources" -}}
{{- $sources := .Values.networkPolicy.extraIngress | default list -}}
{{- $prom := .Values.networkPolicy.prometheus -}}
{{- if or $prom.namespaceLabels $prom.podLabels -}}
{{- $sources = append $sources $prom -}}
{{- end -}}
{{- toJson $sources -}}
{{- end -}}

{{/* networkPolicy.extraIngress and networkPolicy.prometheus as `from` entries (monitoring and other documented sources). */}}
{{- define "edu-platform.networkPolicy.extraFrom" -}}
{{- range (include "edu-platform.networkPolicy.extraSources" . | fromJsonArray) }}
- {{- if .namespaceLabels }}
  namespaceSelector:
    matchLabels:
      {{- toYaml .namespaceLabels | nindent 6 }}
  {{- end }}
  {{- if .podLabels }}
  podSelector:
    matchLabels:
      {{- toYaml .podLabels | nindent 6 }}
  {{- end }}
{{- end }}
{{- end -}}

{{/* A `from` entry for one component's pods of this release. Args: root, component. */}}
{{- define "edu-platform.networkPolicy.componentFrom" -}}
- podSelector:
    matchLabels:
      {{- include "edu-platform.selectorLabels" . | nindent 6 }}
{{- end -}}

{{/*
The components of this release that call a service, as a JSON list: the gateway (auth for its
revocation feed and the auth table; the owners of the tables switched on), document-import and
its DOCX workers (the question bank), the helm test (auth's /readyz). Args: root, component.
*/}}
{{- define "edu-platform.networkPolicy.callers" -}}
{{- $v := .root.Values -}}
{{- $callers := list -}}
{{- $owners := dict "auth" (list "auth") "analytics" (list "analytics") "notification" (list "notifications" "parentAlerts") "document-import" (list "documentImport") -}}
{{- if $v.gateway.enabled -}}
{{- if eq .component "auth" -}}
{{- $callers = append $callers "gateway" -}}
{{- else -}}
{{- range (get $owners .component | default list) -}}
{{- if index $v.gateway.tables . -}}
{{- $callers = append $callers "gateway" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- if and (eq .component "question-bank") (index $v.services "document-import").enabled -}}
{{- $callers = append $callers "document-import" -}}
{{- end -}}
{{- if and (eq .component "question-bank") $v.docxImportJob.enabled -}}
{{- $callers = append $callers "docx-parser-worker" -}}
{{- end -}}
{{- if and (eq .component "auth") $v.tests.enabled -}}
{{- $callers = append $callers "test" -}}
{{- end -}}
{{- $callers | uniq | toJson -}}
{{- end -}}

{{/*
The ingress rules of one service's port: any source with allowExternalIngress (development only),
else its callers and networkPolicy.extraIngress, else nothing (`ingress: []`, default deny; an
empty `from` would admit everyone). Args: root, component, port.
*/}}
{{- define "edu-platform.networkPolicy.serviceIngress" -}}
{{- $root := .root -}}
{{- $callers := include "edu-platform.networkPolicy.callers" . | fromJsonArray -}}
{{- if $root.Values.networkPolicy.allowExternalIngress }}
- ports:
    - port: {{ .port }}
      protocol: TCP
{{- else if or $callers (include "edu-platform.networkPolicy.extraSources" $root | fromJsonArray) }}
- ports:
    - port: {{ .port }}
      protocol: TCP
  from:
    {{- range $callers }}
    {{- include "edu-platform.networkPolicy.componentFrom" (dict "root" $root "component" .) | nindent 4 }}
    {{- end }}
    {{- include "edu-platform.networkPolicy.extraFrom" $root | nindent 4 }}
{{- else }}
[]
{{- end }}
{{- end -}}

{{/* Ports with an optional list of CIDRs (empty: any destination on those ports). Args: ports, cidrs. */}}
{{- define "edu-platform.networkPolicy.cidrRule" -}}
- ports:
  {{- range .ports }}
    - port: {{ . }}
      protocol: TCP
  {{- end }}
  {{- if .cidrs }}
  to:
    {{- range .cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
  {{- end }}
{{- end -}}

{{- define "edu-platform.networkPolicy.dnsEgress" -}}
- ports:
    - port: 53
      protocol: UDP
    - port: 53
      protocol: TCP
  to:
    - namespaceSelector:
        matchLabels:
          {{- toYaml .Values.networkPolicy.dns.namespaceLabels | nindent 10 }}
      podSelector:
        matchLabels:
          {{- toYaml .Values.networkPolicy.dns.podLabels | nindent 10 }}
    {{- range .Values.networkPolicy.dns.cidrs }}
    - ipBlock:
        cidr: {{ . }}
    {{- end }}
{{- end -}}

{{- define "edu-platform.networkPolicy.kafkaEgress" -}}
{{- if .Values.kafka.enabled }}
- ports:
    - port: 9092
      protocol: TCP
  to:
    - podSelector:
        matchLabels:
          {{- include "edu-platform.selectorLabels" (dict "root" . "component" "kafka") | nindent 10 }}
{{- else if .Values.kafka.brokers }}
{{ include "edu-platform.networkPolicy.cidrRule" .Values.networkPolicy.externalKafka }}
{{- end }}
{{- end -}}

{{/* Egress of the operator: DNS, the Kubernetes API, and Kafka (the queue depth is the consumer group's lag). */}}
{{- define "edu-platform.networkPolicy.operatorEgress" -}}
{{ include "edu-platform.networkPolicy.dnsEgress" . }}
{{ include "edu-platform.networkPolicy.cidrRule" .Values.networkPolicy.kubeApiServer }}
{{- include "edu-platform.networkPolicy.kafkaEgress" . }}
{{- end -}}

{{/* Ports of the configured peers outside the platform (the URL's port, else the scheme's). */}}
{{- define "edu-platform.peerPorts" -}}
{{- $ports := list }}
{{- range (list .Values.peers.documentServiceUrl .Values.peers.examServiceUrl) }}
{{- if . }}
{{- $url := urlParse . }}
{{- $hostPort := splitList ":" $url.host }}
{{- $port := ternary (last $hostPort) (ternary "443" "80" (eq $url.scheme "https")) (gt (len $hostPort) 1) }}
{{- $ports = append $ports (int $port) }}
{{- end }}
{{- end }}
{{- $ports | uniq | toJson }}
{{- end -}}

{{/* Egress of the document-import service and its workers to the peers outside the platform. */}}
{{- define "edu-platform.networkPolicy.peerEgress" -}}
{{- $ports := include "edu-platform.peerPorts" . | fromJsonArray }}
{{- if $ports }}
{{ include "edu-platform.networkPolicy.cidrRule" (dict "ports" $ports "cidrs" .Values.networkPolicy.externalPeers.cidrs) }}
{{- end }}
{{- end -}}

{{/* Egress of services and workers: DNS, MongoDB, Kafka and the enabled services' ports. */}}
{{- define "edu-platform.networkPolicy.serviceEgress" -}}
{{ include "edu-platform.networkPolicy.dnsEgress" . }}
{{- if .Values.mongodb.enabled }}
- ports:
    - port: 27017
      protocol: TCP
  to:
    - podSelector:
        matchLabels:
          {{- include "edu-platform.selectorLabels" (dict "root" . "component" "mongodb") | nindent 10 }}
{{- else }}
{{ include "edu-platform.networkPolicy.cidrRule" .Values.networkPolicy.externalMongodb }}
{{- end }}
{{- include "edu-platform.networkPolicy.kafkaEgress" . }}
{{- $ports := list }}
{{- range $name, $svc := .Values.services }}
{{- if $svc.enabled }}
{{- $ports = append $ports $svc.port }}
{{- end }}
{{- end }}
{{- if $ports }}
- ports:
  {{- range $ports }}
    - port: {{ . }}
      protocol: TCP
  {{- end }}
  to:
    - podSelector:
        matchLabels:
          {{- include "edu-platform.releaseSelectorLabels" . | nindent 10 }}
{{- end }}
{{- end -}}
