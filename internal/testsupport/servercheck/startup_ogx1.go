// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// The start-up rules OGX 1.x added (C2, T1, OGX-S6, ...; testdata/startup holds a config that
// breaks each). Rules whose id collides with one of the 0.x rules' carry the prefix OGX-.

// checkOGX1 runs the rules of the 1.x versions.
func (s *startup) checkOGX1() {
	if !ogx1(s.version) {
		return
	}
	s.checkInteractionsStore()
	s.checkInlineChroma()
	if atLeast(s.version, "1.1") {
		s.checkAccessPolicyStores()
	}
	if atLeast(s.version, "1.2") {
		s.checkTLSMode()
		s.checkTenancy()
	}
}

// fipsCiphers are the cipher suites server.tls_config may name (src/ogx/core/server_tls.py:16-23@v1.2.0).
var fipsCiphers = []string{
	"ECDHE-ECDSA-AES128-GCM-SHA256", "ECDHE-RSA-AES128-GCM-SHA256", "ECDHE-ECDSA-AES256-GCM-SHA384",
	"ECDHE-RSA-AES256-GCM-SHA384", "DHE-RSA-AES128-GCM-SHA256", "DHE-RSA-AES256-GCM-SHA384",
}

// checkTLSMode: C2 (no TLS pair and not insecure, by the config or the command line: "TLS
// required"), C3 (FIPS ciphers, checked at the first parse, with the file's own insecure
// only), C5 (verify_tls: false in auth needs insecure).
func (s *startup) checkTLSMode() {
	server, _ := s.cfg["server"].(map[string]any)
	fileInsecure := server["insecure"] == true
	insecure := fileInsecure || s.pod.Insecure
	tls := truthy(server["tls_certfile"]) && truthy(server["tls_keyfile"])
	if !tls && !insecure {
		s.fail("C2", "server", "TLS required: set tls_certfile/tls_keyfile in server config or pass '--insecure' to disable.")
	}
	if tls && !fileInsecure {
		cfg, _ := server["tls_config"].(map[string]any)
		if ciphers, written := cfg["ciphers"]; written {
			list := stringList(ciphers)
			var invalid []string
			for _, c := range list {
				if !slices.Contains(fipsCiphers, c) {
					invalid = append(invalid, c)
				}
			}
			switch {
			case len(list) == 0:
				s.fail("C3", "server.tls_config.ciphers", "At least one cipher suite must be specified.")
			case len(invalid) > 0:
				s.fail("C3", "server.tls_config.ciphers", "FIPS-approved ciphers required. Invalid: %v", invalid)
			}
		}
	}
	auth, _ := server["auth"].(map[string]any)
	provider, _ := auth["provider_config"].(map[string]any)
	if provider["verify_tls"] == false && !insecure {
		s.fail("C5", "server.auth.provider_config.verify_tls",
			"FATAL: verify_tls=False in auth provider config. TLS verification is required. Use '--insecure' to override.")
	}
}

// tenantID is what default_tenant_id must be after strip and lower-case (T2).
var tenantID = regexp.MustCompile(`^[a-z0-9][a-z0-9\-_]{0,127}$`)

// checkTenancy: T1 and T2 (single mode needs a valid tenant id), T3 (multi mode needs a
// metadata store for every vector_io provider).
func (s *startup) checkTenancy() {
	server, _ := s.cfg["server"].(map[string]any)
	tenancy, _ := server["tenancy"].(map[string]any)
	if id, ok := tenancy["default_tenant_id"].(string); ok {
		if normalized := strings.ToLower(strings.TrimSpace(id)); !tenantID.MatchString(normalized) {
			s.fail("T2", "server.tenancy.default_tenant_id", "tenant_id must match [a-z0-9][a-z0-9-_]{0,127}: %q", id)
		}
	}
	switch tenancy["mode"] {
	case "single":
		if tenancy["default_tenant_id"] == nil {
			s.fail("T1", "server.tenancy", "default_tenant_id is required when tenancy mode is 'single'")
		}
	case "multi":
		s.checkVectorMetadataStores("T3", "metadata_store is required when tenancy mode is 'multi'", nil)
	}
}

// policyAwareVectorIO are the vector_io types whose provider receives the access policy
// (src/ogx/providers/{inline,remote}/vector_io/*/__init__.py@v1.3.0): not inline chromadb, not
// remote oci.
var policyAwareVectorIO = strings.Fields("inline::faiss inline::sqlite-vec inline::milvus inline::qdrant remote::chromadb " +
	"remote::pgvector remote::milvus remote::qdrant remote::weaviate remote::elasticsearch remote::infinispan remote::neo4j")

// checkAccessPolicyStores: OGX-S6, with an access policy every policy-aware vector_io provider
// needs a metadata store (its own, or storage.stores.vector_stores).
func (s *startup) checkAccessPolicyStores() {
	server, _ := s.cfg["server"].(map[string]any)
	auth, _ := server["auth"].(map[string]any)
	if len(entries(auth["access_policy"])) == 0 {
		return
	}
	s.checkVectorMetadataStores("OGX-S6", "metadata_store is required when access control policies are configured", policyAwareVectorIO)
}

// checkVectorMetadataStores fails for each enabled vector_io provider (of the types in only,
// when set) without a metadata store of its own when storage.stores.vector_stores is not set.
func (s *startup) checkVectorMetadataStores(rule, reason string, only []string) {
	storage, _ := s.cfg["storage"].(map[string]any)
	stores, _ := storage["stores"].(map[string]any)
	if stores["vector_stores"] != nil {
		return
	}
	for _, id := range slices.Sorted(maps.Keys(s.enabled["vector_io"])) {
		entry := s.enabled["vector_io"][id]
		t, _ := entry["provider_type"].(string)
		config, _ := entry["config"].(map[string]any)
		if only != nil && !slices.Contains(only, t) || config["metadata_store"] != nil {
			continue
		}
		s.fail(rule, fmt.Sprintf("providers.vector_io[%s]", id), "Failed to initialize vector store provider: %s. "+
			"Configure storage.stores.vector_stores in your server config.", reason)
	}
}

// checkInteractionsStore: OGX-S5, the interactions provider opens its store, by default
// {backend: sql_default, table_name: interactions}, at start-up.
func (s *startup) checkInteractionsStore() {
	for _, id := range slices.Sorted(maps.Keys(s.enabled["interactions"])) {
		entry := s.enabled["interactions"][id]
		config, _ := entry["config"].(map[string]any)
		if entry["provider_type"] != "inline::builtin" || config["store"] != nil {
			continue
		}
		if s.backendKind("sql_default") != "sql" {
			s.fail("OGX-S5", fmt.Sprintf("providers.interactions[%s].config.store", id),
				"Unknown SQL store backend 'sql_default'. Registered backends: %s (the default store of the interactions provider)", s.backendNames("sql"))
		}
	}
}

// checkInlineChroma: OGX-P4, inline::chromadb is served by the remote adapter, whose
// initialize reads a metadata_store attribute the inline config class does not have.
func (s *startup) checkInlineChroma() {
	for _, id := range slices.Sorted(maps.Keys(s.enabled["vector_io"])) {
		if s.providerType("vector_io", id) == "inline::chromadb" {
			s.fail("OGX-P4", fmt.Sprintf("providers.vector_io[%s]", id),
				"AttributeError: 'ChromaVectorIOConfig' object has no attribute 'metadata_store': use remote::chromadb")
		}
	}
}
