{{/*
Where a platform pod runs and what an operator adds to it: affinity, topology spread and priority
class (the component's own, else the global ones), and the component's extraEnv, extraEnvFrom,
extraVolumes, extraVolumeMounts and sidecars. Args: root, component, values (the component's).
*/}}

{{/* Pod spec lines: affinity, topologySpreadConstraints (an empty labelSelector selects the component's pods), priorityClassName. Args: root, component, values, indent. */}}
{{- define "edu-platform.podPlacement" -}}
{{- $root := .root -}}
{{- with (.values.affinity | default $root.Values.affinity) }}
{{- dict "affinity" . | toYaml | nindent $.indent }}
{{- end }}
{{- with (.values.topologySpreadConstraints | default $root.Values.topologySpreadConstraints) }}
{{- $constraints := list }}
{{- range . }}
{{- $c := deepCopy . }}
{{- if not $c.labelSelector }}
{{- $_ := set $c "labelSelector" (dict "matchLabels" (include "edu-platform.selectorLabels" (dict "root" $root "component" $.component) | fromYaml)) }}
{{- end }}
{{- $constraints = append $constraints $c }}
{{- end }}
{{- dict "topologySpreadConstraints" $constraints | toYaml | nindent $.indent }}
{{- end }}
{{- with (.values.priorityClassName | default $root.Values.priorityClassName) }}
{{- printf "priorityClassName: %s" . | nindent $.indent }}
{{- end }}
{{- end -}}

{{/* A list value as YAML list items at indent, or nothing. Args: list, indent. */}}
{{- define "edu-platform.listItems" -}}
{{- with .list }}
{{- toYaml . | nindent $.indent }}
{{- end }}
{{- end -}}

{{/* The container's env: chart secrets, store credentials, then extraEnv. Args: root, component, values, secretEnv (rendered), stores (list). */}}
{{- define "edu-platform.containerEnv" -}}
{{- .secretEnv }}
{{- include "edu-platform.stores.secretEnv" (dict "root" .root "stores" .stores) }}
{{- with .values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Volume mounts: /tmp, the TLS files, extraVolumeMounts (the caller adds its own). Args: root, values, stores (list). */}}
{{- define "edu-platform.containerMounts" -}}
- name: tmp
  mountPath: /tmp
{{- include "edu-platform.stores.volumeMounts" (dict "root" .root "stores" .stores) }}
{{- with .values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Volumes: /tmp, the TLS files, extraVolumes. Args: root, values, stores (list). */}}
{{- define "edu-platform.podVolumes" -}}
- name: tmp
  emptyDir:
    sizeLimit: {{ .root.Values.tmpVolume.sizeLimit }}
{{- include "edu-platform.stores.volumes" (dict "root" .root "stores" .stores) }}
{{- with .values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end -}}
