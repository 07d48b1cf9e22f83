// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"net/netip"
	"reflect"
	"slices"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// The CEL rules of the v1alpha2 schema, each written once with the Go check that decides it.
// hack/crdpatch writes each rule's CEL into the CRD's x-kubernetes-validations at every field
// where its type (or its field of a type) occurs (Rules); Validate's walk runs its Go check on every
// value On names and reports a broken rule as the API server does (Rule.errorAt). The parity suite
// (pkg/api/parity_test.go) proves on a real API server that the two halves of each entry agree.
// The rules made from the list of provider APIs are in cel.go.

// Rule is one CEL rule and where the schema carries it.
//
// +kubebuilder:object:generate=false
type Rule struct {
	// On are the Go types whose schema carries the rule ("TLSSpec"), or the fields of a type
	// ("AllowedFromSpec.cidrs"), by JSON name.
	On []string
	apiextensionsv1.ValidationRule
}

// rule is a Rule with its Go check: holds says whether the value the CEL calls self keeps it.
//
// +kubebuilder:object:generate=false
type rule[T any] struct {
	Rule
	holds func(self T) bool
	// detail words the message of a rule with a MessageExpression.
	detail func(self T) string
	// referring is the message with the fields and APIs it names as wording references, for
	// Check; Message, the CRD's, is its plain form (wording.Plain).
	referring string
}

// ruleChecker is a rule of any value type, as the walk of Validate applies it.
type ruleChecker interface {
	base() Rule
	checkValue(c *checks, p *field.Path, v reflect.Value)
}

func (r rule[T]) base() Rule { return r.Rule }

// checkValue adds the rule's error when v breaks it. v is a value of T or, for a rule on a
// struct type, the struct T points to.
func (r rule[T]) checkValue(c *checks, p *field.Path, v reflect.Value) {
	if reflect.TypeFor[T]().Kind() == reflect.Pointer && v.Kind() != reflect.Pointer {
		v = v.Addr()
	}
	self := v.Interface().(T)
	if r.holds(self) {
		return
	}
	message := r.Message
	switch {
	case r.detail != nil:
		message = r.detail(self)
	case c.refer && r.referring != "":
		message = r.referring
	}
	c.add(r.errorAt(p, schemaType(self), message))
}

// rulesOn are the rules by the type or field they are on (Rule.On).
var rulesOn = sync.OnceValue(func() map[string][]ruleChecker {
	byOn := map[string][]ruleChecker{}
	for _, r := range allRules() {
		for _, on := range r.base().On {
			byOn[on] = append(byOn[on], r)
		}
	}
	return byOn
})

// rules adds the errors of the rules on the type or field named on that v breaks.
func (c *checks) rules(on string, v reflect.Value, p *field.Path) {
	for _, r := range rulesOn()[on] {
		r.checkValue(c, p, v)
	}
}

// errorAt is the error the API server gives for the rule broken by the value at p: at the
// rule's fieldPath below p, of the rule's reason, with the value's schema type as its value.
func (r Rule) errorAt(p *field.Path, schemaType any, message string) *field.Error {
	for _, name := range strings.Split(r.FieldPath, ".")[1:] {
		p = p.Child(name)
	}
	switch ptr.Deref(r.Reason, apiextensionsv1.FieldValueInvalid) {
	case apiextensionsv1.FieldValueForbidden:
		return field.Forbidden(p, message)
	case apiextensionsv1.FieldValueRequired:
		return field.Required(p, message)
	}
	return field.Invalid(p, schemaType, message)
}

// schemaType is the OpenAPI type of a Go value of the spec: lists are arrays, structs and
// maps are objects.
func schemaType(v any) string {
	if reflect.TypeOf(v).Kind() == reflect.Slice {
		return "array"
	}
	return "object"
}

// The patterns of map keys, which the schema checks with CEL (OpenAPI has no bound on keys).
const (
	configKeyPattern   = `^[a-z][a-z0-9_]*$`
	headerPattern      = `^[A-Za-z0-9-]+$`
	backendNamePattern = `^[A-Za-z0-9_-]{1,63}$`
)

// keysMatch holds when every key of a map matches pattern.
func keysMatch[V any](pattern string) func(map[string]V) bool {
	return func(m map[string]V) bool {
		for k := range m {
			if !matches(pattern, k) {
				return false
			}
		}
		return true
	}
}

// noKey holds when no key of a map is one of ours.
func noKey(m map[string]string, ours func(string) bool) bool {
	for k := range m {
		if ours(k) {
			return false
		}
	}
	return true
}

