// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/pkg/api/wording"
)

// The CEL rules that are made from the list of provider APIs (ProvidersSpec.APIs) rather
// than written once per API; they are placed like the others, by On. A new provider section
// gets its rules without a new marker.

// ProviderAPIs are the sections of spec.providers, in the order of ProvidersSpec.APIs.
func ProviderAPIs() []APIName {
	apis := (&ProvidersSpec{}).APIs()
	names := make([]APIName, len(apis))
	for i, api := range apis {
		names[i] = api.Name
	}
	return names
}

// disabledWithProvidersMessage is the error of an API both disabled and given providers, the
// fields and the API it names as wording references (the CRD's message is its plain form).
func disabledWithProvidersMessage(api APIName) string {
	return fmt.Sprintf("the %[1]s API is disabled but has providers configured: remove %[2]s or remove '%[1]s' from %[3]s",
		wording.API(string(api)), wording.Field("spec.providers."+string(api)), wording.Field("spec.disabled"))
}

// duplicateProviderIDMessage is the error of a provider id used twice, after `provider id "<id>"`.
const duplicateProviderIDMessage = " is used by more than one provider: provider ids must be unique across all APIs, so give each provider its own id"

// overrideExclusive are the fields overrideConfig cannot be combined with: it replaces the
// whole config.yaml, which they would change.
var overrideExclusive = []struct {
	field string
	set   func(*LlamaStackDistributionSpec) bool
}{
	{"providers", func(s *LlamaStackDistributionSpec) bool { return s.Providers != nil }},
	{"resources", func(s *LlamaStackDistributionSpec) bool { return s.Resources != nil }},
	{"storage", func(s *LlamaStackDistributionSpec) bool { return s.Storage != nil }},
	{"disabled", func(s *LlamaStackDistributionSpec) bool { return s.Disabled != nil }},
	{"distribution.baseConfig", func(s *LlamaStackDistributionSpec) bool { return s.Distribution.BaseConfig != nil }},
	{"vectorStores", func(s *LlamaStackDistributionSpec) bool { return s.VectorStores != nil }},
	{"authentication", func(s *LlamaStackDistributionSpec) bool { return s.Authentication != nil }},
}

// overrideExclusiveMessage is the error of overrideConfig set with another field.
func overrideExclusiveMessage(other string) string {
	return fmt.Sprintf("overrideConfig and %[1]s are mutually exclusive: overrideConfig replaces the whole config.yaml, so remove %[1]s or remove overrideConfig", other)
}

// onSpec places a rule on the spec.
var onSpec = []string{"LlamaStackDistributionSpec"}

// overrideRules are the rules on spec that keep overrideConfig alone.
var overrideRules = sync.OnceValue(func() []rule[*LlamaStackDistributionSpec] {
	rules := make([]rule[*LlamaStackDistributionSpec], 0, len(overrideExclusive))
	for _, other := range overrideExclusive {
		rules = append(rules, rule[*LlamaStackDistributionSpec]{Rule: Rule{On: onSpec, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      fmt.Sprintf("!(has(self.overrideConfig) && has(self.%s))", other.field),
			FieldPath: ".overrideConfig",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   overrideExclusiveMessage(other.field),
		}}, holds: func(s *LlamaStackDistributionSpec) bool { return s.OverrideConfig == nil || !other.set(s) }})
	}
	return rules
})

// disabledRules are the rules on spec that give an API in spec.disabled no providers.
var disabledRules = sync.OnceValue(func() []rule[*LlamaStackDistributionSpec] {
	rules := make([]rule[*LlamaStackDistributionSpec], 0, len(ProviderAPIs()))
	for _, api := range ProviderAPIs() {
		referring := disabledWithProvidersMessage(api)
		rules = append(rules, rule[*LlamaStackDistributionSpec]{Rule: Rule{On: onSpec, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      fmt.Sprintf("!(has(self.providers) && has(self.providers.%[1]s) && has(self.disabled) && '%[1]s' in self.disabled)", api),
			FieldPath: ".providers." + string(api),
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   wording.Plain(referring),
		}}, referring: referring, holds: func(s *LlamaStackDistributionSpec) bool {
			return !slices.Contains(s.Disabled, api) ||
				!slices.ContainsFunc(s.Providers.APIs(), func(a APIProviders) bool { return a.Name == api && a.Providers != nil })
		}})
	}
	return rules
})

// providerListRule is the rule on each list of spec.providers: with more than one provider,
// each has an id.
var providerListRule = rule[[]ProviderSpec]{Rule: Rule{ValidationRule: apiextensionsv1.ValidationRule{
	Rule:    "self.size() <= 1 || self.all(p, has(p.id))",
	Reason:  ptr.To(apiextensionsv1.FieldValueRequired),
	Message: "each provider needs an id when more than one is listed: add id to every entry",
}}, holds: func(list []ProviderSpec) bool {
	return len(list) <= 1 || !slices.ContainsFunc(list, func(p ProviderSpec) bool { return p.ID == "" })
}}

// providersRule is the rule on spec.providers: provider ids (given, or derived from the
// provider's name as EffectiveID does) are unique across all APIs.
var providersRule = sync.OnceValue(func() rule[*ProvidersSpec] {
	// The id of provider p, as EffectiveID derives it.
	const id = `(has(p.id) ? p.id : p.provider.replace('remote::', "").replace('inline::', "").replace('::', '-').replace('_', '-'))`
	lists := make([]string, 0, len(ProviderAPIs()))
	for _, api := range ProviderAPIs() {
		lists = append(lists, fmt.Sprintf("(has(self.%[1]s) ? self.%[1]s.map(p, %[2]s) : [])", api, id))
	}
	ids := "(" + strings.Join(lists, " + ") + ")"
	return rule[*ProvidersSpec]{Rule: Rule{On: []string{"ProvidersSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule: fmt.Sprintf("%[1]s.all(x, %[1]s.exists_one(y, y == x))", ids),
		MessageExpression: fmt.Sprintf(`'provider id "' + %[1]s.filter(x, !%[1]s.exists_one(y, y == x))[0] + '"%[2]s'`,
			ids, duplicateProviderIDMessage),
	}}, holds: func(ps *ProvidersSpec) bool { return firstDuplicateID(ps) == "" },
		detail: func(ps *ProvidersSpec) string {
			return fmt.Sprintf("provider id %q", firstDuplicateID(ps)) + duplicateProviderIDMessage
		}}
})

// firstDuplicateID is the first provider id used twice across the APIs, or "".
func firstDuplicateID(ps *ProvidersSpec) string {
	var all []ProviderSpec
	for _, api := range ps.APIs() {
		all = append(all, api.Providers...)
	}
	return firstDuplicate(all, ProviderSpec.EffectiveID)
}
