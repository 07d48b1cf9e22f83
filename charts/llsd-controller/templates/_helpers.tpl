{{/* The controller's image: by digest when values.image.digest is set, else by tag. */}}
{{- define "llsd-controller.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{/* The pod's scheduling and pulling: each key only when its value is set. */}}
{{- define "llsd-controller.scheduling" -}}
{{- with .Values.imagePullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .Values.priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- end -}}

{{/* The pod networks the NetworkPolicy tells apart from the API server: no default can know them. */}}
{{- define "llsd-controller.podNetworks" -}}
{{- if not .Values.podNetworks -}}
{{- fail "podNetworks: the NetworkPolicy (networkPolicy.enabled) needs the cluster's pod networks, to admit the API server and the kubelets from outside them: --set 'podNetworks={10.128.0.0/14}' with yours (kubectl cluster-info dump | grep -m1 cluster-cidr, or your CNI's configuration), or --set networkPolicy.enabled=false" -}}
{{- end -}}
{{- toJson .Values.podNetworks -}}
{{- end -}}

{{/* The values' extra labels; app.kubernetes.io/name is the selector's, which cannot change. */}}
{{- define "llsd-controller.labels" -}}
{{- if hasKey .Values.labels "app.kubernetes.io/name" -}}
{{- fail "labels: app.kubernetes.io/name is the label the chart's selectors and the stacks' NetworkPolicies match the controller by: leave it out" -}}
{{- end -}}
{{- with .Values.labels }}{{ toYaml . }}{{ end -}}
{{- end -}}
