// SPDX-License-Identifier: Apache-2.0

// Package profile is what llsd knows about each llama-stack server version: one Profile per
// major.minor. Everything that differs between server versions is read from here, so
// supporting a version is adding its profile (plus its base configs and golden cases).
package profile

import (
	"embed"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
)

// Version is a llama-stack server version, major.minor: "0.7".
type Version string

// Profile describes one server version.
type Profile struct {
	Version Version
	// Entrypoint is the image's entrypoint: it starts the server on $RUN_CONFIG_PATH, under
	// opentelemetry-instrument when any OTEL_* variable is set.
	Entrypoint string
	// Dependencies are the APIs a provider cannot start without, keyed "api provider_type"
	// (the api_dependencies of the server's provider registry; optional ones left out).
	Dependencies map[string][]string

	catalogOnce sync.Once
	catalog     map[string]map[string][]Field
	catalogErr  error
}

// Field is one config key of a provider.
type Field struct {
	Name string `json:"name"`
	// Required keys have no default: the provider cannot start without them.
	Required bool `json:"required,omitempty"`
	// Secret keys hold credentials (pydantic SecretStr).
	Secret bool `json:"secret,omitempty"`
}

// ProviderFile is the format of providers/<version>.json, written by hack/providerfields.
type ProviderFile struct {
	Source string                        `json:"source"`
	APIs   map[string]map[string][]Field `json:"apis"`
}

//go:embed providers/*.json
var providerFiles embed.FS

// profiles are the supported server versions, oldest first.
var profiles = []*Profile{v06, v07}

// Supported lists the server versions llsd generates configs for.
func Supported() []Version {
	out := make([]Version, len(profiles))
	for i, p := range profiles {
		out[i] = p.Version
	}
	return out
}

// For returns the profile of a server version.
func For(v Version) (*Profile, bool) {
	i := slices.IndexFunc(profiles, func(p *Profile) bool { return p.Version == v })
	if i < 0 {
		return nil, false
	}
	return profiles[i], true
}

// Load reads the profile's embedded provider catalog (once); call it before the other methods,
// which see an empty catalog when it fails.
func (p *Profile) Load() error {
	p.catalogOnce.Do(func() {
		data, err := providerFiles.ReadFile("providers/" + string(p.Version) + ".json")
		var file ProviderFile
		if err == nil {
			err = json.Unmarshal(data, &file)
		}
		if err != nil {
			p.catalogErr = fmt.Errorf("provider catalog of llama-stack %s: %w", p.Version, err)
			return
		}
		p.catalog = file.APIs
	})
	return p.catalogErr
}

func (p *Profile) providers() map[string]map[string][]Field {
	_ = p.Load()
	return p.catalog
}

// ProviderTypes lists the provider types the server has for an API, sorted.
func (p *Profile) ProviderTypes(api string) []string {
	types := make([]string, 0, len(p.providers()[api]))
	for t := range p.providers()[api] {
		types = append(types, t)
	}
	slices.Sort(types)
	return types
}

// Fields returns the config keys of a provider type of an API; ok is false when the server
// has no such provider.
func (p *Profile) Fields(api, providerType string) (fields []Field, ok bool) {
	fields, ok = p.providers()[api][providerType]
	return fields, ok
}

// Needs lists the APIs a provider of an API depends on.
func (p *Profile) Needs(api, providerType string) []string {
	if deps, ok := p.Dependencies[api+" "+providerType]; ok {
		return deps
	}
	return p.Dependencies[api+" *"]
}

// withVectorIO marks every vector_io provider as depending on inference (each embeds text).
// The catalog is not read here: it loads lazily, and the vector_io rule needs no list.
func withVectorIO(deps map[string][]string) map[string][]string {
	deps["vector_io *"] = []string{"inference"}
	return deps
}
