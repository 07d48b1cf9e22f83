// SPDX-License-Identifier: Apache-2.0

// Package servercheck checks generated config.yaml files the way the llama-stack server
// would read them: PyYAML parsing, the server's ${env...} substitution (ported from
// replace_env_vars in llama_stack/core/stack.py, identical in 0.6 and 0.7), and the JSON
// schemas exported from the server's own pydantic models in ../shared/llama-stack/schemas.
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
// of tree, converting results like the server does, and applies the server's list rules.
func Substitute(tree any, getenv func(string) string) (any, error) {
	return substitute(tree, getenv, "")
}

func substitute(v any, getenv func(string) string, path string) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		if path == ".server.auth" {
			if err := clearEmptyAuthProvider(t, getenv, path); err != nil {
				return nil, err
			}
		}
		out := make(map[string]any, len(t))
		for k, val := range t {
			n, err := substitute(val, getenv, path+"."+k)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case []any:
		return substituteList(t, getenv, path)
	case string:
		return substituteString(t, getenv, path)
	}
	return v, nil
}

// resourceIDKeys are the keys whose empty value drops a list item (stack.py, 0.6 and 0.7).
var resourceIDKeys = []string{"model_id", "shield_id", "vector_store_id", "dataset_id", "scoring_fn_id", "benchmark_id"}

func substituteList(items []any, getenv func(string) string, path string) (any, error) {
	out := make([]any, 0, len(items))
	for i, item := range items {
		itemPath := fmt.Sprintf("%s[%d]", path, i)
		if m, ok := item.(map[string]any); ok {
			if id, ok := m["provider_id"].(string); ok {
				resolved, err := substituteString(id, getenv, itemPath+".provider_id")
				if err != nil {
					return nil, err
				}
				if resolved == "__disabled__" {
					continue
				}
			}
		}
		n, err := substitute(item, getenv, itemPath)
		if err != nil {
			return nil, err
		}
		if m, ok := n.(map[string]any); ok && hasEmptyResourceID(m) {
			continue
		}
		out = append(out, n)
	}
	return out, nil
}

func hasEmptyResourceID(m map[string]any) bool {
	for _, key := range resourceIDKeys {
		if v, ok := m[key]; ok && (v == nil || v == "") {
			return true
		}
	}
	return false
}

// clearEmptyAuthProvider drops server.auth.provider_config when its type resolves empty.
func clearEmptyAuthProvider(auth map[string]any, getenv func(string) string, path string) error {
	pc, ok := auth["provider_config"].(map[string]any)
	if !ok {
		return nil
	}
	typ, ok := pc["type"].(string)
	if !ok {
		return nil
	}
	resolved, err := substituteString(typ, getenv, path+".provider_config.type")
	if err != nil {
		return err
	}
	if resolved == nil || resolved == "" {
		auth["provider_config"] = nil
	}
	return nil
}

func substituteString(s string, getenv func(string) string, path string) (any, error) {
	var missing error
	out := envRef.ReplaceAllStringFunc(s, func(match string) string {
		g := envRef.FindStringSubmatch(match)
		value := getenv(g[1])
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
		return expandUser(r)
	})
	if missing != nil {
		return nil, missing
	}
	if out == s {
		return s, nil
	}
	return convert(out), nil
}

// expandUser is os.path.expanduser for the server's user.
func expandUser(s string) string {
	if s == "~" || strings.HasPrefix(s, "~/") {
		home, _ := os.UserHomeDir()
		return home + s[1:]
	}
	return s
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
