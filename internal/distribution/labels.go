// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// LabelReader reads the base config an image carries in its labels (*oci.Client).
type LabelReader interface {
	BaseConfig(image string) (*oci.BaseConfig, error)
}

// resolveWithLabels prefers the config in the image's labels. Without usable labels, a
// catalog name or official image falls back to the embedded config with a warning; any other
// image fails with what to do.
func resolveWithLabels(spec v1alpha2.DistributionSpec, entries map[string]Entry, opts Options) (*Resolved, *field.Error) {
	path, image := distributionPath.Child("image"), spec.Image
	entry, baseName, hasEmbedded := officialEntry(image, entries)
	if spec.Name != "" {
		var ferr *field.Error
		if entry, image, ferr = lookup(spec, entries, opts); ferr != nil {
			return nil, ferr
		}
		path, baseName, hasEmbedded = distributionPath.Child("name"), entry.baseName(spec.Name), true
	}

	labelled, err := opts.Labels.BaseConfig(image)
	if err == nil {
		return fromConfig(path, spec, entry, hasEmbedded, image, baseData{
			Config: labelled.Config, Source: labelled.Source, Version: labelled.Version, Kind: api.ConfigSourceLabel,
			Fix:        "relabel the image with `llsd label-image`",
			VersionFix: fmt.Sprintf("label the image with %s=<server version> (`llsd label-image` does), or set ⟦spec.distribution.serverVersion⟧", oci.LabelVersion),
		})
	}
	if !hasEmbedded && opts.ImageOwnConfig {
		return imageOwnConfig(spec, opts, " ("+err.Error()+")")
	}
	if !hasEmbedded {
		return nil, field.Invalid(path, image, err.Error())
	}
	r, ferr := fromEmbedded(path, spec, entry, baseName, image)
	if ferr != nil {
		return nil, field.Invalid(path, image, fmt.Sprintf("%v; and no embedded config fits: %s", err, ferr.Detail))
	}
	var oerr *oci.Error
	if errors.As(err, &oerr) && oerr.Kind == oci.MissingLabels {
		r.Warn(fmt.Sprintf("image %s has no config labels: using the %s config", image, r.BaseSource))
	} else {
		r.Warn(fmt.Sprintf("%v; using the %s config instead", err, r.BaseSource))
	}
	return r, nil
}

// baseData is a base config from outside llsd's catalog: an image's labels or a ConfigMap.
type baseData struct {
	Config []byte
	// Source names it for messages and the receipt; Version is its version label, if any.
	Source, Version string
	Kind            api.ConfigSource
	// Fix says how to replace a config that is no YAML mapping; VersionFix how to state the
	// server version when nothing tells it.
	Fix, VersionFix string
}

// fromConfig resolves a base config from outside the catalog. Its server version comes from
// its version label, else spec.distribution.serverVersion, else the tag of a catalog or
// official image (a custom image's tag such as 1.0 or 2026.04 says nothing about the
// server), else the config's structure.
func fromConfig(path *field.Path, spec v1alpha2.DistributionSpec, entry Entry, official bool, image string, l baseData) (*Resolved, *field.Error) {
	base, err := configyaml.UnmarshalMap(l.Config)
	if err != nil {
		return nil, field.Invalid(path, image, fmt.Sprintf("the config in %s is not a YAML mapping: %v: %s", l.Source, err, l.Fix))
	}
	var evidence []versionEvidence
	if v, ok := VersionFromTag(l.Version); ok {
		evidence = append(evidence, versionEvidence{v, fmt.Sprintf("version label %q", l.Version)})
	}
	v, source, conflict := decideVersion(evidence, spec.ServerVersion)
	if conflict != "" {
		return nil, field.Invalid(path, image, conflict)
	}
	if tag := ImageTag(image); v == "" && official {
		if tv, ok := VersionFromTag(tag); ok {
			v, source = tv, fmt.Sprintf("image tag %q", tag)
		}
	}
	if fv, how, ok := Fingerprint(base); v == "" && ok {
		v, source = fv, "the labelled config's structure: "+how
	}
	if v == "" {
		return nil, field.Invalid(path, image, fmt.Sprintf("cannot tell the llama-stack version of the config in %s: %s", l.Source, l.VersionFix))
	}
	if _, _, ok := profile.Compatible(v); !ok {
		return nil, field.Invalid(path, image, UnsupportedError(v, source))
	}
	return newResolved(spec.Name, image, entry, v, source, base, l.Kind, l.Source), nil
}
