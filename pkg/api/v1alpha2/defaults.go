// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"cmp"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Effective values used when a field is unset. They are not written into the object, so a
// v1alpha1 object converts back unchanged.
const (
	DefaultPort         = int32(8321)
	DefaultReplicas     = int32(1)
	DefaultStorageSize  = "10Gi"
	DefaultCABundleKey  = "ca-bundle.crt"
	StorageTypeSQLite   = "sqlite"
	StorageTypeRedis    = "redis"
	StorageTypePostgres = "postgres"
	// The types of named backends (storage.backends).
	StorageTypeKVPostgres  = "kv_postgres"
	StorageTypeSQLPostgres = "sql_postgres"
)

// Default sets the defaults the CRD declares, exactly as the API server would: a storage
// backend without a type is sqlite, and expose without enabled is enabled.
func Default(obj *LlamaStackDistribution) {
	spec := &obj.Spec
	if spec.Storage != nil {
		if spec.Storage.KV != nil && spec.Storage.KV.Type == "" {
			spec.Storage.KV.Type = StorageTypeSQLite
		}
		if spec.Storage.SQL != nil && spec.Storage.SQL.Type == "" {
			spec.Storage.SQL.Type = StorageTypeSQLite
		}
	}
	if spec.Networking != nil && spec.Networking.Expose != nil && spec.Networking.Expose.Enabled == nil {
		enabled := true
		spec.Networking.Expose.Enabled = &enabled
	}
}

// EffectiveID is the provider_id of the provider: id when set, else derived from provider
// (remote::vllm and vllm give vllm; hf::serverless gives hf-serverless). The CRD's CEL rule
// for unique ids derives it the same way.
func (p ProviderSpec) EffectiveID() string {
	if p.ID != "" {
		return p.ID
	}
	id := strings.ReplaceAll(p.Provider, "remote::", "")
	id = strings.ReplaceAll(id, "inline::", "")
	id = strings.ReplaceAll(id, "::", "-")
	return strings.ReplaceAll(id, "_", "-")
}

// Port is the port the server listens on.
func (s *LlamaStackDistributionSpec) Port() int32 {
	if s.Networking != nil && s.Networking.Port != nil {
		return *s.Networking.Port
	}
	return DefaultPort
}

// ExposeEnabled reports whether an Ingress is wanted: expose is present and not disabled.
func (s *LlamaStackDistributionSpec) ExposeEnabled() bool {
	if s.Networking == nil || s.Networking.Expose == nil {
		return false
	}
	return s.Networking.Expose.Enabled == nil || *s.Networking.Expose.Enabled
}

// APIs pairs each provider list with its API name, in a fixed order.
func (p *ProvidersSpec) APIs() []APIProviders {
	if p == nil {
		return nil
	}
	return []APIProviders{
		{Name: APIInference, Providers: p.Inference},
		{Name: APISafety, Providers: p.Safety},
		{Name: APIVectorIo, Providers: p.VectorIo},
		{Name: APIToolRuntime, Providers: p.ToolRuntime},
		{Name: APITelemetry, Providers: p.Telemetry},
		{Name: "files", Providers: p.Files},
		{Name: "batches", Providers: p.Batches},
		{Name: "responses", Providers: p.Responses},
		{Name: "fileProcessors", Providers: p.FileProcessors},
	}
}

// APIs returns the external provider lists, named as in spec.externalProviders.
func (e *ExternalProvidersSpec) APIs() []ExternalAPIProviders {
	if e == nil {
		return nil
	}
	return []ExternalAPIProviders{
		{Name: APIInference, Providers: e.Inference},
		{Name: APISafety, Providers: e.Safety},
		{Name: APIVectorIo, Providers: e.VectorIo},
		{Name: APIToolRuntime, Providers: e.ToolRuntime},
	}
}

// ExternalAPIProviders is the external provider list of one API.
type ExternalAPIProviders struct {
	Name      APIName
	Providers []ExternalProviderRef
}

// APIProviders is the provider list of one API.
type APIProviders struct {
	Name      APIName
	Providers []ProviderSpec
}

// The API names that have a provider list in spec.providers.
const (
	APIInference   APIName = "inference"
	APISafety      APIName = "safety"
	APIVectorIo    APIName = "vectorIo"
	APIToolRuntime APIName = "toolRuntime"
	APITelemetry   APIName = "telemetry"
)

// AllAPINames is the vocabulary of spec.disabled, as the CRD's enum lists it: the one list of
// API names; the server's spelling of each is ServerName.
var AllAPINames = []APIName{"agents", "batches", "datasetio", "eval", "fileProcessors", "files",
	APIInference, "interactions", "messages", "postTraining", "responses", APISafety, "scoring", APITelemetry, APIToolRuntime, APIVectorIo}

// ServerName is the server's name of the API, snake_case: vectorIo is vector_io.
func (n APIName) ServerName() string {
	var b strings.Builder
	for _, r := range string(n) {
		if unicode.IsUpper(r) {
			b.WriteByte('_')
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// APINameOf is the spec's name of a server API: vector_io is vectorIo.
func APINameOf(server string) APIName {
	var b strings.Builder
	upper := false
	for _, r := range server {
		switch {
		case r == '_':
			upper = true
		case upper:
			b.WriteRune(unicode.ToUpper(r))
			upper = false
		default:
			b.WriteRune(r)
		}
	}
	return APIName(b.String())
}

// GetExpose returns the expose settings, or nil; safe on a nil NetworkingSpec.
func (n *NetworkingSpec) GetExpose() *ExposeSpec {
	if n == nil {
		return nil
	}
	return n.Expose
}

// CABundleRef is one CA bundle ConfigMap of networking.tls with the field that names it.
//
// +kubebuilder:object:generate=false
type CABundleRef struct {
	Path *field.Path
	*CABundleSpec
}

// Bundles are the CA bundle ConfigMaps, caBundle first, then caBundles.
func (t *TLSSpec) Bundles() []CABundleRef {
	if t == nil {
		return nil
	}
	tls := field.NewPath("spec", "networking", "tls")
	var out []CABundleRef
	if t.CABundle != nil {
		out = append(out, CABundleRef{tls.Child("caBundle"), t.CABundle})
	}
	for i := range t.CABundles {
		out = append(out, CABundleRef{tls.Child("caBundles").Index(i), &t.CABundles[i]})
	}
	return out
}

// Keys are the keys of the ConfigMap that hold certificates: configMapKeys, else ca-bundle.crt.
func (b *CABundleSpec) Keys() []string {
	if len(b.ConfigMapKeys) > 0 {
		return b.ConfigMapKeys
	}
	return []string{DefaultCABundleKey}
}

// Keys are the Secret's keys that hold the certificate and the private key.
func (c *ClientCertificateSpec) Keys() (certificate, privateKey string) {
	return cmp.Or(c.CertificateKey, TLSCertificateKey), cmp.Or(c.PrivateKeyKey, TLSPrivateKeyKey)
}

// MatchLabels are the labels a pod must carry, as a label selector's matchLabels.
func (p PodsPeer) MatchLabels() map[string]string {
	labels := make(map[string]string, len(p.Labels))
	for _, label := range p.Labels {
		key, value, _ := strings.Cut(label, "=")
		labels[key] = value
	}
	return labels
}
