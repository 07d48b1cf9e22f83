// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// checkServer: the server block and the port variable (H-rules).
func (s *startup) checkServer() {
	if name := portEnv[s.version]; name != "" {
		if v := s.pod.Getenv(name); v != "" {
			if _, err := strconv.Atoi(strings.TrimSpace(v)); err != nil {
				s.fail("H1", name, "ValueError: invalid literal for int() with base 10: %q (the CLI reads its port from %s)", v, name)
			}
		}
	}
	server, _ := s.cfg["server"].(map[string]any)
	if server == nil {
		return
	}
	if workers, _ := server["workers"].(int64); s.version == "0.6" && workers > 1 && server["host"] == nil {
		s.fail("H2", "server.workers", "uvicorn cannot bind the host list ['::', '0.0.0.0'] with several workers: set server.host")
	}
	cert, key := truthy(server["tls_certfile"]), truthy(server["tls_keyfile"])
	if cert != key {
		s.fail("H3", "server.tls_certfile", "only one of tls_certfile and tls_keyfile is set: the server serves plain HTTP")
	}
	s.checkRoutePolicy(server)
	if server["quota"] != nil {
		s.fail("H7", "server.quota", "every client, probes included, shares the per-IP anonymous quota: the probes get 429 once it is spent")
	}
}

func truthy(v any) bool {
	s, ok := v.(string)
	return v != nil && (!ok || s != "")
}

// checkRoutePolicy: H5, the route policy applies to /v1/health too, where a probe carries no
// user: the first rule matching the path without conditions must permit it.
func (s *startup) checkRoutePolicy(server map[string]any) {
	auth, _ := server["auth"].(map[string]any)
	rules := entries(auth["route_policy"])
	if len(rules) == 0 {
		return
	}
	for _, rule := range rules {
		scope, permit := rule["permit"].(map[string]any)
		if !permit {
			scope, _ = rule["forbid"].(map[string]any)
		}
		if !routeMatches("/v1/health", scope["paths"]) || rule["when"] != nil || rule["unless"] != nil {
			continue
		}
		if permit {
			return
		}
		break
	}
	s.fail("H5", "server.auth.route_policy", "Access denied: insufficient permissions for route /v1/health: the probes fail")
}

// routeMatches is the route policy's path match: "*", "prefix*", "regex:..." or exact.
func routeMatches(route string, patterns any) bool {
	list := stringList(patterns)
	if p, ok := patterns.(string); ok {
		list = []string{p}
	}
	for _, p := range list {
		switch {
		case p == "*", p == route:
			return true
		case strings.HasPrefix(p, "regex:"):
			if re, err := regexp.Compile("^(?:" + p[len("regex:"):] + ")"); err == nil && re.MatchString(route) {
				return true
			}
		case strings.HasSuffix(p, "*") && strings.HasPrefix(route, strings.TrimSuffix(p, "*")):
			return true
		}
	}
	return false
}

// checkPaths: S2, S3, S10. Every file the server writes must be on a writable volume of the
// pod, or it is lost with the container (or cannot be written). A kv_sqlite path is used as
// written (a literal ~ is a directory named ~ under the working directory); the directory of
// a sql_sqlite file is never created and must exist.
func (s *startup) checkPaths() {
	created := map[string]bool{}
	backends := s.backends()
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		b, _ := backends[name].(map[string]any)
		p, _ := b["db_path"].(string)
		if b["type"] == "kv_sqlite" && s.checkWritable("S2", "storage.backends."+name+".db_path", p) {
			markCreated(created, path.Dir(p))
		}
	}
	var files []dbFile // files whose directory must exist: sqlite-vec and friends, sql_sqlite
	for _, api := range slices.Sorted(maps.Keys(s.enabled)) {
		for _, id := range slices.Sorted(maps.Keys(s.enabled[api])) {
			entry := s.enabled[api][id]
			t, _ := entry["provider_type"].(string)
			config, _ := entry["config"].(map[string]any)
			key, isDir := providerPathKey(t)
			p, ok := config[key].(string)
			if key == "" || !ok {
				continue
			}
			where := fmt.Sprintf("providers.%s[%s].config.%s", api, id, key)
			if !s.checkWritable("S10", where, p) {
				continue
			}
			if isDir {
				markCreated(created, p)
			} else {
				files = append(files, dbFile{where, p})
			}
		}
	}
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		b, _ := backends[name].(map[string]any)
		p, _ := b["db_path"].(string)
		where := "storage.backends." + name + ".db_path"
		if b["type"] == "sql_sqlite" && s.checkWritable("S3", where, s.expandUser(p)) { // sql_sqlite expands ~ itself
			files = append(files, dbFile{where, s.expandUser(p)})
		}
	}
	for _, f := range files {
		if dir := path.Dir(f.path); !created[dir] && !s.isMount(dir) {
			s.fail("S3", f.where, "unable to open database file: nothing creates the directory %s", dir)
		}
	}
}

// dbFile is a database file a provider or backend opens, and where the config names it.
type dbFile struct{ where, path string }

// providerPathKey is the config key where a provider writes files, and whether it names a
// directory (created with its parents) rather than a file.
func providerPathKey(providerType string) (key string, isDir bool) {
	switch providerType {
	case "inline::localfs":
		return "storage_dir", true
	case "inline::sqlite-vec", "inline::sqlite_vec", "inline::milvus", "inline::chromadb":
		return "db_path", false
	case "inline::qdrant":
		return "path", true
	}
	return "", false
}

func (s *startup) expandUser(p string) string {
	if strings.HasPrefix(p, "~/") {
		return strings.TrimSuffix(s.pod.Home, "/") + p[1:]
	}
	return p
}

// checkWritable reports whether a path the server writes is on a writable volume, and adds
// the problem when it is not.
func (s *startup) checkWritable(rule, where, p string) bool {
	switch {
	case p == "" || p == ":memory:" || strings.HasPrefix(p, "file:"):
		return false
	case !path.IsAbs(p):
		s.fail(rule, where, "%q is relative to the working directory /app, inside the container: the data is lost with it", p)
		return false
	}
	for _, dir := range s.pod.Writable {
		if p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/") {
			return true
		}
	}
	s.fail(rule, where, "%s is on no writable volume of the pod (%v): it cannot be written, or is lost with the container", p, s.pod.Writable)
	return false
}

func (s *startup) isMount(dir string) bool { return slices.Contains(s.pod.Writable, dir) }

// markCreated records dir and its parents as existing once the server ran makedirs on it.
func markCreated(created map[string]bool, dir string) {
	for ; dir != "/" && dir != "."; dir = path.Dir(dir) {
		created[dir] = true
	}
}
