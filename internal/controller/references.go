// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// secretRef is one Secret key the server needs, with the spec field that names it.
type secretRef struct {
	Field string
	Name  string
	// Keys that must be in the Secret's data.
	Keys []string
	// Text: the value is substituted into a config key that takes a string (an API key, a
	// password), where one that reads as a number or boolean stops the server.
	Text bool
}

// secretRefs lists every Secret key a LlamaStackDistribution's pod reads, in spec order.
// Optional env references (valueFrom.secretKeyRef.optional) are left out: the pod starts
// without them.
func secretRefs(obj *v1alpha2.LlamaStackDistribution) []secretRef {
	var refs []secretRef
	add := func(p *field.Path, s *v1alpha2.SecretKeySource, text bool) {
		if s != nil {
			refs = append(refs, secretRef{Field: p.String(), Name: s.SecretKeyRef.Name, Keys: []string{s.SecretKeyRef.Key}, Text: text})
		}
	}
	spec := &obj.Spec
	for _, api := range spec.Providers.APIs() {
		for i := range api.Providers {
			p := &api.Providers[i]
			path := field.NewPath("spec", "providers", string(api.Name)).Index(i)
			add(path.Child("apiKey"), p.APIKey, true)
			if cc := p.ClientCertificate; cc != nil {
				certificate, key := cc.Keys()
				refs = append(refs, secretRef{Field: path.Child("clientCertificate").String(), Name: cc.SecretName, Keys: []string{certificate, key}})
			}
			for _, k := range slices.Sorted(maps.Keys(p.SecretRefs)) {
				s := p.SecretRefs[k]
				add(path.Child("secretRefs").Key(k), &s, redact.IsCredentialKey(k))
			}
		}
	}
	for _, api := range spec.ExternalProviders.APIs() {
		for i, p := range api.Providers {
			path := field.NewPath("spec", "externalProviders", string(api.Name)).Index(i).Child("secretRefs")
			for _, k := range slices.Sorted(maps.Keys(p.SecretRefs)) {
				s := p.SecretRefs[k]
				add(path.Key(k), &s, redact.IsCredentialKey(k))
			}
		}
	}
	if t := spec.Telemetry; t != nil {
		for _, k := range slices.Sorted(maps.Keys(t.Headers)) {
			s := t.Headers[k]
			add(field.NewPath("spec", "telemetry", "headers").Key(k), &s, false) // an exporter's header, not a config value
		}
	}
	if st := spec.Storage; st != nil {
		if st.KV != nil {
			add(field.NewPath("spec", "storage", "kv", "password"), st.KV.Password, true)
		}
		if st.SQL != nil {
			add(field.NewPath("spec", "storage", "sql", "connectionString"), st.SQL.ConnectionString, false) // a URL
		}
		for _, name := range slices.Sorted(maps.Keys(st.Backends)) {
			add(field.NewPath("spec", "storage", "backends", name, "password"), st.Backends[name].Password, true)
		}
	}
	if tls := spec.ServerTLS(); tls != nil && tls.SecretName != "" {
		refs = append(refs, secretRef{Field: "spec.networking.tls.secretName", Name: tls.SecretName, Keys: []string{tls.CertificateKey, tls.PrivateKeyKey}})
	}
	if w := spec.Workload; w != nil && w.Overrides != nil {
		for i, env := range w.Overrides.Env {
			if env.ValueFrom == nil || env.ValueFrom.SecretKeyRef == nil {
				continue
			}
			s := env.ValueFrom.SecretKeyRef
			if s.Optional != nil && *s.Optional {
				continue
			}
			refs = append(refs, secretRef{Field: fmt.Sprintf("spec.workload.overrides.env[%d].valueFrom.secretKeyRef", i), Name: s.Name, Keys: []string{s.Key}})
		}
	}
	return refs
}