func isLlamaStackKey(k string) bool { return strings.HasPrefix(k, "llamastack.io/") }

// unique holds when no two items have the same key.
func unique[T any](items []T, key func(T) string) bool {
	return firstDuplicate(items, key) == ""
}

// firstDuplicate is the first key that an item repeats, or "".
func firstDuplicate[T any](items []T, key func(T) string) string {
	seen := map[string]bool{}
	for _, item := range items {
		k := key(item)
		if seen[k] {
			return k
		}
		seen[k] = true
	}
	return ""
}

var (
	ruleDistributionNotBoth = rule[*DistributionSpec]{
		Rule: Rule{On: []string{"DistributionSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "!(has(self.name) && has(self.image))",
			Reason:  ptr.To(apiextensionsv1.FieldValueForbidden),
			Message: "name and image are mutually exclusive: set name for a distribution from the catalog, or image for your own",
		}},
		holds: func(d *DistributionSpec) bool { return d.Name == "" || d.Image == "" },
	}
	ruleDistributionNeedsOne = rule[*DistributionSpec]{
		Rule: Rule{On: []string{"DistributionSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "has(self.name) || has(self.image)",
			Reason:  ptr.To(apiextensionsv1.FieldValueRequired),
			Message: "one of name or image is required: set name (for example starter) or image",
		}},
		holds: func(d *DistributionSpec) bool { return d.Name != "" || d.Image != "" },
	}
	ruleSecretRefKeys = rule[map[string]SecretKeySource]{
		Rule: Rule{On: []string{"ProviderSpec.secretRefs", "ExternalProviderRef.secretRefs"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(k, k.matches('" + configKeyPattern + "'))",
			Message: "secretRefs keys are provider config keys in snake_case, like api_key or password",
		}},
		holds: keysMatch[SecretKeySource](configKeyPattern),
	}
	ruleInferenceServiceNotWithEndpoint = rule[*ProviderSpec]{
		Rule: Rule{On: []string{"ProviderSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!(has(self.inferenceService) && has(self.endpoint))",
			FieldPath: ".inferenceService",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "inferenceService and endpoint are mutually exclusive: llsd derives the endpoint from the InferenceService, so remove endpoint",
		}},
		holds: func(p *ProviderSpec) bool { return p.InferenceService == nil || p.Endpoint == "" },
	}
	ruleInferenceServiceIsVLLM = rule[*ProviderSpec]{
		Rule: Rule{On: []string{"ProviderSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.inferenceService) || self.provider == 'vllm' || self.provider == 'remote::vllm'",
			FieldPath: ".inferenceService",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "inferenceService is for the vllm provider, which speaks the OpenAI API KServe's vLLM and Hugging Face runtimes serve: set provider: vllm",
		}},
		holds: func(p *ProviderSpec) bool {
			return p.InferenceService == nil || p.Provider == "vllm" || p.Provider == "remote::vllm"
		},
	}
	ruleUniqueModelNames = rule[[]ModelSpec]{
		Rule: Rule{On: []string{"ResourcesSpec.models"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(m, self.exists_one(n, n.name == m.name))",
			Message: "model names must be unique: each name is registered once",
		}},
		holds: func(ms []ModelSpec) bool { return unique(ms, func(m ModelSpec) string { return m.Name }) },
	}
	ruleUniqueMCPServerIDs = rule[[]MCPServerSpec]{
		Rule: Rule{On: []string{"ResourcesSpec.mcpServers"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(m, self.exists_one(n, n.id == m.id))",
			Message: "MCP server ids must be unique: each id is one connector",
		}},
		holds: func(ms []MCPServerSpec) bool { return unique(ms, func(m MCPServerSpec) string { return m.ID }) },
	}
	ruleEmbeddingNeedsDimension = rule[*ModelSpec]{
		Rule: Rule{On: []string{"ModelSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.modelType) || self.modelType != 'embedding' || has(self.embeddingDimension)",
			FieldPath: ".embeddingDimension",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message:   "embeddingDimension is required for embedding models: set it to the size of the vectors the model returns (for example 768)",
		}},
		holds: func(m *ModelSpec) bool { return m.ModelType != "embedding" || m.EmbeddingDimension != nil },
	}
	ruleDimensionOnlyForEmbedding = rule[*ModelSpec]{
		Rule: Rule{On: []string{"ModelSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.embeddingDimension) || (has(self.modelType) && self.modelType == 'embedding')",
			FieldPath: ".embeddingDimension",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "embeddingDimension is only valid for embedding models: set modelType: embedding or remove embeddingDimension",
		}},
		holds: func(m *ModelSpec) bool { return m.EmbeddingDimension == nil || m.ModelType == "embedding" },
	}
	ruleTLSNeedsSecret = rule[*TLSSpec]{
		Rule: Rule{On: []string{"TLSSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!(has(self.enabled) && self.enabled) || has(self.secretName)",
			FieldPath: ".secretName",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message:   "secretName is required when TLS is enabled: name a kubernetes.io/tls Secret",
		}},
		holds: func(t *TLSSpec) bool { return !t.Enabled || t.SecretName != "" },
	}
	ruleSecretNeedsTLS = rule[*TLSSpec]{
		Rule: Rule{On: []string{"TLSSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.secretName) || (has(self.enabled) && self.enabled)",
			FieldPath: ".secretName",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "secretName is only valid when TLS is enabled: set enabled: true or remove secretName",
		}},
		holds: func(t *TLSSpec) bool { return t.SecretName == "" || t.Enabled },
	}
	ruleServerTLSSettingsNeedTLS = rule[*TLSSpec]{
		Rule: Rule{On: []string{"TLSSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "!(has(self.ciphers) || has(self.hstsMaxAge)) || (has(self.enabled) && self.enabled)",
			Reason:  ptr.To(apiextensionsv1.FieldValueForbidden),
			Message: "ciphers and hstsMaxAge are the server's own TLS: set enabled: true (with secretName), or remove them",
		}},
		holds: func(t *TLSSpec) bool { return (len(t.Ciphers) == 0 && t.HSTSMaxAge == nil) || t.Enabled },
	}
	ruleCORSCredentialsNeedOrigins = rule[*CORSSpec]{
		Rule: Rule{On: []string{"CORSSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!(has(self.allowCredentials) && self.allowCredentials && has(self.allowOrigins) && '*' in self.allowOrigins)",
			FieldPath: ".allowCredentials",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "allowCredentials cannot go with the \"*\" origin (the server refuses it): name the origins",
		}},
		holds: func(c *CORSSpec) bool { return !c.AllowCredentials || !slices.Contains(c.AllowOrigins, "*") },
	}
	ruleHostnameNeedsExpose = rule[*ExposeSpec]{
		Rule: Rule{On: []string{"ExposeSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.hostname) || !has(self.enabled) || self.enabled",
			FieldPath: ".hostname",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "hostname is only valid when expose is enabled: remove enabled: false or remove hostname",
		}},
		holds: func(e *ExposeSpec) bool { return e.Hostname == "" || e.Enabled == nil || *e.Enabled },
	}
	ruleRouteHasNoClass = notWithRoute("className", func(e *ExposeSpec) bool { return e.ClassName != "" },
		"className is an Ingress class and route makes a Route: remove className, or route")
	ruleRouteHasNoTLSSecret = notWithRoute("tlsSecretName", func(e *ExposeSpec) bool { return e.TLSSecretName != "" },
		"tlsSecretName is the Ingress's certificate and route makes a Route, which serves the router's certificate (or the server's, re-encrypting): remove tlsSecretName, or route")
	ruleExposeAnnotationsNotOurs = annotationsNotOurs("ExposeSpec", func(e *ExposeSpec) map[string]string { return e.Annotations },
		"they name the LlamaStackDistribution an object was generated from")
	ruleCIDRs = rule[[]string]{
		Rule: Rule{On: []string{"AllowedFromSpec.cidrs", "EgressSpec.cidrs"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(c, isCIDR(c))",
			Message: "each cidr is a network such as 10.20.0.0/16 or 203.0.113.7/32",
		}},
		holds: func(cidrs []string) bool {
			return !slices.ContainsFunc(cidrs, func(c string) bool { _, err := netip.ParsePrefix(c); return err != nil })
		},
	}
	rulePodLabelsNotOurs = rule[*PodSettings]{
		Rule: Rule{On: []string{"PodSettings"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.labels) || !self.labels.exists(k, k == 'app' || k.startsWith('app.kubernetes.io/'))",
			FieldPath: ".labels",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "app and app.kubernetes.io/* labels are llsd's: they select the pods and name the distribution; use another key",
		}},
		holds: func(ps *PodSettings) bool {
			return noKey(ps.Labels, func(k string) bool { return k == "app" || strings.HasPrefix(k, "app.kubernetes.io/") })
		},
	}
	rulePodAnnotationsNotOurs = annotationsNotOurs("PodSettings", func(ps *PodSettings) map[string]string { return ps.Annotations },
		"they roll the pods when the config changes")
	ruleOneClaimSource = rule[*ResourceClaimSpec]{
		Rule: Rule{On: []string{"ResourceClaimSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "has(self.resourceClaimName) != has(self.resourceClaimTemplateName)",
			Message: "set resourceClaimName or resourceClaimTemplateName: exactly one",
		}},
		holds: func(rc *ResourceClaimSpec) bool {
			return (rc.ResourceClaimName == "") != (rc.ResourceClaimTemplateName == "")
		},
	}
	ruleMaxAtLeastMin = rule[*AutoscalingSpec]{
		Rule: Rule{On: []string{"AutoscalingSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.minReplicas) || self.maxReplicas >= self.minReplicas",
			FieldPath: ".maxReplicas",
			Message:   "maxReplicas must be greater than or equal to minReplicas",
		}},
		holds: func(a *AutoscalingSpec) bool { return a.MinReplicas == nil || a.MaxReplicas >= *a.MinReplicas },
	}
	ruleBudgetNotBoth = rule[*PodDisruptionBudgetSpec]{
		Rule: Rule{On: []string{"PodDisruptionBudgetSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "!(has(self.minAvailable) && has(self.maxUnavailable))",
			Reason:  ptr.To(apiextensionsv1.FieldValueForbidden),
			Message: "minAvailable and maxUnavailable are mutually exclusive: set one",
		}},
		holds: func(b *PodDisruptionBudgetSpec) bool { return b.MinAvailable == nil || b.MaxUnavailable == nil },
	}
	ruleBudgetNeedsOne = rule[*PodDisruptionBudgetSpec]{
		Rule: Rule{On: []string{"PodDisruptionBudgetSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "has(self.minAvailable) || has(self.maxUnavailable)",
			Reason:  ptr.To(apiextensionsv1.FieldValueRequired),
			Message: "set one of minAvailable or maxUnavailable (maxUnavailable: 1 keeps node drains working with one replica)",
		}},
		holds: func(b *PodDisruptionBudgetSpec) bool { return b.MinAvailable != nil || b.MaxUnavailable != nil },
	}
	ruleUniqueExternalProviderIDs = rule[[]ExternalProviderRef]{
		Rule: Rule{On: []string{"ExternalProvidersSpec.inference", "ExternalProvidersSpec.safety", "ExternalProvidersSpec.vectorIo", "ExternalProvidersSpec.toolRuntime"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(p, self.exists_one(q, q.providerId == p.providerId))",
			Message: "providerId must be unique: give each external provider its own",
		}},
		holds: func(refs []ExternalProviderRef) bool {
			return unique(refs, func(r ExternalProviderRef) string { return r.ProviderID })
		},
	}
	ruleHeaderNames = rule[map[string]SecretKeySource]{
		Rule: Rule{On: []string{"TelemetrySpec.headers"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(k, k.matches('" + headerPattern + "'))",
			Message: "header names are letters, digits and '-', like authorization or x-api-key",
		}},
		holds: keysMatch[SecretKeySource](headerPattern),
	}
	ruleStorageNeedsBackends = rule[*StateStorageSpec]{
		Rule: Rule{On: []string{"StateStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "has(self.kv) || has(self.sql) || has(self.backends)",
			Reason:  ptr.To(apiextensionsv1.FieldValueRequired),
			Message: "storage needs kv or sql, or named backends: set one of them, or remove storage to keep the distribution's storage",
		}},
		holds: func(s *StateStorageSpec) bool { return s.KV != nil || s.SQL != nil || len(s.Backends) > 0 },
	}
	ruleStorageFormsNotMixed = rule[*StateStorageSpec]{
		Rule: Rule{On: []string{"StateStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "!((has(self.kv) || has(self.sql)) && (has(self.backends) || has(self.stores)))",
			Reason:  ptr.To(apiextensionsv1.FieldValueForbidden),
			Message: "kv and sql cannot be mixed with backends and stores: write one of the two forms",
		}},
		holds: func(s *StateStorageSpec) bool {
			return (s.KV == nil && s.SQL == nil) || (len(s.Backends) == 0 && s.Stores == nil)
		},
	}
	ruleStoresNeedBackends = rule[*StateStorageSpec]{
		Rule: Rule{On: []string{"StateStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.stores) || has(self.backends)",
			FieldPath: ".stores",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message:   "stores need backends: define the backends the stores name in storage.backends",
		}},
		holds: func(s *StateStorageSpec) bool { return s.Stores == nil || len(s.Backends) > 0 },
	}
	ruleBackendNames = rule[map[string]StorageBackendSpec]{
		Rule: Rule{On: []string{"StateStorageSpec.backends"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:    "self.all(name, name.matches('" + backendNamePattern + "'))",
			Reason:  ptr.To(apiextensionsv1.FieldValueInvalid),
			Message: "backend names are 1 to 63 letters, digits, '_' or '-'",
		}},
		holds: keysMatch[StorageBackendSpec](backendNamePattern),
	}
	ruleRedisNeedsEndpoint = rule[*KVStorageSpec]{
		Rule: Rule{On: []string{"KVStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!(has(self.type) && self.type == 'redis') || has(self.endpoint)",
			FieldPath: ".endpoint",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message:   "endpoint is required when type is redis: set it to host:port or redis://host:port",
		}},
		holds: func(kv *KVStorageSpec) bool { return kv.Type != StorageTypeRedis || kv.Endpoint != "" },
	}
	ruleEndpointOnlyForRedis          = onlyWhenTypeIs("KVStorageSpec", "endpoint", StorageTypeRedis, kvType, func(kv *KVStorageSpec) bool { return kv.Endpoint != "" })
	rulePasswordOnlyForRedis          = onlyWhenTypeIs("KVStorageSpec", "password", StorageTypeRedis, kvType, func(kv *KVStorageSpec) bool { return kv.Password != nil })
	rulePostgresNeedsConnectionString = rule[*SQLStorageSpec]{
		Rule: Rule{On: []string{"SQLStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!(has(self.type) && self.type == 'postgres') || has(self.connectionString)",
			FieldPath: ".connectionString",
			Reason:    ptr.To(apiextensionsv1.FieldValueRequired),
			Message:   "connectionString is required when type is postgres: point it at a Secret key holding postgresql://user:password@host:port/db",
		}},
		holds: func(sql *SQLStorageSpec) bool { return sql.Type != StorageTypePostgres || sql.ConnectionString != nil },
	}
	ruleConnectionStringOnlyForPostgres = onlyWhenTypeIs("SQLStorageSpec", "connectionString", StorageTypePostgres, sqlType, func(sql *SQLStorageSpec) bool { return sql.ConnectionString != nil })
	ruleTableNameOnlyForKV              = backendFieldOnlyFor("tableName", StorageTypeKVPostgres, func(b *StorageBackendSpec) bool { return b.TableName != "" },
		"remove it (a sql_postgres backend's tables are named by the stores)")
	ruleCommandTimeoutOnlyForKV = backendFieldOnlyFor("commandTimeout", StorageTypeKVPostgres, func(b *StorageBackendSpec) bool { return b.CommandTimeout != nil }, "remove it")
	rulePoolRecycleOnlyForSQL   = backendFieldOnlyFor("poolRecycle", StorageTypeSQLPostgres, func(b *StorageBackendSpec) bool { return b.PoolRecycle != nil }, "remove it")
	rulePoolPrePingOnlyForSQL   = backendFieldOnlyFor("poolPrePing", StorageTypeSQLPostgres, func(b *StorageBackendSpec) bool { return b.PoolPrePing != nil }, "remove it")
)

