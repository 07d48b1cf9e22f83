// SPDX-License-Identifier: Apache-2.0

package v1beta1

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// DisabledAPINames are the values spec.disabledAPIs takes.
var DisabledAPINames = []string{"batches", "conversations", "file_processors", "files", "inference", "responses", "tool_runtime", "vector_io"}

var specPath = field.NewPath("spec")

// Validate applies the rules the successor's CRD (its CEL rules) and its validating webhook
// apply to an OGXServer, every problem at once: distribution name xor image; overrideConfig
// alone; the legacy and the named storage forms not mixed; external access with a hostname and
// TLS; an API not both given providers and disabled; provider ids unique; models naming
// providers that exist.
func Validate(o *OGXServer) field.ErrorList {
	s := &o.Spec
	errs := validateDistribution(s.Distribution)
	errs = append(errs, validateOverrideConfig(s)...)
	errs = append(errs, validateStorage(s.Storage)...)
	errs = append(errs, validateNetwork(s.Network)...)
	errs = append(errs, validateDisabled(s)...)
	errs = append(errs, validateProviders(s)...)
	errs = append(errs, validateWorkload(s.Workload)...)
	return errs
}

func validateDistribution(d DistributionSpec) field.ErrorList {
	path := specPath.Child("distribution")
	switch {
	case d.Name != "" && d.Image != "":
		return field.ErrorList{field.Invalid(path, d.Image, "only one of name or image can be specified: keep the one you mean")}
	case d.Name == "" && d.Image == "":
		return field.ErrorList{field.Required(path, "one of name or image must be specified (name: starter, or image: <registry>/<image>:<tag>)")}
	}
	return nil
}

func validateOverrideConfig(s *OGXServerSpec) field.ErrorList {
	if s.OverrideConfig == nil {
		return nil
	}
	var errs field.ErrorList
	for _, other := range []struct {
		name string
		set  bool
	}{
		{"providers", s.Providers != nil}, {"resources", s.Resources != nil}, {"storage", s.Storage != nil},
		{"disabledAPIs", len(s.DisabledAPIs) > 0}, {"baseConfig", s.BaseConfig != nil},
	} {
		if other.set {
			errs = append(errs, field.Forbidden(specPath.Child(other.name), fmt.Sprintf(
				"overrideConfig and %s are mutually exclusive: the override config is run as it is; put the %s into it, or drop overrideConfig",
				other.name, other.name)))
		}
	}
	return errs
}

func validateStorage(st *StorageSpec) field.ErrorList {
	if st == nil {
		return nil
	}
	path := specPath.Child("storage")
	var errs field.ErrorList
	if (st.KV != nil || st.SQL != nil) && (len(st.Backends) > 0 || st.Stores != nil) {
		errs = append(errs, field.Forbidden(path, "kv and sql (the deprecated form) cannot be mixed with backends and stores: write one of them"))
	}
	if kv := st.KV; kv != nil {
		redis := kv.Type == "redis"
		if redis && kv.Endpoint == "" {
			errs = append(errs, field.Required(path.Child("kv", "endpoint"), "endpoint is required when type is redis"))
		}
		if !redis && (kv.Endpoint != "" || kv.Password != nil) {
			errs = append(errs, field.Forbidden(path.Child("kv"), "endpoint and password are only valid when type is redis"))
		}
		if kv.Type != "" && kv.Type != "sqlite" && !redis {
			errs = append(errs, field.NotSupported(path.Child("kv", "type"), kv.Type, []string{"sqlite", "redis"}))
		}
	}
	if sql := st.SQL; sql != nil {
		postgres := sql.Type == "postgres"
		if postgres && sql.ConnectionString == nil {
			errs = append(errs, field.Required(path.Child("sql", "connectionString"), "connectionString is required when type is postgres"))
		}
		if !postgres && sql.ConnectionString != nil {
			errs = append(errs, field.Forbidden(path.Child("sql", "connectionString"), "connectionString is only valid when type is postgres"))
		}
		if sql.Type != "" && sql.Type != "sqlite" && !postgres {
			errs = append(errs, field.NotSupported(path.Child("sql", "type"), sql.Type, []string{"sqlite", "postgres"}))
		}
	}
	return errs
}

