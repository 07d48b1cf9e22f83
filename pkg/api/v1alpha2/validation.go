// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"maps"
	"slices"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
)

// Validate checks a LlamaStackDistribution against every rule of the CRD (OpenAPI and CEL)
// and returns the errors with the same field paths and messages the API server gives, so a
// render fails exactly where `kubectl apply` would. Call Default first, as the API server
// does.
func Validate(obj *LlamaStackDistribution) field.ErrorList {
	errs := ValidateName(obj.Name)
	if obj.Namespace != "" {
		for _, msg := range k8svalidation.IsDNS1123Label(obj.Namespace) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "namespace"), obj.Namespace, msg))
		}
	}
	return append(errs, ValidateSpec(&obj.Spec, field.NewPath("spec"))...)
}

// MaxNameLength is the longest metadata.name whose derived object names all stay valid: 63
// minus the longest suffix, "-network-policy" (a test in internal/render holds it to that).
const MaxNameLength = 48

// NameRules are the CEL rules of metadata.name, which hack/crdpatch writes into the CRD
// (controller-gen cannot place a rule on metadata.name) and ValidateName mirrors.
var NameRules = []struct{ Rule, Message string }{
	{"self.matches('" + dns1035Pattern + "')", "must be a DNS-1035 label: lower-case letters, digits and '-', " +
		"starting with a letter and ending with a letter or digit (the Service <name>-service needs one)"},
	{fmt.Sprintf("self.size() <= %d", MaxNameLength), fmt.Sprintf("may have at most %d characters: every object llsd "+
		"renders is named <name>-<suffix>, and the longest, <name>-network-policy, must fit in 63", MaxNameLength)},
}

// dns1035Pattern is a DNS-1035 label.
const dns1035Pattern = `^[a-z]([-a-z0-9]*[a-z0-9])?$`

var dns1035Label = lazyre.New(dns1035Pattern)

// ValidateName checks metadata.name as the CRD's rules do: every rendered object is named
// after it, and the Service name must be a DNS-1035 label of at most 63 characters.
func ValidateName(name string) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("metadata", "name")
	if !dns1035Label().MatchString(name) {
		errs = append(errs, field.Invalid(p, name, NameRules[0].Message))
	}
	if len(name) > MaxNameLength {
		errs = append(errs, field.Invalid(p, name, NameRules[1].Message))
	}
	return errs
}

// ValidateSpec validates a spec rooted at path.
func ValidateSpec(spec *LlamaStackDistributionSpec, path *field.Path) field.ErrorList {
	c := &checks{}
	c.distribution(&spec.Distribution, path.Child("distribution"))
	c.providers(spec.Providers, path.Child("providers"))
	c.resources(spec.Resources, path.Child("resources"))
	if vs := spec.VectorStores; vs != nil {
		c.optStr(path.Child("vectorStores", "defaultEmbeddingModel"), vs.DefaultEmbeddingModel, 253, "")
		c.optStr(path.Child("vectorStores", "defaultProvider"), vs.DefaultProvider, 63, idPattern)
	}
	c.storage(spec.Storage, path.Child("storage"))
	c.disabled(spec, path)
	c.networking(spec.Networking, path.Child("networking"))
	c.workload(spec.Workload, path.Child("workload"))
	c.telemetry(spec.Telemetry, path.Child("telemetry"))
	c.monitoring(spec.Monitoring, path.Child("monitoring"))
	c.externalProviders(spec.ExternalProviders, path.Child("externalProviders"))
	c.overrideConfig(spec, path)
	return c.errs
}

func (c *checks) distribution(d *DistributionSpec, p *field.Path) {
	c.optStr(p.Child("name"), d.Name, 63, "")
	c.optStr(p.Child("image"), d.Image, 512, "")
	c.optStr(p.Child("serverVersion"), d.ServerVersion, 16, versionPattern)
	if b := d.BaseConfig; b != nil {
		bp := p.Child("baseConfig")
		if c.required(bp.Child("configMapName"), b.ConfigMapName) {
			c.str(bp.Child("configMapName"), b.ConfigMapName, 1, 253, "")
		}
		c.optStr(bp.Child("key"), b.Key, 253, secretKeyPattern)
	}
	check(c, p, d, ruleDistributionNotBoth, ruleDistributionNeedsOne)
}

