// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
)

var envRef = regexp.MustCompile(`\$\{env\.([A-Z0-9_]+)(?::([=+])([^}]*))?}`)

// Substitute expands ${env.X}, ${env.X:=default} and ${env.X:+value} in every string value
// of tree, converting results like the server does, and applies the server's list rules
// (those of 0.7; SubstituteFor names the version and the server's home directory).
func Substitute(tree any, getenv func(string) string) (any, error) {
	home, _ := os.UserHomeDir()
	return SubstituteFor("0.7", tree, getenv, home)
}

// SubstituteFor is the substitution of one server version, for a server process whose home
// directory (what ~ expands to) is home.
func SubstituteFor(version string, tree any, getenv func(string) string, home string) (any, error) {
	s := substituter{getenv: getenv, home: home, idKeys: resourceIDKeys}
	if version == "0.6" {
		s.idKeys = append(append([]string(nil), resourceIDKeys...), "toolgroup_id")
	}
	return s.substitute(tree, "")
}

type substituter struct {
	getenv func(string) string
	home   string
	// idKeys are the keys whose empty value drops a list item.
	idKeys []string
}

func (s substituter) substitute(v any, path string) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		if path == ".server.auth" {
			if err := s.clearEmptyAuthProvider(t, path); err != nil {
				return nil, err
			}
		}
		out := make(map[string]any, len(t))
		for k, val := range t {
			n, err := s.substitute(val, path+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case []any:
		return s.substituteList(t, path)
	case string:
		return s.substituteString(t, path)
	}
	return v, nil
}

// resourceIDKeys are the keys whose empty value drops a list item (stack.py RESOURCE_ID_FIELDS,
// 0.7; 0.6 also toolgroup_id).
var resourceIDKeys = []string{"model_id", "shield_id", "vector_store_id", "dataset_id", "scoring_fn_id", "benchmark_id"}

func (s substituter) substituteList(items []any, path string) (any, error) {
	out := make([]any, 0, len(items))
	for i, item := range items {
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		if m, ok := item.(map[string]any); ok {
			if id, ok := m["provider_id"].(string); ok {
				resolved, err := s.substituteString(id, itemPath+".provider_id")
				if err != nil {
					return nil, err
				}
				if resolved == "__disabled__" {
					continue
				}
			}
		}
		n, err := s.substitute(item, itemPath)
		if err != nil {
			return nil, err
		}
		if m, ok := n.(map[string]any); ok && s.hasEmptyResourceID(m) {
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

func (s substituter) hasEmptyResourceID(m map[string]any) bool {
	for _, key := range s.idKeys {
		if v, ok := m[key]; ok && (v == nil || v == "") {
			return true
		}
	}
	return false
}

// clearEmptyAuthProvider drops server.auth.provider_config when its type resolves empty.
func (s substituter) clearEmptyAuthProvider(auth map[string]any, path string) error {
	pc, ok := auth["provider_config"].(map[string]any)
	if !ok {
		return nil
	}
	typ, ok := pc["type"].(string)
	if !ok {
		return nil
	}
	resolved, err := s.substituteString(typ, path+".provider_config.type")
	if err != nil {
		return err
	}
	if resolved == nil || resolved == "" {
		auth["provider_config"] = nil
	}
	return nil
}

func (s substituter) substituteString(str string, path string) (any, error) {
	var missing error
	out := envRef.ReplaceAllStringFunc(str, func(match string) string {
		g := envRef.FindStringSubmatch(match)
		value := s.getenv(g[1])
		var r string
		switch g[2] {
		case "=":
			if r = value; value == "" {
				r = g[3]
			}
		case "+":
			if value != "" {
				r = g[3]
			}
		default:
			if value == "" && missing == nil {
				missing = fmt.Errorf("environment variable '%s' not set or empty at %s", g[1], strings.TrimPrefix(path, "."))
			}
			r = value
		}
		return s.expandUser(r)
	})
	if missing != nil {
		return nil, missing
	}
	if out == str {
		return str, nil
	}
	return convert(out), nil
}

// expandUser is os.path.expanduser for the server's user.
func (s substituter) expandUser(str string) string {
	if str == "~" {
		return s.home
	}
	if strings.HasPrefix(str, "~/") {
		return strings.TrimSuffix(s.home, "/") + str[1:]
	}
	return str
}

// convert is _convert_string_to_proper_type: only strings a substitution changed are
// converted, and then as a whole.
func convert(s string) any {
	switch {
	case s == "":
		return nil
	case strings.EqualFold(s, "true"):
		return true
	case strings.EqualFold(s, "false"):
		return false
	}
	trimmed := strings.TrimSpace(s)
	if i, err := strconv.ParseInt(strings.ReplaceAll(trimmed, "_", ""), 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(trimmed, 64); err == nil {
		return f
	}
	return s
}

// readAsServer is the config as the server's StackConfig sees it: substituted (SubstituteFor),
// then with the legacy store forms migrated (migrateLegacyStores).
func readAsServer(version string, tree any, getenv func(string) string, home string) (any, error) {
	expanded, err := SubstituteFor(version, tree, getenv, home)
	if err != nil {
		return nil, err
	}
	migrateLegacyStores(version, expanded)
	return expanded, nil
}

// migrateLegacyStores rewrites, for OGX 1.x, a prompts or connectors store written in the KV
// form of 0.8 ({backend: kv_default, namespace: prompts}) into the SQL form the server reads
// since 1.0 ({backend: sql_default, table_name: prompts}), as its ServerStoresConfig does
// before validating (_migrate_kv_to_sql, src/ogx/core/storage/datatypes.py:344-357@v1.3.0, the
// same at 1.0.0): a config of an earlier release keeps loading. Only the kv_ prefix of the
// backend's name changes, so a backend named otherwise still fails the family check (V2).
func migrateLegacyStores(version string, cfg any) {
	if !ogx1(version) {
		return
	}
	root, _ := cfg.(map[string]any)
	storage, _ := root["storage"].(map[string]any)
	stores, _ := storage["stores"].(map[string]any)
	for _, name := range []string{"prompts", "connectors"} {
		ref, _ := stores[name].(map[string]any)
		namespace, hasNamespace := ref["namespace"]
		if _, hasTable := ref["table_name"]; !hasNamespace || hasTable {
			continue
		}
		backend, _ := ref["backend"].(string)
		if backend == "" {
			backend = "sql_default"
		}
		stores[name] = map[string]any{"backend": strings.Replace(backend, "kv_", "sql_", 1), "table_name": namespace}
	}
}
