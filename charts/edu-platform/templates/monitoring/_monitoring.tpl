{{/* The components serving /metrics on their http port: the enabled services, the gateway, the operator (JSON list). */}}
{{- define "edu-platform.metrics.components" -}}
{{- $names := list -}}
{{- range $name, $svc := .Values.services -}}
{{- if $svc.enabled }}{{ $names = append $names $name }}{{ end -}}
{{- end -}}
{{- if .Values.gateway.enabled }}{{ $names = append $names "gateway" }}{{ end -}}
{{- if .Values.operator.enabled }}{{ $names = append $names "operator" }}{{ end -}}
{{- toJson $names -}}
{{- end -}}

{{/* PromQL label matchers selecting this release's targets: its namespace and its Services (`<fullname>-...`). */}}
{{- define "edu-platform.metrics.selector" -}}
{{- printf "namespace=\"%s\", service=~\"%s-.+\"" .Release.Namespace (include "edu-platform.fullname" .) -}}
{{- end -}}
