// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api"
)

// The server pod keeps no token for the API server unless something needs it: a server has no
// business with the cluster's API, and a token it never uses is one an attacker in the pod
// could. Three things keep it:
//
//	workload.pod.automountServiceAccountToken: true   # the user's say, either way
//	workload.overrides.serviceAccountName: runner      # an account of the user's: its token
//	providers.eval: [{provider_type: remote::trustyai_lmeval, config: {use_k8s: true}}]
//	                                                   # LMEval creates LMEvalJobs with it
//
// The last comes with a warning that names the RBAC the provider needs: the operator grants
// none, and neither does llsd.

// serviceAccountToken says whether the pod mounts its service account's token, and why.
type serviceAccountToken struct {
	keep bool
	// provider is the id of the provider that talks to the API server, when one does.
	provider string
}

func tokenOf(in Input) serviceAccountToken {
	if w := in.Object.Spec.Workload; w != nil && w.Pod != nil && w.Pod.AutomountServiceAccountToken != nil {
		return serviceAccountToken{keep: *w.Pod.AutomountServiceAccountToken}
	}
	if id := kubernetesProvider(in); id != "" {
		return serviceAccountToken{keep: true, provider: id}
	}
	if o := overrides(in.Object); o != nil && o.ServiceAccountName != "" {
		return serviceAccountToken{keep: true}
	}
	return serviceAccountToken{}
}

// kubernetesProvider is the id of an enabled provider of the server's config that creates
// Kubernetes objects through the pod's token (LMEval with use_k8s, its default), or "". The
// config is the generated one, or the user's when its ConfigMap is among the inputs.
func kubernetesProvider(in Input) string {
	data := in.Config.Config
	if in.UserConfig != "" {
		data = []byte(in.ConfigMaps[in.Object.Namespace+"/"+in.UserConfig][in.configKey()])
	}
	if !slices.ContainsFunc(profile.KubernetesProviderTypes, func(t string) bool { return bytes.Contains(data, []byte(t)) }) {
		return "" // reading the whole config back would cost more than the rest of the render
	}
	cfg, err := configyaml.UnmarshalMap(data)
	if err != nil {
		return ""
	}
	env := overrideEnv(in)
	providers, _ := cfg["providers"].(map[string]any)
	for _, list := range providers {
		items, _ := list.([]any)
		for _, item := range items {
			p, _ := item.(map[string]any)
			typ, _ := p["provider_type"].(string)
			id, enabled := providerID(p["provider_id"], env)
			settings, _ := p["config"].(map[string]any)
			if enabled && profile.TalksToKubernetes(typ) && useK8s(settings["use_k8s"], env) {
				return id
			}
		}
	}
	return ""
}

// overrideEnv is the value of each literal variable of spec.workload.overrides.env; a variable
// from a Secret or ConfigMap is set, to a value llsd does not know ("?").
func overrideEnv(in Input) map[string]string {
	env := map[string]string{}
	if o := overrides(in.Object); o != nil {
		for _, e := range o.Env {
			env[e.Name] = e.Value
			if e.ValueFrom != nil {
				env[e.Name] = "?"
			}
		}
	}
	return env
}

// providerID reads a provider_id, with its ${env.X:+id} condition: enabled when X is set.
func providerID(v any, env map[string]string) (string, bool) {
	id, _ := v.(string)
	if name, rest, ok := strings.Cut(strings.TrimPrefix(id, "${env."), ":+"); ok && strings.HasPrefix(id, "${env.") {
		return strings.TrimSuffix(rest, "}"), env[name] != ""
	}
	return id, id != ""
}

// useK8s reads LMEval's use_k8s, a boolean or ${env.X:=default}: on unless it says false.
func useK8s(v any, env map[string]string) bool {
	switch t := v.(type) {
	case bool:
		return t
	case string:
		value := t
		if name, def, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(t, "${env."), "}"), ":="); ok && strings.HasPrefix(t, "${env.") {
			value = def
			if set, ok := env[name]; ok {
				value = set
			}
		}
		return !strings.EqualFold(value, "false")
	}
	return v == nil // the provider's default is use_k8s: true
}

// tokenWarnings name the RBAC a provider that talks to the API server needs.
func tokenWarnings(in Input, t serviceAccountToken) []config.Warning {
	if t.provider == "" {
		return nil
	}
	account := api.NamesOf(in.Object.Name).ServiceAccount()
	if o := overrides(in.Object); o != nil && o.ServiceAccountName != "" {
		account = o.ServiceAccountName
	}
	ns := in.Object.Namespace
	if ns == "" {
		ns = "the server's namespace"
	}
	return []config.Warning{{Field: field.NewPath("spec", "workload", "pod", "automountServiceAccountToken").String(), Message: fmt.Sprintf(
		"provider %s (TrustyAI LMEval, use_k8s) creates LMEvalJobs through the pod's service account token, so the pod keeps it: grant the "+
			"service account %s a Role in %s on trustyai.opendatahub.io lmevaljobs (create, get, list, watch, delete) and bind it (neither the "+
			"operator nor llsd grants any), or set use_k8s: false (TRUSTYAI_LMEVAL_USE_K8S=false) and automountServiceAccountToken: false",
		t.provider, account, ns)}}
}
