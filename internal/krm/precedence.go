// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kptdev/krm-functions-sdk/go/fn"
)

// The one precedence rule of render options. Every front end (llsd render and validate, the
// Argo CD plugin, the KRM function under kpt and kustomize) and every package split takes a
// package's options from these sources, from the top:
//
//  1. the renderer's pinned variables: each platform option (platformOptions) whose plain
//     variable the renderer's environment sets, even to "" (the Argo CD sidecar, a CI job);
//  2. the function config: kpt's --fn-config or configPath, kustomize's transformer file, a
//     ConfigMap of options;
//  3. each RenderOptions document among the package's files, from the top directory down to
//     the package's own (a document no file names is at the top).
//
// Below the top a source may only tighten the platform's options (RenderOptions.Tighten): a
// stricter Pod Security Standard, requireAuthentication turned on, lower limits — never
// another image mapping, OpenShift AI release or registry. The other options (ingress,
// platform, controller namespace) are the nearest source's that sets them, and the renderer's
// variables for them (also in Argo CD's ARGOCD_ENV_ form, an Application's own) are set on top
// of every package's.

// resolved are the effective options of a render: the function config's (top), and each
// RenderOptions document's by its directory.
type resolved struct {
	top   RenderOptions
	byDir map[string]RenderOptions
}

// configError is an error of the function config itself, which a result names as its object.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// IsFunctionConfigError reports whether err is about the function config itself.
func IsFunctionConfigError(err error) bool {
	var ce *configError
	return errors.As(err, &ce)
}

// resolveOptions applies the precedence rule to the function config and the documents.
func resolveOptions(top *fn.KubeObject, docs map[string]*fn.KubeObject, fileOf func(*fn.KubeObject) string,
	lookup func(string) (string, bool)) (resolved, error) {
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	config, err := functionConfigOptions(top)
	if err != nil {
		return resolved{}, &configError{err}
	}
	pins, pinned, err := pinnedOptions(lookup)
	if err != nil {
		return resolved{}, err
	}
	out := resolved{byDir: map[string]RenderOptions{}}
	if out.top, err = pins.pinOver(pinned, config); err != nil {
		if noFunctionConfig(top) {
			return resolved{}, err // the pins cannot contradict an empty config
		}
		return resolved{}, &configError{fmt.Errorf("%s, below the renderer's variables (%s): %w", configName(top),
			strings.Join(pinned, ", "), err)}
	}
	var effective func(dir string) (RenderOptions, error)
	effective = func(dir string) (RenderOptions, error) {
		if o, ok := out.byDir[dir]; ok {
			return o, nil
		}
		doc := docs[dir]
		own, err := ParseOptions([]byte(doc.String()))
		if err != nil {
			return own, fmt.Errorf("%s: %w", documentName(doc, fileOf), err)
		}
		var o RenderOptions
		up, ok := above(dir, docs)
		switch {
		case ok:
			upper, err := effective(up)
			if err != nil {
				return upper, err
			}
			if o, err = upper.Tighten(own); err != nil {
				return o, fmt.Errorf("%s, below %s: %w", documentName(doc, fileOf), documentName(docs[up], fileOf), err)
			}
		case noFunctionConfig(top): // the topmost document is the top, under the pins alone
			if o, err = pins.pinOver(pinned, own); err != nil {
				return o, fmt.Errorf("%s, below the renderer's variables (%s): %w", documentName(doc, fileOf), strings.Join(pinned, ", "), err)
			}
		default:
			if o, err = out.top.Tighten(own); err != nil {
				return o, fmt.Errorf("%s, below %s: %w", documentName(doc, fileOf), configName(top), err)
			}
		}
		out.byDir[dir] = o
		return o, nil
	}
	for _, dir := range slices.Sorted(maps.Keys(docs)) {
		if _, err := effective(dir); err != nil {
			return resolved{}, err
		}
	}
	// The renderer's other variables go on top of every package's options.
	if out.top, err = out.top.withEnvSettings(lookup); err != nil {
		return resolved{}, err
	}
	for _, dir := range slices.Sorted(maps.Keys(out.byDir)) {
		if out.byDir[dir], err = out.byDir[dir].withEnvSettings(lookup); err != nil {
			return resolved{}, err
		}
	}
	return out, nil
}

