{{/*
Names and labels shared by every template of this chart. The same file is used by all three operator charts.
*/}}

{{/* The chart's name, overridable with nameOverride. */}}
{{- define "operator.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/*
The fully qualified name of this release's objects: the release name, followed by the chart name unless the release
name already contains it. Cluster-scoped objects (ClusterRole, ClusterRoleBinding) carry it, so two releases in
different namespaces need different release names.
*/}}
{{- define "operator.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* chart-version, for the helm.sh/chart label. */}}
{{- define "operator.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* Labels that select this release's operator pods; never change them on upgrade (selectors are immutable). */}}
{{- define "operator.selectorLabels" -}}
app.kubernetes.io/name: {{ include "operator.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* Labels on every object of the release. */}}
{{- define "operator.labels" -}}
helm.sh/chart: {{ include "operator.chart" . }}
{{ include "operator.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/component: operator
app.kubernetes.io/part-of: domain-operators
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end }}

{{/* The ServiceAccount the operator runs as. */}}
{{- define "operator.serviceAccountName" -}}
{{- if .Values.serviceAccount.create }}
{{- default (include "operator.fullname" .) .Values.serviceAccount.name }}
{{- else }}
{{- default "default" .Values.serviceAccount.name }}
{{- end }}
{{- end }}

{{/* The operator image, `repository:tag`, the tag defaulting to the chart's appVersion. */}}
{{- define "operator.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{/* Whether leader election is on: exactly when more than one replica runs. */}}
{{- define "operator.leaderElection" -}}
{{- if gt (int .Values.replicaCount) 1 }}true{{- end }}
{{- end }}