func validateNetwork(n *NetworkSpec) field.ErrorList {
	if n == nil || n.ExternalAccess == nil || !n.ExternalAccess.Enabled {
		return nil
	}
	path := specPath.Child("network", "externalAccess")
	var errs field.ErrorList
	if n.ExternalAccess.Hostname == "" {
		errs = append(errs, field.Required(path.Child("hostname"), "external access needs the hostname the Ingress serves"))
	}
	if n.ExternalAccess.TLS == nil || n.ExternalAccess.TLS.SecretName == "" {
		errs = append(errs, field.Required(path.Child("tls", "secretName"), "external access needs TLS: name the Secret of the hostname's certificate"))
	}
	return errs
}

func validateDisabled(s *OGXServerSpec) field.ErrorList {
	var errs field.ErrorList
	path := specPath.Child("disabledAPIs")
	given := providerAPIs(s.Providers)
	for i, api := range s.DisabledAPIs {
		switch {
		case !slices.Contains(DisabledAPINames, api):
			errs = append(errs, field.NotSupported(path.Index(i), api, DisabledAPINames))
		case slices.Contains(given, api):
			errs = append(errs, field.Invalid(path.Index(i), api, fmt.Sprintf("%s cannot be both in providers and disabledAPIs: remove one", api)))
		}
	}
	return errs
}

// providerAPIs are the server names of the APIs spec.providers gives providers to.
func providerAPIs(p *ProvidersSpec) []string {
	var out []string
	for f := range givenAPIs(p) {
		out = append(out, f.Tag.Get("api"))
	}
	return out
}

func validateProviders(s *OGXServerSpec) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]string{} // id -> the path of the provider that has it
	var inference []string
	for _, e := range Entries(s.Providers) {
		if other, dup := seen[e.ID]; dup {
			errs = append(errs, &field.Error{Type: field.ErrorTypeDuplicate, Field: e.Path.Child("id").String(), BadValue: e.ID,
				Detail: fmt.Sprintf("%s has this id too: provider ids are unique across all providers; set id on one of them", other)})
			continue
		}
		seen[e.ID] = e.Path.String()
		if e.API == "inference" {
			inference = append(inference, e.ID)
		}
		if e.Custom != nil && !strings.HasPrefix(e.Custom.Type, "remote::") && !strings.HasPrefix(e.Custom.Type, "inline::") {
			errs = append(errs, field.Invalid(e.Path.Child("type"), e.Custom.Type, "a provider type starts with remote:: or inline:: (remote::my-provider)"))
		}
		if e.Custom == nil {
			errs = append(errs, requiredFields(e.Typed, e.Path)...)
		}
	}
	if s.Resources == nil {
		return errs
	}
	for i, m := range s.Resources.Models {
		if m.Provider != "" && !slices.Contains(inference, m.Provider) {
			errs = append(errs, field.NotFound(specPath.Child("resources", "models").Index(i).Child("provider"),
				fmt.Sprintf("%s: no inference provider has this id (they are %s); name one of them, or leave provider out for the first", m.Provider, listOrNone(inference))))
		}
	}
	return errs
}

func validateWorkload(w *WorkloadSpec) field.ErrorList {
	if w == nil {
		return nil
	}
	path := specPath.Child("workload")
	var errs field.ErrorList
	if p := w.PodDisruptionBudget; p != nil && (p.MinAvailable == nil) == (p.MaxUnavailable == nil) {
		errs = append(errs, field.Invalid(path.Child("podDisruptionBudget"), "", "set exactly one of minAvailable and maxUnavailable"))
	}
	if a := w.Autoscaling; a != nil && a.MinReplicas != nil && a.MaxReplicas < *a.MinReplicas {
		errs = append(errs, field.Invalid(path.Child("autoscaling", "maxReplicas"), a.MaxReplicas, "maxReplicas must be greater than or equal to minReplicas"))
	}
	return errs
}

func listOrNone(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// requiredFields are the fields of a typed provider the successor requires (those whose JSON
// name has no omitempty) that are not set.
func requiredFields(v reflect.Value, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i := range v.NumField() {
		f, fv := v.Type().Field(i), v.Field(i)
		if f.Anonymous {
			errs = append(errs, requiredFields(fv, path)...)
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !strings.Contains(opts, "omitempty") && fv.IsZero() {
			errs = append(errs, field.Required(path.Child(name), fmt.Sprintf("%s needs %s", strings.TrimPrefix(path.String(), "spec.providers."), name)))
		}
	}
	return errs
}