func (c *checks) providers(ps *ProvidersSpec, p *field.Path) {
	if ps == nil {
		return
	}
	for _, api := range ps.APIs() {
		list := api.Providers
		lp := p.Child(string(api.Name))
		c.items(lp, len(list), 16)
		for i := range list {
			c.provider(&list[i], lp.Index(i))
		}
		check(c, lp, list, providerListRule)
	}
	check(c, p, ps, providersRule())
}

func (c *checks) provider(ps *ProviderSpec, p *field.Path) {
	c.optStr(p.Child("id"), ps.ID, 63, idPattern)
	if c.required(p.Child("provider"), ps.Provider) {
		c.str(p.Child("provider"), ps.Provider, 0, 128, providerPattern)
	}
	c.optStr(p.Child("endpoint"), ps.Endpoint, 2048, "")
	c.secret(ps.APIKey, p.Child("apiKey"))
	c.secretMap(p.Child("secretRefs"), ps.SecretRefs, 32, ruleSecretRefKeys)
	c.settings(p.Child("settings"), ps.Settings)
	if cc := ps.ClientCertificate; cc != nil {
		cp := p.Child("clientCertificate")
		if c.required(cp.Child("secretName"), cc.SecretName) {
			c.str(cp.Child("secretName"), cc.SecretName, 1, 253, "")
		}
		c.optStr(cp.Child("certificateKey"), cc.CertificateKey, 253, secretKeyPattern)
		c.optStr(cp.Child("privateKeyKey"), cc.PrivateKeyKey, 253, secretKeyPattern)
	}
}

// secretMap checks a map of Secret references: its size, its keys (keyRule) and each reference.
func (c *checks) secretMap(p *field.Path, refs map[string]SecretKeySource, maxProperties int, keyRule rule[map[string]SecretKeySource]) {
	c.maxProperties(p, len(refs), maxProperties)
	check(c, p, refs, keyRule)
	for _, k := range slices.Sorted(maps.Keys(refs)) {
		ref := refs[k]
		c.secret(&ref, p.Child(k)) // the API server names a map entry .key in schema errors
	}
}

// settings checks that a provider's settings are an object.
func (c *checks) settings(p *field.Path, settings *apiextensionsv1.JSON) {
	if settings != nil && len(settings.Raw) > 0 && settings.Raw[0] != '{' {
		c.add(field.Invalid(p, field.OmitValueType{}, "settings must be an object of provider config keys"))
	}
}

func (c *checks) secret(s *SecretKeySource, p *field.Path) {
	if s == nil {
		return
	}
	ref := p.Child("secretKeyRef")
	if s.SecretKeyRef == (SecretKeyRef{}) {
		c.add(field.Required(ref, "")) // Go cannot tell a secretKeyRef left out from an empty one
		return
	}
	if c.required(ref.Child("name"), s.SecretKeyRef.Name) {
		c.str(ref.Child("name"), s.SecretKeyRef.Name, 1, 253, "")
	}
	if c.required(ref.Child("key"), s.SecretKeyRef.Key) {
		c.str(ref.Child("key"), s.SecretKeyRef.Key, 1, 253, secretKeyPattern)
	}
}

func (c *checks) resources(r *ResourcesSpec, p *field.Path) {
	if r == nil {
		return
	}
	mp := p.Child("models")
	c.items(mp, len(r.Models), 64)
	for i := range r.Models {
		c.model(&r.Models[i], mp.Index(i))
	}
	check(c, mp, r.Models, ruleUniqueModelNames)
	sp := p.Child("mcpServers")
	c.items(sp, len(r.MCPServers), 32)
	for i, m := range r.MCPServers {
		if c.required(sp.Index(i).Child("id"), m.ID) {
			c.str(sp.Index(i).Child("id"), m.ID, 1, 63, idPattern)
		}
		if c.required(sp.Index(i).Child("url"), m.URL) {
			c.str(sp.Index(i).Child("url"), m.URL, 1, 2048, urlPattern)
		}
		c.optStr(sp.Index(i).Child("label"), m.Label, 63, "")
	}
	check(c, sp, r.MCPServers, ruleUniqueMCPServerIDs)
	for _, list := range []struct {
		name   string
		values []string
	}{{"tools", r.Tools}, {"shields", r.Shields}} {
		lp := p.Child(list.name)
		c.items(lp, len(list.values), 64)
		for i, v := range list.values {
			c.str(lp.Index(i), v, 1, 253, "")
		}
		c.uniqueStrings(lp, list.values)
	}
}

