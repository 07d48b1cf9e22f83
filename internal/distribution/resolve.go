// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/suggest"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Options are the render options that affect resolution.
type Options struct {
	// ImageOverrides maps distribution names to images (mirrors, air-gapped registries).
	// The server version is read from the override's tag.
	ImageOverrides map[string]string
	// Labels, when set (render option spec.registry.enabled), reads base configs from image
	// labels, which take precedence over the embedded ones. Nil: offline, no registry request.
	Labels LabelReader
	// Distributions maps names llsd's catalog does not have to images (render option
	// distributions: {rh-dev: quay.io/...}): such a name resolves as its image would.
	Distributions map[string]string
	// BaseConfig is the config of spec.distribution.baseConfig, found among the inputs.
	BaseConfig *BaseConfigData
	// ImageOwnConfig allows a custom image with no base config to resolve without one (Base
	// nil): it runs the config it ships. For a spec that asks llsd to generate nothing.
	ImageOwnConfig bool
	// ProviderPackages are what the external providers' images say of themselves, by provider
	// id (read by the pipeline: oci.ProviderReader); copied into Resolved.
	ProviderPackages map[string]*oci.ProviderPackage
	// OpenShiftAIRelease is the OpenShift AI or Open Data Hub release distribution.name rh-dev
	// renders for (render option openshiftAI.release); "" means DefaultRelease, or
	// DefaultOGXServerRelease for an OGXServer.
	OpenShiftAIRelease string
	// OGXServer: the spec is an OGXServer's, whose rh-dev defaults to a release whose operator
	// reconciles OGXServers.
	OGXServer bool
}

// BaseConfigData is the content of spec.distribution.baseConfig's ConfigMap key.
type BaseConfigData struct {
	Config []byte
	// Source names it for messages and the receipt: "ConfigMap acme-base key run.yaml".
	Source string
}

// Resolved is a distribution ready for config generation.
type Resolved struct {
	// Name is the catalog name, or "" for a custom image.
	Name string
	// Image is the image the server container runs.
	Image string
	// Version is the llama-stack server version of Image.
	Version Version
	// Profile is what llsd knows about that version.
	Profile *profile.Profile
	// VersionSource says where Version was read, for messages: `image tag "0.7.1"`.
	VersionSource string
	// Base is a private copy of the base config.yaml, as a plain tree; config.Generate edits
	// it in place.
	Base map[string]any
	// BaseSource names the base config, for messages: "embedded starter/0.7.yaml".
	BaseSource string
	// ConfigSource says whether the base is llsd's copy or the image's labels.
	ConfigSource api.ConfigSource
	// DistroName is the base's distro_name (starter), used for default sqlite paths.
	DistroName string
	// EnableProviders are base provider ids to enable unconditionally (remote-vllm: vllm).
	EnableProviders []string
	// ProviderPackages are the external providers installed from their images' wheels, by
	// provider id (Options.ProviderPackages).
	ProviderPackages map[string]*oci.ProviderPackage
	// AddProviders are provider entries per API the base lacks (see Entry.AddProviders).
	AddProviders map[string][]map[string]any
	// Warnings say when a base config other than the image's own was used: about
	// spec.distribution, in the API's one type of warning.
	Warnings []api.Warning
	// Layout is how the image runs the server: the profile's for the official images, the
	// release's for rh-dev.
	Layout profile.Layout
	// Release names the platform release of rh-dev ("OpenShift AI 3.4"), "" otherwise.
	Release string
	// Server is the server's product and release where the platform names it ("llama-stack
	// 0.7.1"), "" otherwise.
	Server string
	// DashboardNamespace is where the dashboard of the platform release runs, "" without one.
	DashboardNamespace string
}

var distributionPath = field.NewPath("spec", "distribution")

// Resolve finds the image, server version and base config of spec.distribution.
//
//	distribution: {name: starter}                                   # catalog image, embedded 0.7 base
//	distribution: {image: docker.io/llamastack/distribution-starter:0.6.0}  # official image: embedded 0.6 base
//	distribution: {image: registry.example.com/custom:1.0}          # needs overrideConfig (or image labels)
func Resolve(spec v1alpha2.DistributionSpec, opts Options) (*Resolved, *field.Error) {
	req, ferr := prepare(spec, opts)
	if ferr != nil {
		return nil, ferr
	}
	if req.rhDev {
		return resolveRHDev(req.spec, req.opts)
	}
	named, spec, opts := req.named, req.spec, req.opts
	r, ferr := resolve(spec, req.entries, opts)
	if r != nil {
		r.Name, r.ProviderPackages = named, opts.ProviderPackages
	}
	if imagePath := distributionPath.Child("image").String(); ferr != nil && named != spec.Name && ferr.Field == imagePath {
		// the user wrote the name: say what it stands for
		ferr = field.Invalid(distributionPath.Child("name"), named, fmt.Sprintf("%s is image %s (render option distributions): %s", named, spec.Image, ferr.Detail))
	}
	return r, ferr
}

