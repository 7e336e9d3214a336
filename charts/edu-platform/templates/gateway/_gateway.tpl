{{/* The gateway's ConfigMap data: its switches, each table's service URL, the limits. Args: root. */}}
{{- define "edu-platform.gateway.config" -}}
{{- $gw := .Values.gateway }}
{{- $owners := dict "auth" "auth" "analytics" "analytics" "notifications" "notification" "parentAlerts" "notification" "documentImport" "document-import" }}
{{- $envNames := dict "auth" "AUTH" "analytics" "ANALYTICS" "notifications" "NOTIFICATIONS" "parentAlerts" "PARENT_ALERTS" "documentImport" "DOCUMENT_IMPORT" }}
PORT: {{ $gw.port | quote }}
SHUTDOWN_DELAY_MS: {{ mul .Values.shutdownDelaySeconds 1000 | quote }}
GATEWAY_TRUST_PROXY: {{ $gw.trustProxy | quote }}
GATEWAY_RATE_LIMIT_RPS: {{ $gw.rateLimit.perSecond | quote }}
GATEWAY_RATE_LIMIT_BURST: {{ $gw.rateLimit.burst | quote }}
GATEWAY_MAX_CONCURRENT_PER_CLIENT: {{ $gw.perClient.maxConcurrent | quote }}
GATEWAY_MAX_STREAMS_PER_CLIENT: {{ $gw.perClient.maxStreams | quote }}
GATEWAY_QUEUE_TIMEOUT_MS: {{ $gw.queueTimeoutMs | quote }}
{{- /* The revocation feed is auth's (GATEWAY_AUTH_URL below): without auth there is nothing to poll. */}}
GATEWAY_REVOCATION_POLL_MS: {{ ternary $gw.revocationPollMs 0 .Values.services.auth.enabled | quote }}
{{- if $gw.allowedOrigins }}
GATEWAY_ALLOWED_ORIGINS: {{ join "," $gw.allowedOrigins | quote }}
{{- end }}
{{- if $gw.legacyUrl }}
GATEWAY_LEGACY_URL: {{ $gw.legacyUrl | quote }}
{{- end }}
{{- range $table := keys $owners | sortAlpha }}
{{- $on := index $gw.tables $table }}
{{- $owner := index $owners $table }}
{{- $svc := index $.Values.services $owner }}
{{- if and $on (not $svc.enabled) }}
{{- fail (printf "gateway.tables.%s needs services.%s.enabled" $table $owner) }}
{{- end }}
GATEWAY_TABLE_{{ index $envNames $table }}: {{ ternary "on" "off" $on | quote }}
{{- if $svc.enabled }}
GATEWAY_{{ index $envNames $table }}_URL: {{ printf "http://%s:%d" (include "edu-platform.componentHost" (dict "root" $ "component" $owner)) (int $svc.port) | quote }}
{{- end }}
{{- end }}
NODE_ENV: "production"
LOG_LEVEL: {{ default .Values.logLevel $gw.logLevel | quote }}
{{- range $key, $value := $gw.env }}
{{ $key }}: {{ $value | quote }}
{{- end }}
{{- end -}}