// onlyWhenTypeIs is the rule that a field of a legacy storage backend is only valid when the
// backend's type is typeName.
func onlyWhenTypeIs[T any](on, fieldName, typeName string, typeOf func(T) string, set func(T) bool) rule[T] {
	return rule[T]{
		Rule: Rule{On: []string{on}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      fmt.Sprintf("!has(self.%s) || (has(self.type) && self.type == '%s')", fieldName, typeName),
			FieldPath: "." + fieldName,
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   fmt.Sprintf("%[1]s is only valid when type is %[2]s: remove it or set type: %[2]s", fieldName, typeName),
		}},
		holds: func(self T) bool { return !set(self) || typeOf(self) == typeName },
	}
}

func kvType(kv *KVStorageSpec) string    { return kv.Type }
func sqlType(sql *SQLStorageSpec) string { return sql.Type }

// backendFieldOnlyFor is the rule that a field of a named backend is only valid for backends
// of one type; fix ends the message.
func backendFieldOnlyFor(fieldName, backendType string, set func(*StorageBackendSpec) bool, fix string) rule[*StorageBackendSpec] {
	return rule[*StorageBackendSpec]{
		Rule: Rule{On: []string{"StorageBackendSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      fmt.Sprintf("!has(self.%s) || self.type == '%s'", fieldName, backendType),
			FieldPath: "." + fieldName,
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   fmt.Sprintf("%s is only valid for %s backends: %s", fieldName, backendType, fix),
		}},
		holds: func(b *StorageBackendSpec) bool { return !set(b) || b.Type == backendType },
	}
}