func resolve(spec v1alpha2.DistributionSpec, entries map[string]Entry, opts Options) (*Resolved, *field.Error) {
	switch {
	case opts.BaseConfig != nil:
		return resolveBaseConfig(spec, entries, opts)
	case opts.Labels != nil:
		return resolveWithLabels(spec, entries, opts)
	case spec.Name != "":
		return resolveName(spec, entries, opts)
	}
	return resolveImage(spec, entries, opts)
}

// isRHDev reports whether spec names OpenShift AI's rh-dev, which the render option
// distributions does not map to an image of the user's.
func isRHDev(spec v1alpha2.DistributionSpec, opts Options) bool {
	_, mapped := opts.Distributions[RHDev]
	return spec.Name == RHDev && !mapped
}

// mapName turns a name of the render option distributions into its image.
// request is a spec as both resolvers start from it, with the catalog.
type request struct {
	named   string // the name the user wrote
	spec    v1alpha2.DistributionSpec
	opts    Options
	entries map[string]Entry
	rhDev   bool
}

// prepare reads a spec for the resolvers: an OpenShift AI release's image is rh-dev of that
// release, and a name the render option distributions maps (rh-dev aside) is its image.
func prepare(spec v1alpha2.DistributionSpec, opts Options) (request, *field.Error) {
	entries, err := Catalog()
	if err != nil {
		return request{}, field.InternalError(distributionPath, err)
	}
	req := request{named: spec.Name, entries: entries}
	req.spec, req.opts = releaseImage(spec, opts)
	if req.rhDev = isRHDev(req.spec, req.opts); !req.rhDev {
		req.spec = mapName(req.spec, entries, req.opts)
	}
	return req, nil
}

func mapName(spec v1alpha2.DistributionSpec, entries map[string]Entry, opts Options) v1alpha2.DistributionSpec {
	if image, ok := opts.Distributions[spec.Name]; ok && spec.Name != "" {
		if _, inCatalog := entries[spec.Name]; !inCatalog {
			spec.Name, spec.Image = "", image
		}
	}
	return spec
}

func resolveName(spec v1alpha2.DistributionSpec, entries map[string]Entry, opts Options) (*Resolved, *field.Error) {
	entry, image, err := lookup(spec, entries, opts)
	if err != nil {
		return nil, err
	}
	return fromEmbedded(distributionPath.Child("name"), spec, entry, entry.baseName(spec.Name), image)
}

// lookup finds a deployable catalog entry and its image: the override when there is one,
// else the catalog image of spec.distribution.serverVersion (profile.Default when unset).
func lookup(spec v1alpha2.DistributionSpec, entries map[string]Entry, opts Options) (Entry, string, *field.Error) {
	path, name := distributionPath.Child("name"), spec.Name
	entry, ok := entries[name]
	if !ok {
		return Entry{}, "", field.Invalid(path, name, fmt.Sprintf("unknown distribution%s: use one of %s, set distribution.image, "+
			"or map the name to its image with the render option distributions (%s: <image>)", suggest.DidYouMean(name, Names()), strings.Join(Names(), ", "), name))
	}
	if entry.Removed != "" {
		return Entry{}, "", field.Invalid(path, name, entry.Removed)
	}
	if override, ok := opts.ImageOverrides[name]; ok {
		return entry, override, nil
	}
	v := cmp.Or(Version(spec.ServerVersion), profile.Default)
	prof, ok := profile.For(v)
	if newest, _, compatible := profile.Compatible(v); !ok && compatible {
		return Entry{}, "", field.Invalid(distributionPath.Child("serverVersion"), spec.ServerVersion, fmt.Sprintf(
			"llsd's catalog has images up to %s, not %s: name the image (distribution.image: %s with the %s tag), whose config "+
				"llsd generates for %s, or set serverVersion: \"%s\"", newest, v, strings.TrimSuffix(newest.Image(entry.baseName(name)),
				":"+newest.Release), v, newest, newest.Version))
	}
	if !ok {
		return Entry{}, "", field.Invalid(distributionPath.Child("serverVersion"), spec.ServerVersion,
			UnsupportedError(v, "⟦spec.distribution.serverVersion⟧"))
	}
	return entry, prof.Image(entry.baseName(name)), nil
}

