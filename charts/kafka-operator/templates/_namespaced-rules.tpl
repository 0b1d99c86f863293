{{/*
The Kafka operator's rules in its own namespace, besides the Lease: the KafkaTopics' claims ledger, one ConfigMap of
creates in flight (UIDs and topic names, never a secret; ADR 0007). Created once (create cannot be limited to a
name), then read and replaced by name only.
*/}}
{{- define "operator.namespacedRules" -}}
- apiGroups: [""]
  resources: ["configmaps"]
  verbs: ["create"]
- apiGroups: [""]
  resources: ["configmaps"]
  resourceNames: ["kafka-operator-create-claims"]
  verbs: ["get", "update"]
{{- end }}