// notWithRoute is the rule that an Ingress's field of expose is forbidden when route makes a
// Route instead.
func notWithRoute(fieldName string, set func(*ExposeSpec) bool, message string) rule[*ExposeSpec] {
	return rule[*ExposeSpec]{
		Rule: Rule{On: []string{"ExposeSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      fmt.Sprintf("!has(self.route) || !self.route || !has(self.%s)", fieldName),
			FieldPath: "." + fieldName,
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   message,
		}},
		holds: func(e *ExposeSpec) bool { return e.Route == nil || !*e.Route || !set(e) },
	}
}

// annotationsNotOurs forbids llamastack.io/* keys in the annotations of type on: llsd writes
// them, and why says what for.
func annotationsNotOurs[T any](on string, annotations func(T) map[string]string, why string) rule[T] {
	return rule[T]{
		Rule: Rule{On: []string{on}, ValidationRule: apiextensionsv1.ValidationRule{
			Rule:      "!has(self.annotations) || !self.annotations.exists(k, k.startsWith('llamastack.io/'))",
			FieldPath: ".annotations",
			Reason:    ptr.To(apiextensionsv1.FieldValueForbidden),
			Message:   "llamastack.io/* annotations are llsd's: " + why + "; use another key",
		}},
		holds: func(v T) bool { return noKey(annotations(v), isLlamaStackKey) },
	}
}

