// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/kserve"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// KServe objects among the inputs: InferenceServices, LLMInferenceServices, ServingRuntimes
// and Gateways, decoded, by namespace/name.
type KServe struct {
	InferenceServices    map[string]map[string]any
	LLMInferenceServices map[string]map[string]any
	ServingRuntimes      map[string]map[string]any
	Gateways             map[string]map[string]any
}

func (k KServe) runtime(namespace, name string) map[string]any {
	return k.ServingRuntimes[namespace+"/"+name]
}

func (k KServe) gateway(namespace, name string) map[string]any {
	return k.Gateways[namespace+"/"+name]
}

// models are the objects of a reference's kind.
func (k KServe) models(ref *v1alpha2.InferenceServiceRef) map[string]map[string]any {
	if ref.Kind == v1alpha2.KindLLMInferenceService {
		return k.LLMInferenceServices
	}
	return k.InferenceServices
}

// kindOf is the kind a reference names.
func kindOf(ref *v1alpha2.InferenceServiceRef) string {
	return cmp.Or(ref.Kind, v1alpha2.KindInferenceService)
}

// servedByKServe fills in, on a copy of obj, what each vllm provider that names an
// InferenceService or LLMInferenceService needs: its endpoint, the token and CA of a
// token-protected model, and the model it serves when no model of the spec names the
// provider; the user's object is left as written (it is what the render gives back). Also the
// access the render must grant. openShiftAI says the render is for OpenShift AI, whose
// controllers serve the models.
func servedByKServe(obj *v1alpha2.LlamaStackDistribution, k KServe, openShiftAI bool) (*v1alpha2.LlamaStackDistribution, render.ModelAccess, []config.Warning, field.ErrorList) {
	var access render.ModelAccess
	if obj.Spec.Providers == nil || !slices.ContainsFunc(obj.Spec.Providers.Inference, func(p v1alpha2.ProviderSpec) bool { return p.InferenceService != nil }) {
		return obj, access, nil, nil
	}
	out := obj.DeepCopy()
	var warnings []config.Warning
	var errs field.ErrorList
	for i := range out.Spec.Providers.Inference {
		p := &out.Spec.Providers.Inference[i]
		if p.InferenceService == nil {
			continue
		}
		path := field.NewPath("spec", "providers", "inference").Index(i)
		predictor, w, err := derivePredictor(obj, p.InferenceService, k, openShiftAI, path.Child("inferenceService"))
		warnings = append(warnings, w...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		p.Endpoint = predictor.BaseURL
		if predictor.Knative && obj.Spec.Networking != nil && obj.Spec.Networking.Egress != nil {
			warnings = append(warnings, config.Warning{Field: "spec.networking.egress", Message: fmt.Sprintf("InferenceService %s runs on Knative, "+
				"whose requests go through its local gateway (knative-local-gateway, in istio-system with Istio or knative-serving with "+
				"Kourier), a namespace the NetworkPolicy does not admit: add the gateway's pod network to networking.egress.cidrs", p.InferenceService.Name)})
		}
		if predictor.TokenProtected && p.APIKey == nil && obj.Namespace == "" && p.InferenceService.Namespace != "" {
			// A RoleBinding's ServiceAccount subject without a namespace is one of the binding's
			// namespace: another account would get the model's rights, and this one none.
			errs = append(errs, field.Required(field.NewPath("metadata", "namespace"), fmt.Sprintf("%s %s/%s is called with a "+
				"token of this server's service account, which a RoleBinding in %s grants, naming the account with its namespace; "+
				"the LlamaStackDistribution names none: write metadata.namespace (or let kustomize's namespace: or Argo CD's "+
				"destination set it before llsd renders)", kindOf(p.InferenceService), p.InferenceService.Namespace, p.InferenceService.Name,
				p.InferenceService.Namespace)))
			continue
		}
		if predictor.TokenProtected && p.APIKey == nil {
			p.APIKey = &v1alpha2.SecretKeySource{SecretKeyRef: v1alpha2.SecretKeyRef{Name: api.NamesOf(obj.Name).ModelToken(), Key: "token"}}
			access.Grant(cmp.Or(p.InferenceService.Namespace, obj.Namespace), predictor.Resource, p.InferenceService.Name)
		}
		if predictor.ServiceCA {
			access.ServiceCA = true
			p.Settings = withDefault(*p, "tls_verify", config.ServiceCAFile)
		}
		errs = append(errs, servedModels(out, p, predictor, path)...)
	}
	return out, access, warnings, errs
}

// derivePredictor reads the InferenceService or LLMInferenceService a provider names: from
// the inputs, or, when it is in a namespace the spec names and not among them, by KServe's
// defaults with a warning.
func derivePredictor(obj *v1alpha2.LlamaStackDistribution, ref *v1alpha2.InferenceServiceRef, k KServe, openShiftAI bool,
	path *field.Path) (kserve.Predictor, []config.Warning, *field.Error) {
	namespace, kind, models := cmp.Or(ref.Namespace, obj.Namespace), kindOf(ref), k.models(ref)
	model, found := models[namespace+"/"+ref.Name]
	if !found && (ref.Namespace == "" || ref.Namespace == obj.Namespace) {
		return kserve.Predictor{}, nil, field.Invalid(path.Child("name"), ref.Name, fmt.Sprintf("no %s %s among the inputs (%s); "+
			"add it to the package, or name its namespace to reach one outside it", kind, ref.Name, present(models, kind, namespace)))
	}
	if !found {
		model = map[string]any{"metadata": map[string]any{"name": ref.Name, "namespace": namespace}}
	}
	var predictor kserve.Predictor
	var err error
	if ref.Kind == v1alpha2.KindLLMInferenceService {
		predictor, err = kserve.DeriveLLM(model, kserve.Cluster{OpenShiftAI: openShiftAI, Gateways: k.gateway})
	} else {
		predictor, err = kserve.Derive(model, k.runtime)
	}
	if err != nil {
		return predictor, nil, field.Invalid(path, ref.Name, kind+" "+ref.Name+": "+err.Error())
	}
	var warnings []config.Warning
	if !found {
		warnings = append(warnings, config.Warning{Field: path.String(), Message: fmt.Sprintf("%s %s/%s is not among the inputs, "+
			"so llsd could not check it: it calls %s for model %s, as KServe's defaults give them (%s)",
			kind, namespace, ref.Name, predictor.BaseURL, predictor.ModelName, defaultsOf(ref, predictor))})
	} else if len(predictor.Assumed) > 0 {
		warnings = append(warnings, config.Warning{Field: path.String(), Message: fmt.Sprintf("%s %s: llsd assumed %s",
			kind, ref.Name, strings.Join(predictor.Assumed, "; "))})
	}
	return predictor, warnings, nil
}

// defaultsOf says which defaults a model outside the inputs was taken with.
func defaultsOf(ref *v1alpha2.InferenceServiceRef, p kserve.Predictor) string {
	switch {
	case ref.Kind != v1alpha2.KindLLMInferenceService:
		return "no token, OpenShift AI's vLLM runtime"
	case p.ServiceCA:
		return "no route, its workload Service with OpenShift AI's TLS"
	}
	return "no route, its workload Service"
}

// present names the models of a kind among the inputs in a namespace.
func present(models map[string]map[string]any, kind, namespace string) string {
	var names []string
	for _, key := range slices.Sorted(maps.Keys(models)) {
		if ns, name, _ := strings.Cut(key, "/"); ns == namespace {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return "there is no " + kind + " in namespace " + namespace
	}
	return "there are " + strings.Join(names, ", ")
}

// servedModels registers the served model when no model of the spec names the provider,
// and refuses a model of the provider that the InferenceService does not serve.
func servedModels(obj *v1alpha2.LlamaStackDistribution, p *v1alpha2.ProviderSpec, predictor kserve.Predictor, path *field.Path) field.ErrorList {
	if obj.Spec.Resources == nil {
		obj.Spec.Resources = &v1alpha2.ResourcesSpec{}
	}
	var errs field.ErrorList
	mine := 0
	only := len(obj.Spec.Providers.Inference) == 1
	for i := range obj.Spec.Resources.Models {
		m := &obj.Spec.Resources.Models[i]
		if m.Provider != p.EffectiveID() && (m.Provider != "" || !only) {
			continue
		}
		mine++
		if served := cmp.Or(m.ProviderModelID, m.Name); !predictor.Serves(served) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "resources", "models").Index(i), served, fmt.Sprintf(
				"%s %s (%s) serves %s, not %s: set providerModelId: %s, or serve this model", kindOf(p.InferenceService), p.InferenceService.Name,
				wording.Field(path.Child("inferenceService").String()), predictor.ModelName, served, predictor.ModelName)))
		}
		if m.ContextLength == nil && predictor.ContextLength > 0 {
			m.ContextLength = &predictor.ContextLength
		}
	}
	if mine == 0 && !predictor.Embedding { // an embedding model needs its dimension, which only the user knows
		m := v1alpha2.ModelSpec{Name: predictor.ModelName, Provider: p.EffectiveID()}
		if predictor.ContextLength > 0 {
			m.ContextLength = &predictor.ContextLength
		}
		obj.Spec.Resources.Models = append(obj.Spec.Resources.Models, m)
	}
	return errs
}

// withDefault is the provider's settings with key set, unless they set it.
func withDefault(p v1alpha2.ProviderSpec, key string, value any) *apiextensionsv1.JSON {
	m := p.SettingsMap()
	if _, ok := m[key]; !ok {
		m[key] = value
	}
	raw, _ := json.Marshal(m) // a map of JSON values always marshals
	return &apiextensionsv1.JSON{Raw: raw}
}