// resolveImage accepts an official distribution image (llamastack/distribution-<name>,
// ogxai/distribution-<name>) at a tagged version; anything else needs a base config from
// elsewhere.
func resolveImage(spec v1alpha2.DistributionSpec, entries map[string]Entry, opts Options) (*Resolved, *field.Error) {
	path, image := distributionPath.Child("image"), spec.Image
	if entry, name, ok := officialEntry(image, entries); ok {
		return fromEmbedded(path, spec, entry, name, image)
	}
	if opts.ImageOwnConfig {
		return imageOwnConfig(spec, opts, "")
	}
	return nil, field.Invalid(path, image, "llsd has no base config.yaml for this image (only the official "+
		officialImages(entries)+" images are built in): "+
		"put the config the image ships in a ConfigMap and set ⟦spec.distribution.baseConfig⟧ to it, "+
		"label the image (`llsd label-image`) and render with RenderOptions spec.registry.enabled: true, "+
		"or set ⟦spec.overrideConfig.configMapName⟧ to a ConfigMap with a complete config.yaml")
}

// resolveBaseConfig resolves spec.distribution.baseConfig's config, for the spec's image or
// catalog name.
func resolveBaseConfig(spec v1alpha2.DistributionSpec, entries map[string]Entry, opts Options) (*Resolved, *field.Error) {
	image := spec.Image
	entry, _, official := officialEntry(image, entries)
	if spec.Name != "" {
		var ferr *field.Error
		if entry, image, ferr = lookup(spec, entries, opts); ferr != nil {
			return nil, ferr
		}
		official = true
	}
	return fromConfig(distributionPath.Child("baseConfig"), spec, entry, official, image, baseData{
		Config: opts.BaseConfig.Config, Source: opts.BaseConfig.Source, Kind: api.ConfigSourceConfigMap,
		Fix:        "put the config.yaml the image ships in the ConfigMap",
		VersionFix: "set ⟦spec.distribution.serverVersion⟧",
	})
}

// imageOwnConfig resolves an image that runs the config it ships: llsd generates none.
func imageOwnConfig(spec v1alpha2.DistributionSpec, opts Options, why string) (*Resolved, *field.Error) {
	r, ferr := ResolveRuntime(spec, opts)
	if ferr != nil {
		return nil, ferr
	}
	r.ConfigSource = api.ConfigSourceImage
	message := "llsd has no base config for image " + r.Image + why + ", and the spec asks for no generated config: the image runs the config it ships, which llsd cannot check. " +
		"For a checked config, set ⟦spec.distribution.baseConfig⟧ to a ConfigMap with the config the image ships"
	if r.VersionSource == "" {
		message += "; and set ⟦spec.distribution.serverVersion⟧, so that llsd knows the port variable and state directory of the image"
	}
	r.Warn(message)
	return r, nil
}

// officialEntry finds the catalog entry of an official image, in any registry: one of a
// profile's image repositories followed by a distribution name with a base config.
func officialEntry(image string, entries map[string]Entry) (Entry, string, bool) {
	repo := imageRepository(image)
	for _, prefix := range officialRepositories() {
		name, ok := strings.CutPrefix(repo, prefix)
		if entry, found := entries[name]; ok && found && entry.Removed == "" && entry.BaseConfig == "" {
			return entry, name, true
		}
	}
	return Entry{}, "", false
}

// officialRepositories are the image repositories of every profile, without registry host
// and distribution name: llamastack/distribution-, ogxai/distribution-, ...
func officialRepositories() []string {
	var repos []string
	for _, p := range profile.All() {
		for _, r := range p.ImageRepositories {
			repos = append(repos, imageRepository(r))
		}
	}
	slices.Sort(repos)
	return slices.Compact(repos)
}

// officialImages describes the official images for messages:
// {llamastack,ogx,ogxai}/distribution-{postgres-demo,starter}.
func officialImages(entries map[string]Entry) string {
	repos := officialRepositories()
	owners := make([]string, 0, len(repos))
	for _, r := range repos {
		owners = append(owners, strings.TrimSuffix(r, "/distribution-"))
	}
	return "{" + strings.Join(owners, ",") + "}/distribution-{" + strings.Join(officialNames(entries), ",") + "}"
}

