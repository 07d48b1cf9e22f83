// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Environment variables of the storage backends. The connection string and the redis
// password come from Secrets; the launcher turns them into the fields the server reads.
var (
	EnvSQLConnectionString = EnvName("storage", "sql", "connection_string")
	EnvSQLHost             = EnvName("storage", "sql", "host")
	EnvSQLPort             = EnvName("storage", "sql", "port")
	EnvSQLDB               = EnvName("storage", "sql", "db")
	EnvSQLUser             = EnvName("storage", "sql", "user")
	EnvSQLPassword         = EnvName("storage", "sql", "password")
	// The same connection unescaped, for the psycopg2 key-value backend (kv_postgres).
	EnvPGHost     = EnvName("storage", "pg", "host")
	EnvPGPort     = EnvName("storage", "pg", "port")
	EnvPGDB       = EnvName("storage", "pg", "db")
	EnvPGUser     = EnvName("storage", "pg", "user")
	EnvPGPassword = EnvName("storage", "pg", "password")
	EnvKVPassword = EnvName("storage", "kv", "password")
	EnvKVEndpoint = EnvName("storage", "kv", "endpoint")
	EnvKVHost     = EnvName("storage", "kv", "host")
)

var storagePath = field.NewPath("spec", "storage")

// applyStorage replaces the base's kv and sql backends with spec.storage's. Without
// spec.storage (or without one of kv/sql) the distribution's backend stays untouched.
func (g *generator) applyStorage() {
	s := g.spec.Storage
	if s == nil {
		return
	}
	if len(s.Backends) > 0 {
		g.applyNamedStorage(s)
		return
	}
	if s.KV != nil {
		g.applyKV(s.KV)
	}
	if s.SQL != nil {
		g.applySQL(s.SQL)
	}
}

func (g *generator) applyKV(kv *v1alpha2.KVStorageSpec) {
	name, backends := g.legacyBackend("kv_", kv.Type, "kvstore.db")
	if kv.Type != v1alpha2.StorageTypeRedis {
		return
	}
	path := storagePath.Child("kv", "endpoint")
	host, port, err := parseRedisEndpoint(kv.Endpoint)
	if err != nil {
		g.errs = append(g.errs, field.Invalid(path, endpointShown(kv.Endpoint), err.Error()))
		return
	}
	backend := map[string]any{"type": "kv_redis", "host": host, "port": port}
	if kv.Password != nil {
		// The server connects to redis://{host}:{port} and has no password field; the
		// launcher puts ":<password>@" in front of the host, inside the pod.
		backend["host"] = Placeholder(EnvKVHost)
		g.addValue(EnvKVEndpoint, host, path)
		g.addSecret(EnvKVPassword, kv.Password.SecretKeyRef, storagePath.Child("kv", "password"))
		g.launcher.redis = true
	}
	backends[name] = backend
}

func (g *generator) applySQL(sql *v1alpha2.SQLStorageSpec) {
	name, backends := g.legacyBackend("sql_", sql.Type, "sql_store.db")
	if sql.Type != v1alpha2.StorageTypePostgres {
		return
	}
	// The server takes no connection string: the launcher splits it into these.
	backends[name] = map[string]any{
		"type":     "sql_postgres",
		"host":     Placeholder(EnvSQLHost),
		"port":     Placeholder(EnvSQLPort),
		"db":       Placeholder(EnvSQLDB),
		"user":     Placeholder(EnvSQLUser),
		"password": Placeholder(EnvSQLPassword),
	}
	// The distribution's Postgres key-value backend (postgres-demo's) moves to the same
	// database: it would otherwise stay on the base's host, localhost by default.
	for _, other := range slices.Sorted(maps.Keys(backends)) {
		if b := mapAt(backends, other); b["type"] == "kv_postgres" {
			b["host"], b["port"], b["db"] = Placeholder(EnvPGHost), Placeholder(EnvPGPort), Placeholder(EnvPGDB)
			b["user"], b["password"] = Placeholder(EnvPGUser), Placeholder(EnvPGPassword)
		}
	}
	g.addSecret(EnvSQLConnectionString, sql.ConnectionString.SecretKeyRef, storagePath.Child("sql", "connectionString"))
	g.launcher.postgres = true
}

// legacyBackend returns the backend a kv or sql spec (family "kv_" or "sql_") sets and the
// config's backends. A sqlite one it makes so itself, its database named file; one that
// already is stays untouched (with its own path).
func (g *generator) legacyBackend(family, storageType, file string) (string, map[string]any) {
	name := g.backendName(family)
	backends := ensureMap(ensureMap(g.cfg, "storage"), "backends")
	if current, _ := backends[name].(map[string]any); storageType == v1alpha2.StorageTypeSQLite &&
		(current == nil || current["type"] != family+"sqlite") {
		backends[name] = map[string]any{"type": family + "sqlite", "db_path": g.sqliteDir() + "/" + file}
	}
	return name, backends
}