// functionConfigOptions reads the options of a function config: a RenderOptions, a ConfigMap
// (the KRM catalog's convention, and what kpt passes when a function has no config), or none
// (also in generator mode, where the config is the LLSD); any other kind is an error, not
// ignored.
func functionConfigOptions(cfg *fn.KubeObject) (RenderOptions, error) {
	switch {
	case noFunctionConfig(cfg) || isLLSD(cfg):
		return RenderOptions{}, nil
	case isOptions(cfg):
		return ParseOptions([]byte(cfg.String()))
	case isOptionsGroup(cfg):
		return RenderOptions{}, unknownOptions(cfg)
	case cfg.GetKind() == "ConfigMap" && cfg.GetAPIVersion() == "v1":
		return optionsFromConfigMap(stringMap(cfg.GetMap("data")))
	}
	return RenderOptions{}, fmt.Errorf("%s %s is no function config llsd takes: use a %s %s, a ConfigMap whose data are its options "+
		"(platform, podSecurity, imageOverrides, ...), or a LlamaStackDistribution (generator mode)",
		cfg.GetAPIVersion(), cfg.GetKind(), OptionsAPIVersion, OptionsKind)
}

// configName names the function config in a message.
func configName(cfg *fn.KubeObject) string {
	if noFunctionConfig(cfg) {
		return "no function config"
	}
	name := "the function config " + cfg.GetKind() + " " + cfg.GetName()
	if f := cfg.PathAnnotation(); f != "" {
		name += " (" + f + ")"
	}
	return name
}

// pinnedOptions reads the platform options the renderer's environment pins, and the variables
// that pin them. Argo CD's ARGOCD_ENV_ form of one, which an Application's author writes, is
// an error.
func pinnedOptions(lookup func(string) (string, bool)) (RenderOptions, []string, error) {
	var pinned []string
	for _, env := range platformOptions {
		if v, _ := lookup(argoCDPrefix + env); v != "" {
			return RenderOptions{}, nil, fmt.Errorf("%s%s: %s is the platform's to set (the environment of the plugin's sidecar, or a "+
				"RenderOptions document the platform owns), not an Application's plugin env: remove it from the Application", argoCDPrefix, env, env)
		}
		if _, ok := lookup(env); ok {
			pinned = append(pinned, env)
		}
	}
	o, err := RenderOptions{}.withSettings("the environment", func(env string) (string, string) {
		if !slices.Contains(pinned, env) {
			return "", ""
		}
		v, _ := lookup(env)
		return v, env
	})
	return o, pinned, err
}

// pinOver returns below (the function config's options) under the pinned options: what they
// pin, below may only tighten; what they leave, below decides.
func (pins RenderOptions) pinOver(pinned []string, below RenderOptions) (RenderOptions, error) {
	upper := below
	for _, env := range pinned {
		upper = upper.withPlatformOptionOf(env, pins)
	}
	return upper.Tighten(below)
}

// withPlatformOptionOf is o with the platform option of variable env taken from from.
func (o RenderOptions) withPlatformOptionOf(env string, from RenderOptions) RenderOptions {
	switch env {
	case EnvPodSecurity:
		o.Spec.PodSecurity = from.Spec.PodSecurity
	case EnvImageOverrides:
		o.Spec.ImageOverrides = from.Spec.ImageOverrides
	case EnvDistributions:
		o.Spec.Distributions = from.Spec.Distributions
	case EnvRegistryEnabled:
		o.Spec.Registry.Enabled = from.Spec.Registry.Enabled
	case EnvRegistryInsecure:
		o.Spec.Registry.InsecureHosts = from.Spec.Registry.InsecureHosts
	case EnvOpenShiftAIRelease:
		o.Spec.OpenShiftAI = from.Spec.OpenShiftAI
	case EnvRequireAuth:
		o.Spec.RequireAuthentication = from.Spec.RequireAuthentication
	case EnvPraxisNamespace:
		o.Spec.Praxis.Namespace = from.Spec.Praxis.Namespace
	case EnvPraxisPodLabels:
		o.Spec.Praxis.PodLabels = from.Spec.Praxis.PodLabels
	}
	return o
}

// withEnvSettings sets the options that are not the platform's from the renderer's
// variables, plain or in Argo CD's ARGOCD_ENV_ form, on top.
func (o RenderOptions) withEnvSettings(lookup func(string) (string, bool)) (RenderOptions, error) {
	return o.withSettings("the environment", func(env string) (string, string) {
		if slices.Contains(platformOptions, env) {
			return "", ""
		}
		for _, n := range []string{env, argoCDPrefix + env} {
			if v, _ := lookup(n); v != "" {
				return v, n
			}
		}
		return "", ""
	})
}

// WithEnv returns the options of a function config o under the renderer's environment
// (lookup: os.LookupEnv or a stand-in), by the precedence rule: the pinned platform options
// above o, which may only tighten them, and the other variables on top.
func (o RenderOptions) WithEnv(lookup func(string) (string, bool)) (RenderOptions, error) {
	pins, pinned, err := pinnedOptions(lookup)
	if err != nil {
		return o, err
	}
	if o, err = pins.pinOver(pinned, o); err != nil {
		return o, fmt.Errorf("below the renderer's variables (%s): %w", strings.Join(pinned, ", "), err)
	}
	return o.withEnvSettings(lookup)
}
