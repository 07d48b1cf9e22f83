// SPDX-License-Identifier: Apache-2.0

package config

import (
	"cmp"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// defaultPostgresDB is the server's database name for a named Postgres backend that names
// none, written out as the successor operator writes it (with the port): a reader of the
// ConfigMap sees where the server connects without knowing pydantic's defaults. A backend
// without host is an error (namedBackend), so no default host is ever written.
const defaultPostgresDB = "ogx"

// The stores every OGX 1.x server needs: a store left out of an explicit stores is written
// as null, and the server stops at start-up ("storage.stores.metadata must be configured",
// "Service 'storage.stores.prompts' is not enabled").
var requiredStores = []string{"metadata", "inference", "conversations", "prompts", "connectors"}

// applyNamedStorage replaces the base's whole storage section with spec.storage.backends and
// stores, as the successor operator does: the server then has exactly these backends.
//
//	storage:
//	  backends:
//	    kv_default: {type: kv_postgres, host: pg.db.svc, user: ogx, password: {secretKeyRef: {name: pg, key: password}}}
//	    sql_default: {type: sql_postgres, host: pg.db.svc, user: ogx, password: {secretKeyRef: {name: pg, key: password}}}
//
// becomes storage.backends with both (the password as ${env.LLSD_STORAGE_BACKENDS_KV_DEFAULT_PASSWORD})
// and the default stores: metadata in the key-value backend, the others in the SQL one.
func (g *generator) applyNamedStorage(s *v1alpha2.StateStorageSpec) {
	path := storagePath.Child("backends")
	if len(g.prof.PostgresBackendKeys) == 0 {
		g.errs = append(g.errs, field.Forbidden(path, fmt.Sprintf(
			"named backends and stores are the storage of OGX 1.0 and newer, and %s %s keeps prompts and connectors in key-value stores: "+
				"write storage.kv and storage.sql, or set ⟦spec.distribution.serverVersion⟧ to 1.0 or newer", g.prof.Product, g.prof.Version)))
		return
	}
	backends := map[string]any{}
	for _, name := range slices.Sorted(maps.Keys(s.Backends)) {
		backends[name] = g.namedBackend(name, s.Backends[name], path.Child(name))
	}
	var stores map[string]any
	if s.Stores == nil {
		stores = g.defaultNamedStores(s.Backends)
	} else {
		stores = g.namedStores(s.Stores, s.Backends)
	}
	ensureMap(g.cfg, "storage")["backends"] = backends
	mapAt(g.cfg, "storage")["stores"] = stores
}

func (g *generator) namedBackend(name string, b v1alpha2.StorageBackendSpec, path *field.Path) map[string]any {
	host, known := g.asThePodReadsIt(b.Host)
	switch {
	case !known:
		// a variable the pod does not set plainly: checkUserValues refuses it
	case host != "" && !isHost(host):
		// The value is not shown: user info before an @, a query or a fragment may hold a password.
		g.errs = append(g.errs, field.Forbidden(path.Child("host"),
			"is no host name or IP address (it holds user info, a path, a query or a fragment, which the ConfigMap would store in clear): "+
				"write the database's host alone, the port in port, the user in user and the password in a Secret (password)"))
	case host == "" || localhostDefault().MatchString(host):
		g.errs = append(g.errs, field.Required(path.Child("host"), fmt.Sprintf(
			"backend %s connects to localhost (the server's default host), where nothing listens in the server's pod: set host to the database's service, for example postgres.<namespace>.svc", name)))
	}
	out := map[string]any{
		"type": b.Type,
		"host": b.Host,
		"port": int64(b.PortOrDefault()),
		"db":   cmp.Or(b.DB, defaultPostgresDB),
		"user": b.User,
	}
	if b.Password != nil {
		env := EnvName("storage", "backends", name, "password")
		g.addSecret(env, b.Password.SecretKeyRef, path.Child("password"))
		out["password"] = Placeholder(env)
	}
	for _, o := range []struct {
		field, key string
		value      any
	}{
		{"sslMode", "ssl_mode", b.SSLMode}, {"caCertPath", "ca_cert_path", b.CACertPath}, {"tableName", "table_name", b.TableName},
		{"poolSize", "pool_size", b.PoolSize}, {"maxOverflow", "max_overflow", b.MaxOverflow},
		{"commandTimeout", "command_timeout", b.CommandTimeout}, {"poolRecycle", "pool_recycle", b.PoolRecycle},
		{"poolPrePing", "pool_pre_ping", b.PoolPrePing},
	} {
		value, set := optionalValue(o.value)
		if !set {
			continue
		}
		if !slices.Contains(g.prof.PostgresBackendKeys[b.Type], o.key) {
			g.errs = append(g.errs, field.Forbidden(path.Child(o.field), fmt.Sprintf(
				"%s %s does not accept %s on %s backends: remove it, or set ⟦spec.distribution.serverVersion⟧ to a version that does",
				g.prof.Product, g.prof.Version, o.field, b.Type)))
			continue
		}
		out[o.key] = value
	}
	return out
}

// hostName is a DNS name as a database's host is written: letters, digits, - and _, in labels
// separated by dots.
var hostName = lazyre.New(`^[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?(\.[A-Za-z0-9_]([A-Za-z0-9_-]*[A-Za-z0-9_])?)*\.?$`)

// isHost reports whether host is a host name or an IP address (an IPv6 one also in brackets):
// nothing of a URL around it, where a credential could ride (pg.db.svc/?password=..., u:p@pg).
func isHost(host string) bool {
	if ip := strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"); net.ParseIP(ip) != nil {
		return true
	}
	return hostName().MatchString(host)
}

