// SPDX-License-Identifier: Apache-2.0

package profile

import "slices"

// PlatformProvider is a provider a platform's images install outside the server's own
// registry and load through the config's module: key (OpenShift AI's TrustyAI providers),
// with the config keys of the package release those images pin.
type PlatformProvider struct {
	API, Type string
	// Package is the Python distribution and release the keys were read from.
	Package string
	Fields  []Field
	// Source is where the keys were read: repository, tag and the config class.
	Source string
}

// platformProviders are the TrustyAI providers of OpenShift AI's rh-dev configs (3.4 pins
// lmeval 0.5.0, fms 0.4.0, ragas 0.6.1, garak 0.3.1; the keys of ragas are those of its 0.5.1
// release, the newest read, whose top-level keys 0.6.1's config uses unchanged).
var platformProviders = []PlatformProvider{
	{API: "eval", Type: "remote::trustyai_lmeval", Package: "llama_stack_provider_lmeval 0.5.0",
		Source: "github.com/trustyai-explainability/llama-stack-provider-lmeval@v0.5.0 src/llama_stack_provider_lmeval/config.py LMEvalEvalProviderConfig",
		Fields: names("use_k8s", "base_url", "namespace", "kubeconfig_path", "service_account", "default_tokenizer", "metadata", "tls")},
	{API: "safety", Type: "remote::trustyai_fms", Package: "llama_stack_provider_trustyai_fms 0.4.0",
		Source: "github.com/trustyai-explainability/llama-stack-provider-trustyai-fms@0.4.0 llama_stack_provider_trustyai_fms/config.py FMSSafetyProviderConfig",
		Fields: append(names("shields", "orchestrator_url", "verify_ssl", "ssl_cert_path"), Field{Name: "auth_token", Secret: true})},
	{API: "eval", Type: "inline::trustyai_ragas", Package: "llama_stack_provider_ragas 0.5.1",
		Source: "github.com/trustyai-explainability/llama-stack-provider-ragas@0.5.1 src/llama_stack_provider_ragas/config.py RagasProviderInlineConfig",
		Fields: []Field{{Name: "embedding_model", Required: true}, {Name: "ragas_config"}}},
	{API: "eval", Type: "remote::trustyai_ragas", Package: "llama_stack_provider_ragas 0.5.1",
		Source: "github.com/trustyai-explainability/llama-stack-provider-ragas@0.5.1 src/llama_stack_provider_ragas/config.py RagasProviderRemoteConfig",
		Fields: []Field{{Name: "embedding_model", Required: true}, {Name: "ragas_config"}, {Name: "kubeflow_config", Required: true}}},
	{API: "eval", Type: "inline::trustyai_garak", Package: "llama_stack_provider_trustyai_garak 0.3.1",
		Source: "github.com/trustyai-explainability/llama-stack-provider-trustyai-garak@v0.3.1 src/llama_stack_provider_trustyai_garak/config.py GarakInlineConfig",
		Fields: names("llama_stack_url", "garak_model_type_openai", "garak_model_type_function", "timeout", "max_workers", "tls_verify", "max_concurrent_jobs")},
	{API: "eval", Type: "remote::trustyai_garak", Package: "llama_stack_provider_trustyai_garak 0.3.1",
		Source: "github.com/trustyai-explainability/llama-stack-provider-trustyai-garak@v0.3.1 src/llama_stack_provider_trustyai_garak/config.py GarakRemoteConfig",
		Fields: append(names("llama_stack_url", "garak_model_type_openai", "garak_model_type_function", "timeout", "max_workers", "tls_verify"),
			Field{Name: "kubeflow_config", Required: true})},
}

func names(keys ...string) []Field {
	fields := make([]Field, len(keys))
	for i, k := range keys {
		fields[i] = Field{Name: k}
	}
	return fields
}

// Platform finds a platform provider by API and type.
func Platform(api, providerType string) (PlatformProvider, bool) {
	for _, p := range platformProviders {
		if p.API == api && p.Type == providerType {
			return p, true
		}
	}
	return PlatformProvider{}, false
}

// TalksToKubernetes reports whether a provider of this type creates Kubernetes objects through
// the pod's service account token: TrustyAI's LMEval provider with use_k8s (its default) creates
// LMEvalJobs (trustyai.opendatahub.io/v1alpha1 lmevaljobs) in the pod's namespace
// (llama-stack-provider-lmeval df79ac0 src/llama_stack_provider_lmeval/lmeval.py:820-941).
func TalksToKubernetes(providerType string) bool {
	return slices.Contains(KubernetesProviderTypes, providerType)
}

// KubernetesProviderTypes are the provider types TalksToKubernetes names: a config that does
// not mention one needs no closer look.
var KubernetesProviderTypes = []string{"remote::trustyai_lmeval"}