func (c *checks) model(m *ModelSpec, p *field.Path) {
	if c.required(p.Child("name"), m.Name) {
		c.str(p.Child("name"), m.Name, 1, 253, "")
	}
	c.optStr(p.Child("provider"), m.Provider, 63, idPattern)
	c.optStr(p.Child("providerModelId"), m.ProviderModelID, 253, "")
	c.enum(p.Child("modelType"), m.ModelType, "llm", "embedding", "rerank")
	c.minimum(p.Child("embeddingDimension"), m.EmbeddingDimension, 1)
	c.minimum(p.Child("contextLength"), m.ContextLength, 1)
	c.optStr(p.Child("quantization"), m.Quantization, 63, "")
	check(c, p, m, ruleEmbeddingNeedsDimension, ruleDimensionOnlyForEmbedding)
}

func (c *checks) storage(s *StateStorageSpec, p *field.Path) {
	if s == nil {
		return
	}
	check(c, p, s, ruleStorageNeedsBackends, ruleStorageFormsNotMixed, ruleStoresNeedBackends)
	c.backends(s.Backends, p.Child("backends"))
	c.stores(s.Stores, p.Child("stores"))
	if kv := s.KV; kv != nil {
		kp := p.Child("kv")
		c.enum(kp.Child("type"), kv.Type, StorageTypeSQLite, StorageTypeRedis)
		c.optStr(kp.Child("endpoint"), kv.Endpoint, 2048, "")
		c.secret(kv.Password, kp.Child("password"))
		check(c, kp, kv, ruleRedisNeedsEndpoint, ruleEndpointOnlyForRedis, rulePasswordOnlyForRedis)
	}
	if sql := s.SQL; sql != nil {
		sp := p.Child("sql")
		c.enum(sp.Child("type"), sql.Type, StorageTypeSQLite, StorageTypePostgres)
		c.secret(sql.ConnectionString, sp.Child("connectionString"))
		check(c, sp, sql, rulePostgresNeedsConnectionString, ruleConnectionStringOnlyForPostgres)
	}
}

func (c *checks) backends(backends map[string]StorageBackendSpec, p *field.Path) {
	c.minProperties(p, backends != nil, len(backends), 1)
	c.maxProperties(p, len(backends), 16)
	check(c, p, backends, ruleBackendNames)
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		// The API server names a map entry .name in schema errors and [name] in CEL errors.
		c.backend(backends[name], p.Child(name), p.Key(name))
	}
}

func (c *checks) backend(b StorageBackendSpec, p, celPath *field.Path) {
	if c.required(p.Child("type"), b.Type) {
		c.enum(p.Child("type"), b.Type, StorageTypeKVPostgres, StorageTypeSQLPostgres)
	}
	c.optStr(p.Child("host"), b.Host, 253, "")
	c.minimum(p.Child("port"), b.Port, 1)
	c.maximum(p.Child("port"), b.Port, 65535)
	c.optStr(p.Child("db"), b.DB, 63, "")
	if c.required(p.Child("user"), b.User) {
		c.str(p.Child("user"), b.User, 1, 63, "")
	}
	c.secret(b.Password, p.Child("password"))
	c.enum(p.Child("sslMode"), b.SSLMode, "disable", "allow", "prefer", "require", "verify-ca", "verify-full")
	c.optStr(p.Child("caCertPath"), b.CACertPath, 4096, "")
	c.optStr(p.Child("tableName"), b.TableName, 0, tableNamePattern)
	c.minimum(p.Child("poolSize"), b.PoolSize, 1)
	c.minimum(p.Child("maxOverflow"), b.MaxOverflow, 0)
	c.minimum(p.Child("commandTimeout"), b.CommandTimeout, 1)
	c.minimum(p.Child("poolRecycle"), b.PoolRecycle, -1)
	check(c, celPath, &b, ruleTableNameOnlyForKV, ruleCommandTimeoutOnlyForKV, rulePoolRecycleOnlyForSQL, rulePoolPrePingOnlyForSQL)
}

