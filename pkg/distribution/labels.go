// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/configyaml"
	"github.com/llamastack/llsd/pkg/oci"
	"github.com/llamastack/llsd/pkg/profile"
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
		return fromLabels(path, spec, entry, hasEmbedded, image, labelled)
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
		r.Warnings = append(r.Warnings, fmt.Sprintf("image %s has no config labels: using the %s config", image, r.BaseSource))
	} else {
		r.Warnings = append(r.Warnings, fmt.Sprintf("%v; using the %s config instead", err, r.BaseSource))
	}
	return r, nil
}

// fromLabels resolves a labelled base config. Its server version comes from the version
// label, else spec.distribution.serverVersion, else the tag of a catalog or official image
// (a custom image's tag such as 1.0 or 2026.04 says nothing about the server), else the
// config's structure.
func fromLabels(path *field.Path, spec v1alpha2.DistributionSpec, entry Entry, official bool, image string, l *oci.BaseConfig) (*Resolved, *field.Error) {
	base, err := configyaml.UnmarshalMap(l.Config)
	if err != nil {
		return nil, field.Invalid(path, image, fmt.Sprintf("the config in %s is not a YAML mapping: %v: relabel the image with `llsd label-image`", l.Source, err))
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
		return nil, field.Invalid(path, image, fmt.Sprintf("cannot tell the llama-stack version of the config in %s: "+
			"label the image with %s=<server version> (`llsd label-image` does), or set spec.distribution.serverVersion",
			l.Source, oci.LabelVersion))
	}
	if _, _, ok := profile.Compatible(v); !ok {
		return nil, field.Invalid(path, image, UnsupportedError(v, source))
	}
	return newResolved(spec.Name, image, entry, v, source, base, api.ConfigSourceLabel, l.Source), nil
}