// typeRules are the rules of the schema's types and fields, in the order the CRD lists them.
func typeRules() []ruleChecker {
	return []ruleChecker{
		ruleDistributionNotBoth,
		ruleDistributionNeedsOne,
		ruleSecretRefKeys,
		ruleInferenceServiceNotWithEndpoint,
		ruleInferenceServiceIsVLLM,
		ruleUniqueModelNames,
		ruleUniqueMCPServerIDs,
		ruleEmbeddingNeedsDimension,
		ruleDimensionOnlyForEmbedding,
		ruleTLSNeedsSecret,
		ruleSecretNeedsTLS,
		ruleServerTLSSettingsNeedTLS,
		ruleCORSCredentialsNeedOrigins,
		ruleHostnameNeedsExpose,
		ruleRouteHasNoClass,
		ruleRouteHasNoTLSSecret,
		ruleExposeAnnotationsNotOurs,
		ruleCIDRs,
		rulePodLabelsNotOurs,
		rulePodAnnotationsNotOurs,
		ruleOneClaimSource,
		ruleMaxAtLeastMin,
		ruleBudgetNotBoth,
		ruleBudgetNeedsOne,
		ruleUniqueExternalProviderIDs,
		ruleHeaderNames,
		ruleStorageNeedsBackends,
		ruleStorageFormsNotMixed,
		ruleStoresNeedBackends,
		ruleBackendNames,
		ruleRedisNeedsEndpoint,
		ruleEndpointOnlyForRedis,
		rulePasswordOnlyForRedis,
		rulePostgresNeedsConnectionString,
		ruleConnectionStringOnlyForPostgres,
		ruleTableNameOnlyForKV,
		ruleCommandTimeoutOnlyForKV,
		rulePoolRecycleOnlyForSQL,
		rulePoolPrePingOnlyForSQL,
	}
}

// Rules are every rule's CEL and where it is on, for hack/crdpatch to place in the CRD, in
// the order the CRD lists them.
func Rules() []Rule {
	rules := allRules()
	out := make([]Rule, len(rules))
	for i, r := range rules {
		out[i] = r.base()
	}
	return out
}

// allRules are the rules of the types and fields and those made from the list of provider APIs.
func allRules() []ruleChecker {
	rules := append(typeRules(), authenticationRules()...)
	for _, r := range append(overrideRules(), disabledRules()...) {
		rules = append(rules, r)
	}
	rules = append(rules, providersRule())
	for _, api := range ProviderAPIs() {
		listRule := providerListRule
		listRule.On = []string{"ProvidersSpec." + string(api)}
		rules = append(rules, listRule)
	}
	return rules
}