func (c *checks) stores(s *StorageStoresSpec, p *field.Path) {
	if s == nil {
		return
	}
	if m := s.Metadata; m != nil {
		c.storeBackend(p.Child("metadata"), m.Backend)
		if c.required(p.Child("metadata", "namespace"), m.Namespace) {
			c.str(p.Child("metadata", "namespace"), m.Namespace, 1, 253, "")
		}
	}
	if i := s.Inference; i != nil {
		c.storeBackend(p.Child("inference"), i.Backend)
		c.tableName(p.Child("inference", "tableName"), i.TableName)
		c.minimum(p.Child("inference", "maxWriteQueueSize"), i.MaxWriteQueueSize, 1)
		c.minimum(p.Child("inference", "numWriters"), i.NumWriters, 1)
	}
	if r := s.Responses; r != nil {
		c.storeBackend(p.Child("responses"), r.Backend)
		c.optStr(p.Child("responses", "tableName"), r.TableName, 0, tableNamePattern)
		c.minimum(p.Child("responses", "maxWriteQueueSize"), r.MaxWriteQueueSize, 1)
		c.minimum(p.Child("responses", "numWriters"), r.NumWriters, 1)
	}
	for _, store := range []struct {
		name string
		ref  *SQLStoreRef
	}{{"conversations", s.Conversations}, {"prompts", s.Prompts}, {"connectors", s.Connectors}, {"vectorStores", s.VectorStores}} {
		if store.ref != nil {
			c.storeBackend(p.Child(store.name), store.ref.Backend)
			c.tableName(p.Child(store.name, "tableName"), store.ref.TableName)
		}
	}
}

func (c *checks) tableName(p *field.Path, name string) {
	if c.required(p, name) {
		c.str(p, name, 1, 0, tableNamePattern)
	}
}

func (c *checks) storeBackend(p *field.Path, backend string) {
	if c.required(p.Child("backend"), backend) {
		c.str(p.Child("backend"), backend, 1, 63, "")
	}
}

func (c *checks) disabled(spec *LlamaStackDistributionSpec, p *field.Path) {
	dp := p.Child("disabled")
	c.items(dp, len(spec.Disabled), 16)
	names := make([]string, len(spec.Disabled))
	allowed := make([]string, len(AllAPINames))
	for i, n := range AllAPINames {
		allowed[i] = string(n)
	}
	for i, d := range spec.Disabled {
		names[i] = string(d)
		c.enum(dp.Index(i), string(d), allowed...)
	}
	c.uniqueStrings(dp, names)
	check(c, p, spec, disabledRules()...)
}

func (c *checks) networking(n *NetworkingSpec, p *field.Path) {
	if n == nil {
		return
	}
	c.minimum(p.Child("port"), n.Port, 1)
	c.maximum(p.Child("port"), n.Port, 65535)
	if e := n.Egress; e != nil {
		c.cidrs(p.Child("egress", "cidrs"), e.CIDRs)
	}
	if t := n.TLS; t != nil {
		tp := p.Child("tls")
		c.optStr(tp.Child("secretName"), t.SecretName, 253, "")
		c.optStr(tp.Child("certificateKey"), t.CertificateKey, 253, secretKeyPattern)
		c.optStr(tp.Child("privateKeyKey"), t.PrivateKeyKey, 253, secretKeyPattern)
		check(c, tp, t, ruleTLSNeedsSecret, ruleSecretNeedsTLS)
		c.items(tp.Child("caBundles"), len(t.CABundles), 8)
		for _, ref := range t.Bundles() {
			b, bp := ref.CABundleSpec, ref.Path
			if c.required(bp.Child("configMapName"), b.ConfigMapName) {
				c.str(bp.Child("configMapName"), b.ConfigMapName, 1, 253, "")
			}
			c.optStr(bp.Child("configMapNamespace"), b.ConfigMapNamespace, 63, "")
			c.items(bp.Child("configMapKeys"), len(b.ConfigMapKeys), 50)
			for i, k := range b.ConfigMapKeys {
				c.str(bp.Child("configMapKeys").Index(i), k, 0, 253, caKeyPattern)
			}
		}
	}
	if e := n.Expose; e != nil {
		ep := p.Child("expose")
		c.optStr(ep.Child("hostname"), e.Hostname, 253, hostPattern)
		c.optStr(ep.Child("className"), e.ClassName, 253, "")
		c.optStr(ep.Child("tlsSecretName"), e.TLSSecretName, 253, dnsSubdomainPattern)
		c.minProperties(ep.Child("annotations"), e.Annotations != nil, len(e.Annotations), 1)
		if len(e.Annotations) > 64 {
			c.add(field.TooMany(ep.Child("annotations"), len(e.Annotations), 64))
		}
		check(c, ep, e, ruleHostnameNeedsExpose, ruleRouteHasNoClass, ruleRouteHasNoTLSSecret, ruleExposeAnnotationsNotOurs)
	}
	if a := n.AllowedFrom; a != nil {
		ap := p.Child("allowedFrom")
		for i, ns := range a.Namespaces {
			c.str(ap.Child("namespaces").Index(i), ns, 1, 63, "")
		}
		for i, l := range a.Labels {
			c.str(ap.Child("labels").Index(i), l, 1, 317, labelPattern)
		}
		c.cidrs(ap.Child("cidrs"), a.CIDRs)
	}
}

