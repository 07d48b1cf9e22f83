// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"fmt"
	"slices"
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
		"(the server's version, which decides its config.yaml, was read from %s)", v, strings.Join(list, ", "),
		strings.Split(string(newest.Version), ".")[0], newest.Version, source)
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
			return "", "", fmt.Sprintf("⟦spec.distribution.serverVersion⟧ %s contradicts the image, whose %s says %s: "+
				"remove serverVersion, or fix it", stated, first.source, first.version)
		}
		return first.version, first.source, ""
	}
	if stated != "" {
		return Version(stated), "⟦spec.distribution.serverVersion⟧", ""
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

// Fingerprint infers the server version from the structure of a config, for base configs that
// come without a version label or tag: the formats before 0.6 (eras), then what only a
// supported version and older ones have (the profiles' Marks.Last, oldest first), then what a
// version brought (Marks.First, newest first). ok is false when the structure does not tell
// (a minimal config looks the same in 0.6 and 0.7). Within OGX 1.x it is the oldest version
// that has what the config uses (1.x promises that a config of 1.N loads on every later 1.x).
func Fingerprint(cfg map[string]any) (v Version, evidence string, ok bool) {
	v, evidence, _, ok = FingerprintRange(cfg)
	return v, evidence, ok
}

// The bounds FingerprintRange finds.
const (
	AtMost  = -1 // v or an older version: the config has what later versions dropped
	Exactly = 0  // a format of v alone
	AtLeast = 1  // v or a later version: the config has what v brought, which later ones keep
)

// FingerprintRange is Fingerprint with what the structure proves of the version: Exactly v
// (a format before 0.6), AtMost v, or AtLeast v (the messages API of OGX 0.8 is in 1.x too, so
// a config that has it is of 0.8 or a later version, not of 0.8).
func FingerprintRange(cfg map[string]any) (v Version, evidence string, bound int, ok bool) {
	all := profile.All()
	for _, e := range eras {
		if slices.ContainsFunc(e.keys, func(k string) bool { _, ok := cfg[k]; return ok }) && (e.unless == "" || !has(cfg, e.unless)) {
			if newerThanTheEras(cfg, all) {
				break // a key of an older format beside marks of a newer one is a leftover
			}
			return e.version, e.evidence, Exactly, true
		}
	}
	for _, p := range all {
		if hasMark(cfg, p.Marks.Last) {
			return p.Version, p.Marks.Evidence, AtMost, true
		}
	}
	for i := len(all) - 1; i >= 0; i-- {
		if p := all[i]; hasMark(cfg, p.Marks.First) {
			return p.Version, p.Marks.Evidence, AtLeast, true
		}
	}
	return "", "", Exactly, false
}

// eras are the config formats before the supported versions, oldest first: any of keys at the
// top level, unless the key unless is there too.
var eras = []struct {
	version  Version
	keys     []string
	unless   string
	evidence string
}{
	{"0.1", []string{"routing_table", "api_providers"}, "", "top-level routing_table/api_providers (the pre-2024 format)"},
	{"0.2", []string{"metadata_store", "inference_store", "models"}, "", "top-level metadata_store/inference_store/models (before the 0.3 storage refactor)"},
	{"0.3", []string{"telemetry"}, "", "top-level telemetry block (0.3 only)"},
}

// newerThanTheEras reports whether a config has marks of a supported version, which outweigh
// a key left over from an older format (OpenShift AI's 3.3 and 3.4 dashboard configs keep a
// top-level metadata_store beside storage.backends and distro_name).
func newerThanTheEras(cfg map[string]any, all []*profile.Profile) bool {
	storage, _ := cfg["storage"].(map[string]any)
	if has(cfg, "distro_name") || storage["backends"] != nil {
		return true
	}
	return slices.ContainsFunc(all, func(p *profile.Profile) bool { return hasMark(cfg, p.Marks.First) })
}

func has(cfg map[string]any, key string) bool {
	_, ok := cfg[key]
	return ok
}

// hasMark reports whether the config has any structure of the mark.
func hasMark(cfg map[string]any, m profile.Mark) bool {
	providers, _ := cfg["providers"].(map[string]any)
	types := providerTypes(providers)
	for _, api := range m.APIs {
		if providers[api] != nil {
			return true
		}
	}
	if slices.ContainsFunc(m.ProviderTypes, func(t string) bool { return types[t] }) {
		return true
	}
	for _, k := range m.ProviderKeys {
		api, key, _ := strings.Cut(k, ".")
		if hasConfigKey(providers[api], key) {
			return true
		}
	}
	if hasAnyKey(cfg["server"], m.ServerKeys...) {
		return true
	}
	for _, path := range m.Stores {
		var at any = stores(cfg)
		for part := range strings.SplitSeq(path, ".") {
			mm, _ := at.(map[string]any)
			at = mm[part]
		}
		if at != nil {
			return true
		}
	}
	return m.Strings != nil && configyaml.AnyString(cfg, m.Strings.MatchString)
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
