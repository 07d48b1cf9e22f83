// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Entry is one distribution of distributions/distributions.json. Its image at a server
// version is that version's profile's (profile.Profile.Image of its base config's name).
type Entry struct {
	// BaseConfig names the base config and image when they are not the distribution's own
	// (remote-vllm runs the starter image).
	BaseConfig string `json:"baseConfig,omitempty"`
	// EnableProviders are base provider ids enabled unconditionally (their ${env.X:+id}
	// condition dropped).
	EnableProviders []string `json:"enableProviders,omitempty"`
	// AddProviders are provider entries per API that the image's own config lacks although
	// its other providers need them (postgres-demo has no files provider, which responses and
	// file-search depend on). {stateDir} in a string is the server's state directory as its
	// own defaults write it (~/.llama, ~/.ogx).
	AddProviders map[string][]map[string]any `json:"addProviders,omitempty"`
	// Removed, when set, explains why the distribution no longer exists and what to use.
	Removed     string `json:"removed,omitempty"`
	Description string `json:"description,omitempty"`
}

func (e Entry) baseName(name string) string {
	if e.BaseConfig != "" {
		return e.BaseConfig
	}
	return name
}

var (
	catalogOnce sync.Once
	catalog     map[string]Entry
	catalogErr  error
	baseMu      sync.Mutex
	baseCache   = map[string]map[string]any{}
)

// Catalog returns the embedded distribution catalog.
func Catalog() (map[string]Entry, error) {
	catalogOnce.Do(func() {
		data, err := distributions.FS.ReadFile("distributions.json")
		if err == nil {
			err = json.Unmarshal(data, &catalog)
		}
		if err != nil {
			catalogErr = fmt.Errorf("embedded distributions.json: %w", err)
		}
	})
	return catalog, catalogErr
}

// Names lists the distributions that can be deployed, sorted.
func Names() []string {
	entries, _ := Catalog()
	var names []string
	for name, e := range entries {
		if e.Removed == "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	return names
}

// Images maps each deployable distribution to its catalog image at the default version.
func Images() map[string]string {
	entries, _ := Catalog()
	out := map[string]string{}
	for name, e := range entries {
		if e.Removed == "" {
			out[name] = defaultProfile().Image(e.baseName(name))
		}
	}
	return out
}

func defaultProfile() *profile.Profile {
	p, _ := profile.For(profile.Default)
	return p
}

// Prepare does ahead, once, the work a Resolve of spec would start with: reading the profile
// and the embedded base config of a catalog distribution (at serverVersion, else the default
// version). Run in the background while other work goes on, it takes that time off a render;
// a spec it cannot tell about is left alone.
func Prepare(spec v1alpha2.DistributionSpec) {
	entries, err := Catalog()
	if err != nil || spec.Name == "" {
		return
	}
	entry, ok := entries[spec.Name]
	if !ok || entry.Removed != "" {
		return
	}
	p, ok := profile.For(cmp.Or(Version(spec.ServerVersion), profile.Default))
	if !ok {
		return
	}
	_ = p.Load()
	if base, err := cachedBase(entry.baseName(spec.Name), p.Version); err == nil && base != nil {
		configyaml.Prepare(base)
	}
}

// embeddedBase returns a private copy of the embedded base config <name>/<version>.yaml,
// or nil when there is none.
func embeddedBase(name string, v Version) (map[string]any, error) {
	cfg, err := cachedBase(name, v)
	if cfg == nil || err != nil {
		return nil, err
	}
	return configyaml.DeepCopy(cfg).(map[string]any), nil
}

// cachedBase is the parsed base config <name>/<version>.yaml, shared: parsed once per process.
func cachedBase(name string, v Version) (map[string]any, error) {
	file := fmt.Sprintf("%s/%s.yaml", name, v)
	baseMu.Lock()
	defer baseMu.Unlock()
	if cfg, ok := baseCache[file]; ok {
		return cfg, nil
	}
	data, err := distributions.FS.ReadFile(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	cfg, err := configyaml.UnmarshalMap(data)
	if err != nil {
		return nil, fmt.Errorf("embedded %s: %w", file, err)
	}
	baseCache[file] = cfg
	return cfg, nil
}

// embeddedVersions lists the server versions with an embedded base config for name.
func embeddedVersions(name string) []string {
	var versions []string
	for _, v := range profile.Supported() {
		if _, err := distributions.FS.Open(fmt.Sprintf("%s/%s.yaml", name, v)); err == nil {
			versions = append(versions, string(v))
		}
	}
	return versions
}
