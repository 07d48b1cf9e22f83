// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// The CEL rules that are made from the list of provider APIs (ProvidersSpec.APIs) rather
// than written once per API: hack/crdpatch writes them into the CRD, and the Go checks
// (Validate) give the same messages. A new provider section gets its rules without a new marker.

// ProviderAPIs are the sections of spec.providers, in the order of ProvidersSpec.APIs.
func ProviderAPIs() []APIName {
	apis := (&ProvidersSpec{}).APIs()
	names := make([]APIName, len(apis))
	for i, api := range apis {
		names[i] = api.Name
	}
	return names
}

// disabledWithProvidersMessage is the error of an API both disabled and given providers.
func disabledWithProvidersMessage(api APIName) string {
	return fmt.Sprintf("the %[1]s API is disabled but has providers configured: remove spec.providers.%[1]s or remove '%[1]s' from spec.disabled", api)
}

// duplicateProviderIDMessage is the error of a provider id used twice, after `provider id "<id>"`.
const duplicateProviderIDMessage = " is used by more than one provider: provider ids must be unique across all APIs, so give each provider its own id"

// overrideExclusive are the fields overrideConfig cannot be combined with: it replaces the
// whole config.yaml, which they would change.
var overrideExclusive = []string{"providers", "resources", "storage", "disabled", "distribution.baseConfig", "vectorStores"}

// overrideExclusiveMessage is the error of overrideConfig set with another field.
func overrideExclusiveMessage(other string) string {
	return fmt.Sprintf("overrideConfig and %[1]s are mutually exclusive: overrideConfig replaces the whole config.yaml, so remove %[1]s or remove overrideConfig", other)
}

// SpecRules are the rules on spec: overrideConfig stands alone, and an API in spec.disabled
// has no providers.
func SpecRules() []apiextensionsv1.ValidationRule {
	rules := make([]apiextensionsv1.ValidationRule, 0, len(overrideExclusive)+len(ProviderAPIs()))
	for _, other := range overrideExclusive {
		rules = append(rules, apiextensionsv1.ValidationRule{
			Rule:      fmt.Sprintf("!(has(self.overrideConfig) && has(self.%s))", other),
			FieldPath: ".overrideConfig",
			Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
			Message:   overrideExclusiveMessage(other),
		})
	}
	for _, api := range ProviderAPIs() {
		rules = append(rules, apiextensionsv1.ValidationRule{
			Rule:      fmt.Sprintf("!(has(self.providers) && has(self.providers.%[1]s) && has(self.disabled) && '%[1]s' in self.disabled)", api),
			FieldPath: ".providers." + string(api),
			Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
			Message:   disabledWithProvidersMessage(api),
		})
	}
	return rules
}

// ProviderListRules are the rules on each list of spec.providers: with more than one provider,
// each has an id.
func ProviderListRules() []apiextensionsv1.ValidationRule {
	return []apiextensionsv1.ValidationRule{{
		Rule:    "self.size() <= 1 || self.all(p, has(p.id))",
		Reason:  ptrTo(apiextensionsv1.FieldValueRequired),
		Message: ProviderIDsRequiredMessage,
	}}
}

// ProviderIDsRequiredMessage is the error of a list of several providers without ids.
const ProviderIDsRequiredMessage = "each provider needs an id when more than one is listed: add id to every entry"

// ProvidersRules are the rules on spec.providers: provider ids (given, or derived from the
// provider's name as EffectiveID does) are unique across all APIs.
func ProvidersRules() []apiextensionsv1.ValidationRule {
	// The id of provider p, as EffectiveID derives it.
	const id = `(has(p.id) ? p.id : p.provider.replace('remote::', "").replace('inline::', "").replace('::', '-').replace('_', '-'))`
	lists := make([]string, 0, len(ProviderAPIs()))
	for _, api := range ProviderAPIs() {
		lists = append(lists, fmt.Sprintf("(has(self.%[1]s) ? self.%[1]s.map(p, %[2]s) : [])", api, id))
	}
	ids := "(" + strings.Join(lists, " + ") + ")"
	return []apiextensionsv1.ValidationRule{{
		Rule: fmt.Sprintf("%[1]s.all(x, %[1]s.exists_one(y, y == x))", ids),
		MessageExpression: fmt.Sprintf(`'provider id "' + %[1]s.filter(x, !%[1]s.exists_one(y, y == x))[0] + '"%[2]s'`,
			ids, duplicateProviderIDMessage),
	}}
}

func ptrTo[T any](v T) *T { return &v }
