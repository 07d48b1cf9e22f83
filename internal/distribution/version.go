// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"fmt"
	"strings"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/profile"
)

// Version is a llama-stack server version, major.minor: "0.7".
type Version = profile.Version

// UnsupportedError is the message for a server version llsd cannot generate for.
func UnsupportedError(v Version, source string) string {
	list := make([]string, 0, len(profile.Supported()))
	for _, s := range profile.Supported() {
		list = append(list, string(s))
	}
	newest := profile.All()[len(profile.All())-1]
	return fmt.Sprintf("Unsupported config.yaml version %s. Supported versions: %s, and later %s.x releases, generated for %s "+
		"(the version was read from %s)", v, strings.Join(list, ", "), strings.Split(string(newest.Version), ".")[0], newest.Version, source)
}

// versionEvidence is a server version an image states, and where it was read.
type versionEvidence struct {
	version Version
	source  string
}

// decideVersion returns the first version the image states, else the one the spec states
// (spec.distribution.serverVersion); "" when neither says. A spec that contradicts the image
// is an error (the message is returned).
func decideVersion(image []versionEvidence, stated string) (v Version, source, err string) {
	if len(image) > 0 {
		first := image[0]
		if stated != "" && Version(stated) != first.version {
			return "", "", fmt.Sprintf("spec.distribution.serverVersion %s contradicts the image, whose %s says %s: "+
				"remove serverVersion, or fix it", stated, first.source, first.version)
		}
		return first.version, first.source, ""
	}
	if stated != "" {
		return Version(stated), "spec.distribution.serverVersion", ""
	}
	return "", "", ""
}

var versionTag = lazyre.New(`^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[-+][0-9A-Za-z.+-]*)?$`)

// VersionFromTag reads the server version from an image tag such as 0.7.1, v0.6.0 or
// 0.7.1-rhoai; ok is false for tags like latest.
func VersionFromTag(tag string) (Version, bool) {
	m := versionTag().FindStringSubmatch(tag)
	if m == nil {
		return "", false
	}
	return Version(m[1] + "." + m[2]), true
}

// ImageTag returns the tag of an image reference (registry/repo:tag@digest), or "".
func ImageTag(image string) string {
	ref, _, _ := strings.Cut(image, "@")
	lastSlash := strings.LastIndex(ref, "/")
	if i := strings.LastIndex(ref, ":"); i > lastSlash {
		return ref[i+1:]
	}
	return ""
}

// imageRepository returns the image reference without registry host, tag and digest:
// docker.io/llamastack/distribution-starter:0.7.1 -> llamastack/distribution-starter.
func imageRepository(image string) string {
	ref, _, _ := strings.Cut(image, "@")
	if tag := ImageTag(ref); tag != "" {
		ref = strings.TrimSuffix(ref, ":"+tag)
	}
	if first, rest, ok := strings.Cut(ref, "/"); ok && (strings.ContainsAny(first, ".:") || first == "localhost") {
		return rest
	}
	return ref
}

// Fingerprint infers the server version from the structure of a config (the keys and
// providers each release added or removed), for base configs that come without a version label
// or tag. ok is false when the structure does not tell (a minimal config looks the same in 0.6 and 0.7). Within
// OGX 1.x it is the oldest version that has what the config uses (1.x promises that a config
// of 1.N loads on every later 1.x).
func Fingerprint(cfg map[string]any) (v Version, evidence string, ok bool) {
	providers, _ := cfg["providers"].(map[string]any)
	types := providerTypes(providers)
	has := func(key string) bool { _, ok := cfg[key]; return ok }
	switch {
	case has("routing_table") || has("api_providers"):
		return "0.1", "top-level routing_table/api_providers (the pre-2024 format)", true
	case has("metadata_store") || has("inference_store") || has("models"):
		return "0.2", "top-level metadata_store/inference_store/models (before the 0.3 storage refactor)", true
	case has("telemetry"):
		return "0.3", "top-level telemetry block (0.3 only)", true
	case !has("distro_name") && has("image_name"):
		return "0.4", "image_name without distro_name (distro_name arrived in 0.5)", true
	case types["remote::meta"] || types["remote::deepseek"] || types["remote::mistral"] || types["remote::neo4j"]:
		return "1.3", "the meta, deepseek, mistral or neo4j providers (OGX 1.3)", true
	case types["inline::unstructured"] || types["remote::unstructured-api"] || hasConfigKey(providers["responses"], "memory_config") ||
		hasAnyKey(cfg["server"], "insecure", "tenancy", "tls_config", "hsts_max_age"):
		return "1.2", "the unstructured file processors, responses memory_config or server insecure/tenancy/tls_config (OGX 1.2)", true
	case providers["skills"] != nil || types["remote::nimble-search"] || hasConfigKey(providers["messages"], "kvstore"):
		return "1.1", "the skills API, nimble-search or a messages kvstore (OGX 1.1)", true
	case hasConfigKey(providers["batches"], "sqlstore") || hasConfigKey(providers["interactions"], "store") ||
		hasConfigKey(providers["responses"], "moderation_endpoint") || hasAnyKey(stores(cfg)["prompts"], "table_name") ||
		hasAnyKey(stores(cfg), "vector_stores"):
		return "1.0", "a batches sqlstore, an interactions store, responses moderation_endpoint or SQL prompts and vector_stores " +
			"stores (OGX 1.0 or later: set spec.distribution.serverVersion to name a later one)", true
	case providers["messages"] != nil || providers["interactions"] != nil || hasString(cfg, ogxBrand().MatchString):
		return "0.8", "the messages/interactions APIs or OGX names (~/.ogx, ogx databases; 0.8)", true
	case providers["agents"] != nil || providers["post_training"] != nil || types["inline::meta-reference"] ||
		types["inline::rag-runtime"] || types["remote::tgi"]:
		return "0.6", "the agents/post_training APIs or meta-reference/rag-runtime/tgi providers (0.6 and older)", true
	case providers["responses"] != nil || types["inline::builtin"] || types["inline::file-search"]:
		return "0.7", "the responses API or builtin/file-search providers (0.7)", true
	}
	return "", "", false
}

// hasConfigKey reports whether a provider of a list has key in its config.
func hasConfigKey(list any, key string) bool {
	items, _ := list.([]any)
	for _, item := range items {
		if entry, ok := item.(map[string]any); ok && hasAnyKey(entry["config"], key) {
			return true
		}
	}
	return false
}

// hasAnyKey reports whether m is a mapping with one of keys.
func hasAnyKey(m any, keys ...string) bool {
	mm, _ := m.(map[string]any)
	for _, k := range keys {
		if _, ok := mm[k]; ok {
			return true
		}
	}
	return false
}

// stores is the config's storage.stores.
func stores(cfg map[string]any) map[string]any {
	storage, _ := cfg["storage"].(map[string]any)
	s, _ := storage["stores"].(map[string]any)
	return s
}

// ogxBrand matches the defaults the OGX rename (0.8) introduced.
var ogxBrand = lazyre.New(`~/\.ogx|:=ogx\}|ogx_kvstore`)

// hasString reports whether match holds for some string value in the tree.
func hasString(tree any, match func(string) bool) bool {
	found := false
	configyaml.WalkStrings(tree, func(_ configyaml.Path, s string) { found = found || match(s) })
	return found
}

func providerTypes(providers map[string]any) map[string]bool {
	types := map[string]bool{}
	for _, list := range providers {
		items, _ := list.([]any)
		for _, item := range items {
			if entry, ok := item.(map[string]any); ok {
				if t, ok := entry["provider_type"].(string); ok {
					types[t] = true
				}
			}
		}
	}
	return types
}
