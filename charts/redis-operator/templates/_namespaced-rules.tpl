{{/* This operator needs nothing in its own namespace besides the Lease. */}}
{{- define "operator.namespacedRules" -}}
{{- end }}
