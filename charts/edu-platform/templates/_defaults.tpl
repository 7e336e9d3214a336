{{/*
Defaults of the values added after chart 0.1.0, filled into .Values where a key is missing.
`helm upgrade --reuse-values` renders with the OLD chart's values.yaml under the release's values
(Helm replaces the new chart's defaults with the previous ones), so a key this version added is
simply absent there. Every template that reads such a key starts with
`include "edu-platform.fillDefaults" .` (idempotent). These defaults equal values.yaml's; the
chart tests compare an upgraded release's manifest with a fresh render to hold them equal.
*/}}

{{- define "edu-platform.defaults.component" -}}
extraEnv: []
extraEnvFrom: []
extraVolumes: []
extraVolumeMounts: []
sidecars: []
affinity: {}
topologySpreadConstraints: []
priorityClassName: ""
{{- end -}}

{{/* Args: maxReplicas. */}}
{{- define "edu-platform.defaults.autoscaling" -}}
autoscaling:
  enabled: false
  minReplicas: 2
  maxReplicas: {{ .maxReplicas }}
  targetCPUUtilizationPercentage: 70
{{- end -}}

{{- define "edu-platform.defaults.tlsSecrets" -}}
caSecret:
  name: ""
  key: ca.crt
clientCertSecret:
  name: ""
  certKey: tls.crt
  keyKey: tls.key
{{- end -}}

{{- define "edu-platform.defaults.root" -}}
global: {}
affinity: {}
topologySpreadConstraints: []
priorityClassName: ""
services:
  {{- range $name := list "auth" "user" "analytics" "notification" "question-bank" "attempt" "document-import" }}
  {{ $name }}:
    {{- include "edu-platform.defaults.component" . | nindent 4 }}
    {{- include "edu-platform.defaults.autoscaling" (dict "maxReplicas" (ternary 20 10 (eq $name "attempt"))) | nindent 4 }}
  {{- end }}
gateway:
  {{- include "edu-platform.defaults.component" . | nindent 2 }}
  {{- include "edu-platform.defaults.autoscaling" (dict "maxReplicas" 20) | nindent 2 }}
operator:
  {{- include "edu-platform.defaults.component" . | nindent 2 }}
docxImportJob:
  worker:
    extraEnv: []
    affinity: {}
    topologySpreadConstraints: []
    priorityClassName: ""
mongodb:
  tls:
    enabled: false
    {{- include "edu-platform.defaults.tlsSecrets" . | nindent 4 }}
  auth:
    existingSecret: ""
    usernameKey: username
    passwordKey: password
    authSource: ""
kafka:
  topicPrefix: ""
  tls:
    enabled: false
    {{- include "edu-platform.defaults.tlsSecrets" . | nindent 4 }}
  sasl:
    mechanism: ""
    username: ""
    usernameSecret: ""
    passwordSecret: ""
  existingSecret: ""
  secretKeys:
    username: username
    password: password
  topics:
    create: true
    replicationFactor: -1
    minInsyncReplicas: 0
    retentionMs: 0
    overrides: {}
networkPolicy:
  prometheus:
    namespaceLabels: {}
    podLabels: {}
metrics:
  serviceMonitor:
    enabled: false
    interval: 30s
    scrapeTimeout: 10s
    labels: {}
  prometheusRule:
    enabled: false
    labels: {}
    outboxPendingAgeSeconds: 300
    importQueuePendingJobs: 100
    importQueueOldestSeconds: 900
    importFailures: 5
    http5xxRatio: 0.05
  dashboard:
    enabled: false
    labels: {}
    annotations: {}
{{- end -}}

{{/* Copies every key of src missing (or null) in dst, recursing into maps both have. Args: dst, src. */}}
{{- define "edu-platform.fill" -}}
{{- $dst := .dst -}}
{{- range $k, $v := .src -}}
{{- $have := index $dst $k -}}
{{- if or (not (hasKey $dst $k)) (kindIs "invalid" $have) -}}
{{- $_ := set $dst $k (deepCopy $v) -}}
{{- else if and (kindIs "map" $v) (kindIs "map" $have) -}}
{{- include "edu-platform.fill" (dict "dst" $have "src" $v) -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Fills the defaults above into .Values (in place; renders nothing). Args: the root context. */}}
{{- define "edu-platform.fillDefaults" -}}
{{- include "edu-platform.fill" (dict "dst" .Values "src" (include "edu-platform.defaults.root" . | fromYaml)) -}}
{{- end -}}
