// SPDX-License-Identifier: Apache-2.0

package oci

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-containerregistry/pkg/v1/remote/transport"
)

// Kind says what went wrong reading an image's labels, so callers can decide whether an
// embedded config may stand in (with a warning) or the render must fail.
type Kind int

// The kinds of Error.
const (
	MissingLabels Kind = iota + 1
	Unreachable
	Unauthorized
	NotFound
	CorruptLabel
	// MissingProviderSpec: a provider image without /lls-provider/lls-provider-spec.yaml.
	MissingProviderSpec
	// CorruptProviderSpec: the file is there but cannot be used.
	CorruptProviderSpec
	// ProviderSpecNotCached: an offline render has not read the image before.
	ProviderSpecNotCached
)

// Error is a failure to read the base config of Image, with what to do about it.
type Error struct {
	Kind  Kind
	Image string
	Err   error
}

func (e *Error) Unwrap() error { return e.Err }

func (e *Error) Error() string {
	switch e.Kind {
	case MissingLabels:
		return fmt.Sprintf("Distribution image %s missing config labels. Add labels using `llsd label-image %s %s` "+
			"(or `crane mutate --label %s=...`) or use `overrideConfig` to provide configuration manually.",
			e.Image, e.Image, e.Image, LabelBase64)
	case Unreachable:
		return fmt.Sprintf("cannot reach the registry of %s: %v: check the network and the image name; a registry "+
			"that speaks plain HTTP must be listed in spec.registry.insecureHosts", e.Image, e.Err)
	case Unauthorized:
		return fmt.Sprintf("the registry refused access to %s: %v: log in as for docker or podman (llsd reads "+
			"$DOCKER_CONFIG/config.json or ~/.docker/config.json and their credential helpers)", e.Image, e.Err)
	case NotFound:
		return fmt.Sprintf("image %s is not in its registry: %v: check the name and tag", e.Image, e.Err)
	case CorruptLabel:
		return fmt.Sprintf("image %s has a config label llsd cannot use: %v: relabel it with `llsd label-image`",
			e.Image, e.Err)
	case MissingProviderSpec:
		return fmt.Sprintf("provider image %s has no %s: build it with the file and its wheels in %s/packages, "+
			"or set module and providerType (the package is then copied from path)", e.Image, ProviderSpecPath, ProviderDir)
	case CorruptProviderSpec:
		return fmt.Sprintf("provider image %s: %v", e.Image, e.Err)
	case ProviderSpecNotCached:
		return fmt.Sprintf("provider image %s is not in llsd's cache, and this render reads no registry: render once with "+
			"the render option registry.enabled (LLSD_REGISTRY_ENABLED=true) to read its %s, or set module and providerType",
			e.Image, ProviderSpecPath)
	}
	return fmt.Sprintf("image %s: %v", e.Image, e.Err)
}

// classify turns a registry client error into an Error.
func classify(image string, err error) *Error {
	var already *Error
	if errors.As(err, &already) {
		return already
	}
	var corrupt *errCorrupt
	if errors.As(err, &corrupt) {
		return &Error{Kind: CorruptLabel, Image: image, Err: err}
	}
	var terr *transport.Error
	if errors.As(err, &terr) {
		err = &answerError{status: terr.StatusCode, err: err}
		switch terr.StatusCode {
		case http.StatusUnauthorized, http.StatusForbidden:
			return &Error{Kind: Unauthorized, Image: image, Err: err}
		case http.StatusNotFound:
			return &Error{Kind: NotFound, Image: image, Err: err}
		}
	}
	return &Error{Kind: Unreachable, Image: image, Err: err} // connection refused, DNS, TLS, timeouts, 5xx
}

// answerError is a registry's answer told by its status alone. Its body, and the messages of
// the registry's errors, are the answerer's text: a host a render was pointed at (a service
// inside the cluster) would show its pages in llsd's messages.
type answerError struct {
	status int
	err    error
}

func (e *answerError) Error() string {
	return fmt.Sprintf("the registry answered %d %s", e.status, http.StatusText(e.status))
}

func (e *answerError) Unwrap() error { return e.err }