// optionalValue is the config value of an optional field, and whether it is set.
func optionalValue(v any) (any, bool) {
	switch v := v.(type) {
	case string:
		return v, v != ""
	case *int32:
		if v == nil {
			return nil, false
		}
		return int64(*v), true
	case *bool:
		if v == nil {
			return nil, false
		}
		return *v, true
	}
	return nil, false
}

// defaultNamedStores puts the server's stores in the one key-value and the one SQL backend.
func (g *generator) defaultNamedStores(backends map[string]v1alpha2.StorageBackendSpec) map[string]any {
	kv := g.soleBackend(backends, v1alpha2.StorageTypeKVPostgres)
	sql := g.soleBackend(backends, v1alpha2.StorageTypeSQLPostgres)
	return map[string]any{
		"metadata":      map[string]any{"backend": kv, "namespace": "registry"},
		"inference":     map[string]any{"backend": sql, "table_name": "inference_store"},
		"conversations": map[string]any{"backend": sql, "table_name": "openai_conversations"},
		"prompts":       map[string]any{"backend": sql, "table_name": "prompts"},
		"connectors":    map[string]any{"backend": sql, "table_name": "connectors"},
	}
}

func (g *generator) soleBackend(backends map[string]v1alpha2.StorageBackendSpec, backendType string) string {
	var found []string
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		if backends[name].Type == backendType {
			found = append(found, name)
		}
	}
	if len(found) != 1 {
		g.errs = append(g.errs, field.Required(storagePath.Child("stores"), fmt.Sprintf(
			"without stores, the server's stores go to the one %s backend, and there are %d (%s): set storage.stores, "+
				"or define exactly one %s backend", backendType, len(found), strings.Join(found, ", "), backendType)))
		return ""
	}
	return found[0]
}

// namedStores writes every store of stores; one left out is null, as the successor writes
// it, which the server refuses for the stores it needs.
func (g *generator) namedStores(s *v1alpha2.StorageStoresSpec, backends map[string]v1alpha2.StorageBackendSpec) map[string]any {
	path := storagePath.Child("stores")
	out := map[string]any{"metadata": nil, "inference": nil, "conversations": nil, "responses": nil,
		"prompts": nil, "connectors": nil, "vector_stores": nil}
	set := func(key, specName, backend, family string, ref map[string]any) {
		if t := backends[backend].Type; t == "" {
			g.errs = append(g.errs, field.NotFound(path.Child(specName, "backend"), backend))
		} else if !strings.HasPrefix(t, family) {
			g.errs = append(g.errs, field.Invalid(path.Child(specName, "backend"), backend, fmt.Sprintf(
				"the %s store needs a %spostgres backend, and %s is %s", specName, family, backend, t)))
		}
		ref["backend"] = backend
		out[key] = ref
	}
	if m := s.Metadata; m != nil {
		set("metadata", "metadata", m.Backend, "kv_", map[string]any{"namespace": m.Namespace})
	}
	if i := s.Inference; i != nil {
		set("inference", "inference", i.Backend, "sql_", writerStore(i.TableName, i.MaxWriteQueueSize, i.NumWriters))
	}
	if r := s.Responses; r != nil {
		set("responses", "responses", r.Backend, "sql_", writerStore(r.TableName, r.MaxWriteQueueSize, r.NumWriters))
	}
	for _, store := range []struct {
		key, specName string
		ref           *v1alpha2.SQLStoreRef
	}{
		{"conversations", "conversations", s.Conversations}, {"prompts", "prompts", s.Prompts},
		{"connectors", "connectors", s.Connectors}, {"vector_stores", "vectorStores", s.VectorStores},
	} {
		if store.ref != nil {
			set(store.key, store.specName, store.ref.Backend, "sql_", map[string]any{"table_name": store.ref.TableName})
		}
	}
	var missing []string
	for _, name := range requiredStores {
		if out[name] == nil {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		g.errs = append(g.errs, field.Required(path, fmt.Sprintf(
			"stores leaves out %s, and the server does not start without them (a store left out is not configured at all): "+
				"name a backend for each, or remove stores to have them all in the one kv_postgres and the one sql_postgres backend",
			strings.Join(missing, ", "))))
	}
	return out
}

// writerStore is a SQL store with background writers (inference, responses).
func writerStore(table string, queue, writers *int32) map[string]any {
	out := map[string]any{}
	if table != "" {
		out["table_name"] = table
	}
	if queue != nil {
		out["max_write_queue_size"] = int64(*queue)
	}
	if writers != nil {
		out["num_writers"] = int64(*writers)
	}
	return out
}
