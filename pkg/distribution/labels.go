// SPDX-License-Identifier: Apache-2.0

package distribution

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

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
	entry, hasEmbedded := officialEntry(image, entries)
	if spec.Name != "" {
		var ferr *field.Error
		if entry, image, ferr = lookup(spec.Name, entries, opts); ferr != nil {
			return nil, ferr
		}
		path, hasEmbedded = distributionPath.Child("name"), true
	}

	labelled, err := opts.Labels.BaseConfig(image)
	if err == nil {
		return fromLabels(path, spec.Name, entry, image, labelled)
	}
	if !hasEmbedded {
		return nil, field.Invalid(path, image, err.Error())
	}
	r, ferr := fromEmbedded(path, spec.Name, entry, image)
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
// label, else the image tag, else the config's structure.
func fromLabels(path *field.Path, name string, entry Entry, image string, l *oci.BaseConfig) (*Resolved, *field.Error) {
	base, err := configyaml.UnmarshalMap(l.Config)
	if err != nil {
		return nil, field.Invalid(path, image, fmt.Sprintf("the config in %s is not a YAML mapping: %v: relabel the image with `llsd label-image`", l.Source, err))
	}
	v, source, ok := labelledVersion(image, l, base)
	if !ok {
		return nil, field.Invalid(path, image, fmt.Sprintf("cannot tell the llama-stack version of the config in %s: "+
			"label the image with %s=<server version> (`llsd label-image` does) or use a version tag such as 0.7.1", l.Source, oci.LabelVersion))
	}
	if _, ok := profile.For(v); !ok {
		return nil, field.Invalid(path, image, UnsupportedError(v, source))
	}
	return newResolved(name, image, entry, v, source, base, l.Source), nil
}

func labelledVersion(image string, l *oci.BaseConfig, base map[string]any) (Version, string, bool) {
	if v, ok := VersionFromTag(l.Version); ok {
		return v, fmt.Sprintf("version label %q", l.Version), true
	}
	if tag := ImageTag(image); tag != "" {
		if v, ok := VersionFromTag(tag); ok {
			return v, fmt.Sprintf("image tag %q", tag), true
		}
	}
	if v, evidence, ok := Fingerprint(base); ok {
		return v, "the labelled config's structure: " + evidence, true
	}
	return "", "", false
}