// fromEmbedded resolves a catalog distribution, or an official image, with llsd's embedded
// base config. The version is the image tag's (the catalog image's, or the mirror's that
// imageOverrides names), else spec.distribution.serverVersion.
func fromEmbedded(path *field.Path, spec v1alpha2.DistributionSpec, entry Entry, baseName, image string) (*Resolved, *field.Error) {
	name := spec.Name
	tag := ImageTag(image)
	var evidence []versionEvidence
	if v, ok := VersionFromTag(tag); ok {
		evidence = append(evidence, versionEvidence{v, fmt.Sprintf("image tag %q", tag)})
	}
	v, source, conflict := decideVersion(evidence, spec.ServerVersion)
	if conflict != "" {
		return nil, field.Invalid(path, image, conflict)
	}
	if v == "" {
		return nil, field.Invalid(path, image, fmt.Sprintf("cannot tell the llama-stack version of image %q from its tag %q: "+
			"use a version tag such as %[3]s (a digest may follow: :%[3]s@sha256:...), or set ⟦spec.distribution.serverVersion⟧",
			image, tag, ImageTag(defaultProfile().Image(baseName))))
	}
	prof, _, ok := profile.Compatible(v)
	if !ok {
		return nil, field.Invalid(path, image, UnsupportedError(v, source))
	}
	base, err := embeddedBase(baseName, prof.Version)
	if err != nil {
		return nil, field.InternalError(path, err)
	}
	if base == nil {
		return nil, field.Invalid(path, image, fmt.Sprintf("llsd has no %s base config for llama-stack %s (it has %s)",
			baseName, v, strings.Join(embeddedVersions(baseName), ", ")))
	}
	return newResolved(name, image, entry, v, source, base, api.ConfigSourceEmbedded, fmt.Sprintf("embedded %s/%s.yaml", baseName, prof.Version)), nil
}

// Warn adds a warning about spec.distribution.
func (r *Resolved) Warn(message string) {
	r.Warnings = append(r.Warnings, api.Warning{Field: distributionPath.String(), Message: message})
}

// newResolved fills a Resolved; the caller checked that v has a Compatible profile.
func newResolved(name, image string, entry Entry, v Version, versionSource string, base map[string]any,
	source api.ConfigSource, baseSource string) *Resolved {
	distro, _ := base["distro_name"].(string)
	prof, note, _ := profile.Compatible(v)
	var warnings []api.Warning
	if note != "" {
		warnings = append(warnings, api.Warning{Field: distributionPath.String(), Message: note + " (the version was read from " + versionSource + ")"})
	}
	return &Resolved{
		Warnings:        warnings,
		Layout:          prof.Layout(),
		Name:            name,
		Image:           image,
		Version:         v,
		Profile:         prof,
		VersionSource:   versionSource,
		Base:            base,
		BaseSource:      baseSource,
		ConfigSource:    source,
		DistroName:      distro,
		EnableProviders: entry.EnableProviders,
		AddProviders:    withStateDir(entry.AddProviders, prof),
	}
}

// withStateDir returns provider entries with {stateDir} replaced by the profile's.
func withStateDir(providers map[string][]map[string]any, p *profile.Profile) map[string][]map[string]any {
	if providers == nil {
		return nil
	}
	out := make(map[string][]map[string]any, len(providers))
	for api, entries := range providers {
		for _, e := range entries {
			out[api] = append(out[api], configyaml.MapStrings(e, func(s string) string {
				return strings.ReplaceAll(s, "{stateDir}", p.HomeStateDir())
			}).(map[string]any))
		}
	}
	return out
}

func officialNames(entries map[string]Entry) []string {
	var names []string
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		if e := entries[name]; e.Removed == "" && e.BaseConfig == "" {
			names = append(names, name)
		}
	}
	return names
}

// ResolveRuntime resolves the image and server version of a spec that brings its own
// config.yaml (overrideConfig), without a base config: the version (for the port variable
// and the state directory) is serverVersion's, else an official or catalog image's tag's,
// else profile.Default.
func ResolveRuntime(spec v1alpha2.DistributionSpec, opts Options) (*Resolved, *field.Error) {
	req, ferr := prepare(spec, opts)
	if ferr != nil {
		return nil, ferr
	}
	if req.rhDev {
		return rhDevRuntime(req.opts)
	}
	named, spec, opts, entries := req.named, req.spec, req.opts, req.entries
	image := spec.Image
	var official bool
	if image != "" {
		_, _, official = officialEntry(image, entries)
	} else {
		var ferr *field.Error
		if _, image, ferr = lookup(spec, entries, opts); ferr != nil {
			return nil, ferr
		}
		official = true
	}
	v := Version(spec.ServerVersion)
	var source string
	if v != "" {
		source = "⟦spec.distribution.serverVersion⟧"
	} else if tv, ok := VersionFromTag(ImageTag(image)); official && ok {
		v, source = tv, fmt.Sprintf("image tag %q", ImageTag(image))
	}
	prof, _, ok := profile.Compatible(cmp.Or(v, profile.Default))
	if !ok {
		prof, source = defaultProfile(), "" // the user's own config: llsd does not generate for this version
	}
	// VersionSource stays empty when the version is a guess (a custom image): then nothing
	// is checked against it.
	return &Resolved{Name: named, Image: image, Version: prof.Version, Profile: prof, VersionSource: source,
		ProviderPackages: opts.ProviderPackages, Layout: prof.Layout()}, nil
}
