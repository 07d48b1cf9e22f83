// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

// The CEL rules of the v1alpha2 schema, each written once. hack/crdpatch writes each into the
// CRD's x-kubernetes-validations at every field where its type (or its field of a type) occurs,
// and Validate reports its message where its Go check finds the rule broken; the parity suite
// (pkg/api/parity_test.go) proves on a real API server that the Go check and the CEL agree.
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

var (
	ruleDistributionNotBoth = Rule{On: []string{"DistributionSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "!(has(self.name) && has(self.image))",
		Reason:  ptrTo(apiextensionsv1.FieldValueForbidden),
		Message: "name and image are mutually exclusive: set name for a distribution from the catalog, or image for your own",
	}}
	ruleDistributionNeedsOne = Rule{On: []string{"DistributionSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "has(self.name) || has(self.image)",
		Reason:  ptrTo(apiextensionsv1.FieldValueRequired),
		Message: "one of name or image is required: set name (for example starter) or image",
	}}
	ruleSecretRefKeys = Rule{On: []string{"ProviderSpec.secretRefs", "ExternalProviderRef.secretRefs"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "self.all(k, k.matches('^[a-z][a-z0-9_]*$'))",
		Message: "secretRefs keys are provider config keys in snake_case, like api_key or password",
	}}
	ruleUniqueModelNames = Rule{On: []string{"ResourcesSpec.models"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "self.all(m, self.exists_one(n, n.name == m.name))",
		Message: "model names must be unique: each name is registered once",
	}}
	ruleUniqueMCPServerIDs = Rule{On: []string{"ResourcesSpec.mcpServers"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "self.all(m, self.exists_one(n, n.id == m.id))",
		Message: "MCP server ids must be unique: each id is one connector",
	}}
	ruleEmbeddingNeedsDimension = Rule{On: []string{"ModelSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.modelType) || self.modelType != 'embedding' || has(self.embeddingDimension)",
		FieldPath: ".embeddingDimension",
		Reason:    ptrTo(apiextensionsv1.FieldValueRequired),
		Message:   "embeddingDimension is required for embedding models: set it to the size of the vectors the model returns (for example 768)",
	}}
	ruleDimensionOnlyForEmbedding = Rule{On: []string{"ModelSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.embeddingDimension) || (has(self.modelType) && self.modelType == 'embedding')",
		FieldPath: ".embeddingDimension",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "embeddingDimension is only valid for embedding models: set modelType: embedding or remove embeddingDimension",
	}}
	ruleTLSNeedsSecret = Rule{On: []string{"TLSSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!(has(self.enabled) && self.enabled) || has(self.secretName)",
		FieldPath: ".secretName",
		Reason:    ptrTo(apiextensionsv1.FieldValueRequired),
		Message:   "secretName is required when TLS is enabled: name a kubernetes.io/tls Secret",
	}}
	ruleSecretNeedsTLS = Rule{On: []string{"TLSSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.secretName) || (has(self.enabled) && self.enabled)",
		FieldPath: ".secretName",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "secretName is only valid when TLS is enabled: set enabled: true or remove secretName",
	}}
	ruleHostnameNeedsExpose = Rule{On: []string{"ExposeSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.hostname) || !has(self.enabled) || self.enabled",
		FieldPath: ".hostname",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "hostname is only valid when expose is enabled: remove enabled: false or remove hostname",
	}}
	ruleRouteHasNoClass = Rule{On: []string{"ExposeSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.route) || !self.route || !has(self.className)",
		FieldPath: ".className",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "className is an Ingress class and route makes a Route: remove className, or route",
	}}
	ruleRouteHasNoTLSSecret = Rule{On: []string{"ExposeSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.route) || !self.route || !has(self.tlsSecretName)",
		FieldPath: ".tlsSecretName",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "tlsSecretName is the Ingress's certificate and route makes a Route, which serves the router's certificate (or the server's, re-encrypting): remove tlsSecretName, or route",
	}}
	ruleExposeAnnotationsNotOurs = Rule{On: []string{"ExposeSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.annotations) || !self.annotations.exists(k, k.startsWith('llamastack.io/'))",
		FieldPath: ".annotations",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "llamastack.io/* annotations are llsd's: they name the LlamaStackDistribution an object was generated from; use another key",
	}}
	ruleCIDRs = Rule{On: []string{"AllowedFromSpec.cidrs", "EgressSpec.cidrs"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "self.all(c, isCIDR(c))",
		Message: "each cidr is a network such as 10.20.0.0/16 or 203.0.113.7/32",
	}}
	rulePodLabelsNotOurs = Rule{On: []string{"PodSettings"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.labels) || !self.labels.exists(k, k == 'app' || k.startsWith('app.kubernetes.io/'))",
		FieldPath: ".labels",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "app and app.kubernetes.io/* labels are llsd's: they select the pods and name the distribution; use another key",
	}}
	rulePodAnnotationsNotOurs = Rule{On: []string{"PodSettings"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.annotations) || !self.annotations.exists(k, k.startsWith('llamastack.io/'))",
		FieldPath: ".annotations",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "llamastack.io/* annotations are llsd's: they roll the pods when the config changes; use another key",
	}}
	ruleOneClaimSource = Rule{On: []string{"ResourceClaimSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "has(self.resourceClaimName) != has(self.resourceClaimTemplateName)",
		Message: "set resourceClaimName or resourceClaimTemplateName: exactly one",
	}}
	ruleMaxAtLeastMin = Rule{On: []string{"AutoscalingSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.minReplicas) || self.maxReplicas >= self.minReplicas",
		FieldPath: ".maxReplicas",
		Message:   "maxReplicas must be greater than or equal to minReplicas",
	}}
	ruleBudgetNotBoth = Rule{On: []string{"PodDisruptionBudgetSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "!(has(self.minAvailable) && has(self.maxUnavailable))",
		Reason:  ptrTo(apiextensionsv1.FieldValueForbidden),
		Message: "minAvailable and maxUnavailable are mutually exclusive: set one",
	}}
	ruleBudgetNeedsOne = Rule{On: []string{"PodDisruptionBudgetSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "has(self.minAvailable) || has(self.maxUnavailable)",
		Reason:  ptrTo(apiextensionsv1.FieldValueRequired),
		Message: "set one of minAvailable or maxUnavailable (maxUnavailable: 1 keeps node drains working with one replica)",
	}}
	ruleUniqueExternalProviderIDs = Rule{On: []string{"ExternalProvidersSpec.inference", "ExternalProvidersSpec.safety", "ExternalProvidersSpec.vectorIo", "ExternalProvidersSpec.toolRuntime"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "self.all(p, self.exists_one(q, q.providerId == p.providerId))",
		Message: "providerId must be unique: give each external provider its own",
	}}
	ruleHeaderNames = Rule{On: []string{"TelemetrySpec.headers"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "self.all(k, k.matches('^[A-Za-z0-9-]+$'))",
		Message: "header names are letters, digits and '-', like authorization or x-api-key",
	}}
	ruleStorageNeedsBackends = Rule{On: []string{"StateStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "has(self.kv) || has(self.sql) || has(self.backends)",
		Reason:  ptrTo(apiextensionsv1.FieldValueRequired),
		Message: "storage needs kv or sql, or named backends: set one of them, or remove storage to keep the distribution's storage",
	}}
	ruleStorageFormsNotMixed = Rule{On: []string{"StateStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "!((has(self.kv) || has(self.sql)) && (has(self.backends) || has(self.stores)))",
		Reason:  ptrTo(apiextensionsv1.FieldValueForbidden),
		Message: "kv and sql cannot be mixed with backends and stores: write one of the two forms",
	}}
	ruleStoresNeedBackends = Rule{On: []string{"StateStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.stores) || has(self.backends)",
		FieldPath: ".stores",
		Reason:    ptrTo(apiextensionsv1.FieldValueRequired),
		Message:   "stores need backends: define the backends the stores name in storage.backends",
	}}
	ruleBackendNames = Rule{On: []string{"StateStorageSpec.backends"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:    "self.all(name, name.matches('^[A-Za-z0-9_-]{1,63}$'))",
		Reason:  ptrTo(apiextensionsv1.FieldValueInvalid),
		Message: "backend names are 1 to 63 letters, digits, '_' or '-'",
	}}
	ruleRedisNeedsEndpoint = Rule{On: []string{"KVStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!(has(self.type) && self.type == 'redis') || has(self.endpoint)",
		FieldPath: ".endpoint",
		Reason:    ptrTo(apiextensionsv1.FieldValueRequired),
		Message:   "endpoint is required when type is redis: set it to host:port or redis://host:port",
	}}
	ruleEndpointOnlyForRedis = Rule{On: []string{"KVStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.endpoint) || (has(self.type) && self.type == 'redis')",
		FieldPath: ".endpoint",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "endpoint is only valid when type is redis: remove it or set type: redis",
	}}
	rulePasswordOnlyForRedis = Rule{On: []string{"KVStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.password) || (has(self.type) && self.type == 'redis')",
		FieldPath: ".password",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "password is only valid when type is redis: remove it or set type: redis",
	}}
	rulePostgresNeedsConnectionString = Rule{On: []string{"SQLStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!(has(self.type) && self.type == 'postgres') || has(self.connectionString)",
		FieldPath: ".connectionString",
		Reason:    ptrTo(apiextensionsv1.FieldValueRequired),
		Message:   "connectionString is required when type is postgres: point it at a Secret key holding postgresql://user:password@host:port/db",
	}}
	ruleConnectionStringOnlyForPostgres = Rule{On: []string{"SQLStorageSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.connectionString) || (has(self.type) && self.type == 'postgres')",
		FieldPath: ".connectionString",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "connectionString is only valid when type is postgres: remove it or set type: postgres",
	}}
	ruleTableNameOnlyForKV = Rule{On: []string{"StorageBackendSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.tableName) || self.type == 'kv_postgres'",
		FieldPath: ".tableName",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "tableName is only valid for kv_postgres backends: remove it (a sql_postgres backend's tables are named by the stores)",
	}}
	ruleCommandTimeoutOnlyForKV = Rule{On: []string{"StorageBackendSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.commandTimeout) || self.type == 'kv_postgres'",
		FieldPath: ".commandTimeout",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "commandTimeout is only valid for kv_postgres backends: remove it",
	}}
	rulePoolRecycleOnlyForSQL = Rule{On: []string{"StorageBackendSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.poolRecycle) || self.type == 'sql_postgres'",
		FieldPath: ".poolRecycle",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "poolRecycle is only valid for sql_postgres backends: remove it",
	}}
	rulePoolPrePingOnlyForSQL = Rule{On: []string{"StorageBackendSpec"}, ValidationRule: apiextensionsv1.ValidationRule{
		Rule:      "!has(self.poolPrePing) || self.type == 'sql_postgres'",
		FieldPath: ".poolPrePing",
		Reason:    ptrTo(apiextensionsv1.FieldValueForbidden),
		Message:   "poolPrePing is only valid for sql_postgres backends: remove it",
	}}
)

// TypeRules are the rules of the schema's types and fields, in the order the CRD lists them.
func TypeRules() []Rule {
	return []Rule{
		ruleDistributionNotBoth,
		ruleDistributionNeedsOne,
		ruleSecretRefKeys,
		ruleUniqueModelNames,
		ruleUniqueMCPServerIDs,
		ruleEmbeddingNeedsDimension,
		ruleDimensionOnlyForEmbedding,
		ruleTLSNeedsSecret,
		ruleSecretNeedsTLS,
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