// backendName is the storage backend of a family ("kv_" or "sql_") the server stores use:
// the one stores.metadata (kv) or stores.inference (sql) references, else the only one of
// that family, else kv_default / sql_default.
func (g *generator) backendName(family string) string {
	storage := mapAt(g.cfg, "storage")
	backends := mapAt(storage, "backends")
	store := "metadata"
	if family == "sql_" {
		store = "inference"
	}
	if ref, ok := mapAt(mapAt(storage, "stores"), store)["backend"].(string); ok && backends[ref] != nil {
		return ref
	}
	var found []string
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		if t, _ := mapAt(backends, name)["type"].(string); strings.HasPrefix(t, family) {
			found = append(found, name)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return family + "default"
}

// stateDirDefault matches ${env.X:=<state dir>/...} (X, the rest of the path).
func stateDirDefault(stateDir string) *regexp.Regexp {
	return regexp.MustCompile(`\$\{env\.([A-Z0-9_]+):=` + regexp.QuoteMeta(stateDir) + `(/[^}]*)?\}`)
}

// applyStatePaths moves the files the server writes under its state directory (~/.llama,
// /.llama for the image's user; ~/.ogx from 0.8) onto workload.storage's volume when it is
// mounted elsewhere: each ${env.X:=~/.llama/...} default gets X=<mountPath>/... in the pod
// (SQLITE_STORE_DIR, FILES_STORAGE_DIR, MILVUS_DB_PATH, ...), unless
// spec.workload.overrides.env sets X.
func (g *generator) applyStatePaths() {
	w := g.spec.Workload
	if w == nil || w.Storage == nil || w.Storage.MountPath == "" || w.Storage.MountPath == g.prof.StateDir {
		return
	}
	mount := strings.TrimSuffix(w.Storage.MountPath, "/")
	path := field.NewPath("spec", "workload", "storage", "mountPath")
	pattern := stateDirDefault(g.prof.HomeStateDir())
	configyaml.EachString(g.cfg, func(s string) {
		for _, m := range pattern.FindAllStringSubmatch(s, -1) {
			if !g.podSets(m[1]) {
				g.addValue(m[1], mount+m[2], path)
			}
		}
	})
}

// sqliteDir is where the distribution keeps its sqlite files; SQLITE_STORE_DIR moves them
// (onto the PVC of workload.storage, for example).
func (g *generator) sqliteDir() string {
	distro := g.dist.DistroName
	if distro == "" {
		distro = "llsd"
	}
	return "${env.SQLITE_STORE_DIR:=" + g.prof.HomeStateDir() + "/distributions/" + distro + "}"
}

var errRedisCredentials = fmt.Errorf("the endpoint must not hold credentials (it is stored in a ConfigMap in clear): use storage.kv.password")

// parseRedisEndpoint reads host:port or redis://host:port. The server's redis backend has
// no TLS, database index or password field, so rediss:// and paths are errors.
func parseRedisEndpoint(endpoint string) (string, int64, error) {
	raw := endpoint
	if redact.HasCredentials(endpoint) {
		return "", 0, errRedisCredentials
	}
	if strings.HasPrefix(raw, "rediss://") {
		return "", 0, fmt.Errorf("the server's redis backend cannot use TLS (it connects to redis://host:port): use a redis:// endpoint")
	}
	if !strings.HasPrefix(raw, "redis://") {
		raw = "redis://" + raw
	}
	if notAPort().MatchString(raw) {
		return "", 0, fmt.Errorf("what follows the host's colon is no port: use host:port, and put a password in a Secret named by storage.kv.password")
	}
	u, err := v1alpha2.ParseEndpoint(raw, "")
	if err != nil || u.Hostname() == "" {
		return "", 0, fmt.Errorf("use host:port or redis://host:port, for example redis.cache.svc:6379")
	}
	if u.User != nil || redact.HasCredentials(endpoint) {
		return "", 0, errRedisCredentials
	}
	if strings.Trim(u.Path, "/") != "" || u.RawQuery != "" {
		return "", 0, fmt.Errorf("the server's redis backend has no database index or options: use host:port")
	}
	port, err := v1alpha2.PortOr(u, 6379)
	if err != nil {
		return "", 0, err
	}
	return u.Hostname(), port, nil
}

// notAPort matches an endpoint whose host is followed by a colon and something that is no port
// number (redis:<password>): group 1 is what comes before it.
var notAPort = lazyre.New(`^((?:[A-Za-z][A-Za-z0-9+.-]*://)?[^/?#:\[\]@]*):[^/?#]*[^0-9/?#][^/?#]*`)

// endpointShown is an endpoint as an error shows it: its credentials hidden (redact.URL), and
// what follows the host's colon too when it is no port, since that may be a password written
// where the port goes.
func endpointShown(endpoint string) string {
	shown := redact.URL(endpoint)
	if m := notAPort().FindStringSubmatchIndex(shown); m != nil {
		return shown[:m[3]] + ":" + redact.Mask + shown[m[1]:]
	}
	return shown
}

// localBackends lists the storage backends of the server's stores (metadata, conversations,
// ...) that keep data in the pod's own files.
func localBackends(cfg map[string]any) []string {
	storage := mapAt(cfg, "storage")
	backends, stores := mapAt(storage, "backends"), mapAt(storage, "stores")
	var local []string
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		t, _ := mapAt(backends, name)["type"].(string)
		if !strings.HasSuffix(t, "_sqlite") {
			continue
		}
		for _, store := range slices.Sorted(maps.Keys(stores)) {
			if mapAt(stores, store)["backend"] == name {
				local = append(local, fmt.Sprintf("%s (%s)", name, t))
				break
			}
		}
	}
	return local
}

// localProviders lists the enabled providers that keep files in the pod: uploaded files,
// local vector databases.
func localProviders(p *profile.Profile, cfg map[string]any) []string {
	var local []string
	for _, api := range slices.Sorted(maps.Keys(mapAt(cfg, "providers"))) {
		for _, entry := range providerList(cfg, api) {
			t, _ := entry["provider_type"].(string)
			config := mapAt(entry, "config")
			_, dir := config["storage_dir"]
			if isLiteral(entry["provider_id"]) && (dir || fieldMapFor(p, api, t).DBPath != "") {
				local = append(local, fmt.Sprintf("%s provider %v (%s)", api, entry["provider_id"], t))
			}
		}
	}
	return local
}