// cidrs checks a list of networks: at most 32, each a CIDR (the CEL rule reports the list once).
func (c *checks) cidrs(p *field.Path, cidrs []string) {
	c.items(p, len(cidrs), 32)
	for i, cidr := range cidrs {
		c.str(p.Index(i), cidr, 0, 43, "")
	}
	check(c, p, cidrs, ruleCIDRs)
}

func (c *checks) workload(w *WorkloadSpec, p *field.Path) {
	if w == nil {
		return
	}
	c.minimum(p.Child("replicas"), w.Replicas, 0)
	c.minimum(p.Child("workers"), w.Workers, 1)
	if a := w.Autoscaling; a != nil {
		ap := p.Child("autoscaling")
		c.minimum(ap.Child("minReplicas"), a.MinReplicas, 1)
		c.minimum(ap.Child("maxReplicas"), &a.MaxReplicas, 1)
		for _, target := range []struct {
			name  string
			value *int32
		}{
			{"targetCPUUtilizationPercentage", a.TargetCPUUtilizationPercentage},
			{"targetMemoryUtilizationPercentage", a.TargetMemoryUtilizationPercentage},
		} {
			c.minimum(ap.Child(target.name), target.value, 1)
			c.maximum(ap.Child(target.name), target.value, 100)
		}
		check(c, ap, a, ruleMaxAtLeastMin)
	}
	if s := w.Storage; s != nil {
		sp := p.Child("storage")
		c.optStr(sp.Child("mountPath"), s.MountPath, 1024, absPathPattern)
		if s.StorageClassName != nil {
			c.str(sp.Child("storageClassName"), *s.StorageClassName, 0, 253, "")
		}
		c.items(sp.Child("accessModes"), len(s.AccessModes), 2)
		modes := make([]string, len(s.AccessModes))
		for i, m := range s.AccessModes {
			modes[i] = string(m)
			c.enum(sp.Child("accessModes").Index(i), string(m), "ReadWriteOnce", "ReadWriteMany", "ReadWriteOncePod")
		}
		c.uniqueStrings(sp.Child("accessModes"), modes)
	}
	c.pod(w.Pod, p.Child("pod"))
	if b := w.PodDisruptionBudget; b != nil {
		check(c, p.Child("podDisruptionBudget"), b, ruleBudgetNotBoth, ruleBudgetNeedsOne)
	}
	if o := w.Overrides; o != nil {
		op := p.Child("overrides")
		c.optStr(op.Child("serviceAccountName"), o.ServiceAccountName, 253, "")
		seen := map[string]bool{}
		for i, e := range o.Env {
			if seen[e.Name] {
				c.add(field.Duplicate(op.Child("env").Index(i), map[string]any{"name": e.Name}))
			}
			seen[e.Name] = true
		}
		if o.TerminationGracePeriodSeconds != nil && *o.TerminationGracePeriodSeconds < 0 {
			c.add(field.Invalid(op.Child("terminationGracePeriodSeconds"), *o.TerminationGracePeriodSeconds,
				fmt.Sprintf("%s in body should be greater than or equal to 0", op.Child("terminationGracePeriodSeconds"))))
		}
	}
}

func (c *checks) pod(ps *PodSettings, p *field.Path) {
	if ps == nil {
		return
	}
	c.maxProperties(p.Child("labels"), len(ps.Labels), 64)
	c.maxProperties(p.Child("annotations"), len(ps.Annotations), 64)
	c.maxProperties(p.Child("nodeSelector"), len(ps.NodeSelector), 32)
	c.items(p.Child("imagePullSecrets"), len(ps.ImagePullSecrets), 16)
	c.items(p.Child("tolerations"), len(ps.Tolerations), 32)
	c.optStr(p.Child("priorityClassName"), ps.PriorityClassName, 253, "")
	cp := p.Child("resourceClaims")
	c.items(cp, len(ps.ResourceClaims), 8)
	seen := map[string]bool{}
	for i := range ps.ResourceClaims {
		rc := &ps.ResourceClaims[i]
		if c.required(cp.Index(i).Child("name"), rc.Name) {
			c.str(cp.Index(i).Child("name"), rc.Name, 1, 63, dnsLabelPattern)
		}
		c.optStr(cp.Index(i).Child("resourceClaimName"), rc.ResourceClaimName, 253, "")
		c.optStr(cp.Index(i).Child("resourceClaimTemplateName"), rc.ResourceClaimTemplateName, 253, "")
		check(c, cp.Index(i), rc, ruleOneClaimSource)
		if seen[rc.Name] {
			c.add(field.Duplicate(cp.Index(i), map[string]any{"name": rc.Name}))
		}
		seen[rc.Name] = true
	}
	check(c, p, ps, rulePodLabelsNotOurs, rulePodAnnotationsNotOurs)
}

func (c *checks) monitoring(m *MonitoringSpec, p *field.Path) {
	if m == nil {
		return
	}
	c.minimum(p.Child("port"), m.Port, 1)
	c.maximum(p.Child("port"), m.Port, 65535)
	sp := p.Child("scraperNamespaces")
	c.items(sp, len(m.ScraperNamespaces), 8)
	for i, ns := range m.ScraperNamespaces {
		c.str(sp.Index(i), ns, 0, 63, dnsLabelPattern)
	}
	c.uniqueStrings(sp, m.ScraperNamespaces)
}

func (c *checks) telemetry(t *TelemetrySpec, p *field.Path) {
	if t == nil {
		return
	}
	if c.required(p.Child("endpoint"), t.Endpoint) {
		c.str(p.Child("endpoint"), t.Endpoint, 0, 2048, urlPattern)
	}
	c.enum(p.Child("protocol"), t.Protocol, "grpc", "http/protobuf", "http/json")
	c.optStr(p.Child("serviceName"), t.ServiceName, 253, "")
	c.minimum(p.Child("samplingPercent"), t.SamplingPercent, 0)
	c.maximum(p.Child("samplingPercent"), t.SamplingPercent, 100)
	c.secretMap(p.Child("headers"), t.Headers, 16, ruleHeaderNames)
}

func (c *checks) externalProviders(e *ExternalProvidersSpec, p *field.Path) {
	if e == nil {
		return
	}
	for _, list := range e.APIs() {
		lp := p.Child(string(list.Name))
		c.items(lp, len(list.Providers), 16)
		for i := range list.Providers {
			c.externalProvider(&list.Providers[i], lp.Index(i))
		}
		check(c, lp, list.Providers, ruleUniqueExternalProviderIDs)
	}
}

func (c *checks) externalProvider(ref *ExternalProviderRef, p *field.Path) {
	if c.required(p.Child("providerId"), ref.ProviderID) {
		c.str(p.Child("providerId"), ref.ProviderID, 0, 63, idPattern)
	}
	if c.required(p.Child("image"), ref.Image) {
		c.str(p.Child("image"), ref.Image, 1, 512, "")
	}
	c.optStr(p.Child("module"), ref.Module, 253, modulePattern)
	c.optStr(p.Child("providerType"), ref.ProviderType, 128, providerTypePattern)
	c.optStr(p.Child("path"), ref.Path, 1024, providerPathPattern)
	c.secretMap(p.Child("secretRefs"), ref.SecretRefs, 32, ruleSecretRefKeys)
	c.settings(p.Child("settings"), ref.Settings)
}

func (c *checks) overrideConfig(spec *LlamaStackDistributionSpec, p *field.Path) {
	o := spec.OverrideConfig
	if o == nil {
		return
	}
	op := p.Child("overrideConfig")
	if c.required(op.Child("configMapName"), o.ConfigMapName) {
		c.str(op.Child("configMapName"), o.ConfigMapName, 1, 253, "")
	}
	c.optStr(op.Child("key"), o.Key, 253, secretKeyPattern)
	check(c, p, spec, overrideRules()...)
}
