// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

var (
	overrideConfigPath = field.NewPath("spec", "overrideConfig")
	distributionPath   = field.NewPath("spec", "distribution")
)

// legacyConfigKey is where upstream operator releases before config.yaml read the config,
// and where many repositories still keep it.
const legacyConfigKey = "run.yaml"

// checkOverrideConfig checks spec.overrideConfig against its ConfigMap, when the ConfigMap
// is among the inputs: the key must be there (a ConfigMap with only run.yaml, as older
// upstream releases read, is used with a warning when no key is set), and the config is read
// as the server would read it (config.CheckOwnConfig), when its server version is known.
// It returns the key to mount as config.yaml and what that config asks of callers.
func checkOverrideConfig(obj *v1alpha2.LlamaStackDistribution, dist *distribution.Resolved, data map[string]string, named namedKey) (string, config.Authentication, []config.Warning, field.ErrorList) {
	o := obj.Spec.OverrideConfig
	key := o.ConfigKey()
	var warnings []config.Warning
	if named.key != "" {
		key = named.key
		if _, ok := data[key]; !ok {
			return key, config.Authentication{}, nil, field.ErrorList{field.Invalid(named.at, named.file, fmt.Sprintf("the server runs %s, and ConfigMap %s (⟦spec.overrideConfig⟧) has no key %s "+
				"(it has %s): name the key that holds the config", named.file, o.ConfigMapName, key, keyList(data)))}
		}
	} else if _, ok := data[key]; !ok {
		_, hasLegacy := data[legacyConfigKey]
		switch {
		case o.Key == "" && hasLegacy:
			key = legacyConfigKey
			warnings = append(warnings, config.Warning{Field: overrideConfigPath.Child("configMapName").String(), Message: fmt.Sprintf(
				"ConfigMap %s has no %s but %s, the key older upstream releases read: the server runs %s; set ⟦spec.overrideConfig.key⟧: %s to say so",
				o.ConfigMapName, v1alpha2.DefaultOverrideConfigKey, legacyConfigKey, legacyConfigKey, legacyConfigKey)})
		case o.Key != "":
			return key, config.Authentication{}, nil, field.ErrorList{field.NotFound(overrideConfigPath.Child("key"), fmt.Sprintf("%s (ConfigMap %s has %s: set key to the one that holds the server's config)",
				key, o.ConfigMapName, keyList(data)))}
		default:
			return key, config.Authentication{}, nil, field.ErrorList{field.NotFound(overrideConfigPath.Child("configMapName"), fmt.Sprintf(
				"%s has no key %s (it has %s): add it, or set ⟦spec.overrideConfig.key⟧ to the key that holds the server's config",
				o.ConfigMapName, key, keyList(data)))}
		}
	}
	source := fmt.Sprintf("ConfigMap %s key %s", o.ConfigMapName, key)
	env := overridesEnv(obj)
	var auth config.Authentication // unknown for a config that does not parse: CheckOwnConfig says why
	tree, parseErr := configyaml.UnmarshalMap([]byte(data[key]))
	if parseErr == nil {
		auth = config.AuthenticationOf(tree, env)
		if render.ConfigFileUndecided(obj) {
			auth = everyConfigAuthenticates(auth, data, env, o.ConfigMapName)
		}
	}
	if errs := otherKeysReadNoSecret(o.ConfigMapName, data, key); len(errs) > 0 {
		return key, auth, nil, errs
	}
	if parseErr == nil {
		secretErrs, secretWarnings := config.CheckForeignSecrets(tree, overrideConfigPath.Child("configMapName"), source)
		if len(secretErrs) > 0 {
			return key, auth, nil, secretErrs
		}
		warnings = append(warnings, secretWarnings...)
		if w := releaseMismatch(dist, tree, source); w != nil {
			warnings = append(warnings, *w)
		}
	}
	if dist.VersionSource != "" {
		if parseErr != nil {
			return key, auth, nil, field.ErrorList{field.Invalid(overrideConfigPath.Child("configMapName"), source,
				fmt.Sprintf("not a config.yaml the server can read: %v", parseErr))}
		}
		checked, ferr := config.CheckOwnConfig(tree, dist.Profile, env, overrideConfigPath.Child("configMapName"), source)
		if ferr != nil {
			if w := releaseMismatch(dist, tree, source); w != nil {
				ferr.Detail += "; " + w.Message // the releases the config was written for, which render it
			}
			return key, auth, nil, field.ErrorList{ferr}
		}
		warnings = append(warnings, checked...)
	} else if dist.Release != "" {
		warnings = append(warnings, config.Warning{Field: distributionPath.String(), Message: fmt.Sprintf(
			"%s runs %s, which llsd has no facts of, so the config in %s is checked against none: keys the server ignores and "+
				"settings it falls back from go unnoticed", dist.Release, cmp.Or(dist.Server, "a server release nobody recorded"), source)})
	} else {
		// :latest and tags without a version: the keys the server ignores, the models it never
		// registers, the localhost it falls back to are all a matter of its version.
		warnings = append(warnings, config.Warning{Field: distributionPath.String(), Message: fmt.Sprintf(
			"image %s names no server version, so the config in %s is checked against none: keys the server ignores and "+
				"settings it falls back from go unnoticed; pin an official image to a release tag, or set ⟦spec.distribution.serverVersion⟧ to the version it runs",
			dist.Image, source)})
	}
	if parseErr != nil { // nothing can be said of what it reads
		return key, auth, warnings, nil
	}
	return key, auth, append(warnings, config.UnreadEnv(tree, env, overridesEnvPath)...), nil
}

var overridesEnvPath = field.NewPath("spec", "workload", "overrides", "env")

// everyConfigAuthenticates is what a pod asks of callers when its command may run any key of
// the ConfigMap it mounts whole (render.ConfigFileUndecided): it authenticates only when every
// key that is a config (a mapping with apis, providers or server) does.
func everyConfigAuthenticates(auth config.Authentication, data map[string]string, env []corev1.EnvVar, configMap string) config.Authentication {
	for _, key := range slices.Sorted(maps.Keys(data)) {
		tree, err := configyaml.UnmarshalMap([]byte(data[key]))
		if err != nil && auth.Known {
			auth.Known, auth.Unread = false, fmt.Sprintf("key %s of ConfigMap %s, which the command may run, is no YAML llsd reads (%v)", key, configMap, err)
			continue
		}
		if err != nil || tree["apis"] == nil && tree["providers"] == nil && tree["server"] == nil {
			continue // no config the server could run
		}
		auth.Required = auth.Required && config.AuthenticationOf(tree, env).Required
	}
	return auth
}

// otherKeysReadNoSecret holds the keys of the user's ConfigMap but the one the server runs to
// the rule of foreign configs: the pod mounts the ConfigMap whole (as the operators do), so a
// command llsd does not read (/etc/llama-stack/$(F), sh -c "cd ... && ogx run other.yaml") can
// run any of them, and one that reads a variable llsd fills from a Secret can send it anywhere.
// Only a key that could read one is parsed: after YAML's decoding, ${ comes from ${ written,
// or from an escape (\x24); a percent-encoding is read as decoded too.
func otherKeysReadNoSecret(configMap string, data map[string]string, running string) field.ErrorList {
	var errs field.ErrorList
	for _, key := range slices.Sorted(maps.Keys(data)) {
		text := data[key]
		if key == running || !strings.Contains(text, "${") && !strings.ContainsAny(text, `\%`) {
			continue
		}
		tree, err := configyaml.UnmarshalMap([]byte(text))
		if err != nil {
			continue // no config: the server cannot run it
		}
		found, _ := config.CheckForeignSecrets(tree, overrideConfigPath.Child("configMapName"),
			fmt.Sprintf("ConfigMap %s key %s (mounted whole beside the key the server runs, %s, so a command can run it)", configMap, key, running))
		errs = append(errs, found...)
	}
	return errs
}

// releaseMismatch warns when a config of the user's reads like another server version than the
// OpenShift AI release's (a run.yaml written for 2.x on 3.4): the object was written for an
// earlier release, which the render option can name.
func releaseMismatch(dist *distribution.Resolved, tree map[string]any, source string) *config.Warning {
	if dist.Release == "" {
		return nil
	}
	v, evidence, bound, ok := distribution.FingerprintRange(tree)
	if !ok || v == dist.Version || bound != distribution.Exactly && dist.Version.Compare(v) == bound {
		return nil // the release's version is one the structure allows
	}
	written := string(v)
	switch bound {
	case distribution.AtLeast:
		written += " or later"
	case distribution.AtMost:
		written += " or earlier"
	}
	hint := ""
	if running := distribution.ReleasesWithin(v, bound); len(running) > 0 {
		hint = fmt.Sprintf(" (%s run it)", strings.Join(running, ", "))
	}
	return &config.Warning{Field: distributionPath.String(), Message: fmt.Sprintf(
		"the config in %s reads like a config of server %s (%s), and %s runs %s: if the object was written for an earlier release, "+
			"render for it with the render option openshiftAI.release%s", source, written, evidence, dist.Release, dist.Server, hint)}
}

// namedKey is the key of the user's ConfigMap that the spec's own RUN_CONFIG_PATH or command
// makes the server run (render.NamedConfigFile), with where the spec names it.
type namedKey struct {
	key, file string
	at        *field.Path
	// warning says that the spec runs a file that is no key of the ConfigMap.
	warning *config.Warning
}

// namedConfigKey finds the key the spec's settings run. One that contradicts
// spec.overrideConfig.key is an error: the two would name different configs.
func namedConfigKey(obj *v1alpha2.LlamaStackDistribution, ogxServer bool) (namedKey, *field.Error) {
	o := obj.Spec.OverrideConfig
	file, at := render.NamedConfigFile(obj)
	if file == "" {
		return namedKey{}, nil
	}
	key, ok := render.UserConfigKeyAt(obj, o.ConfigMapName, file, ogxServer)
	if !ok {
		return namedKey{warning: &config.Warning{Field: at.String(), Message: fmt.Sprintf("the server runs %s, which is no key of ConfigMap %s "+
			"(⟦spec.overrideConfig⟧, mounted at %s): llsd checks nothing of it; name %s/<key> to have it checked", file, o.ConfigMapName, config.ConfigDir, config.ConfigDir)}}, nil
	}
	if o.Key != "" && o.Key != key {
		return namedKey{}, field.Invalid(at, file, fmt.Sprintf("the server runs the key %s of ConfigMap %s, and ⟦spec.overrideConfig.key⟧ names %s: make them agree",
			key, o.ConfigMapName, o.Key))
	}
	return namedKey{key: key, file: file, at: at}, nil
}

// keyList names the keys of a ConfigMap's data, for messages.
func keyList(data map[string]string) string {
	if len(data) == 0 {
		return "no keys"
	}
	return strings.Join(slices.Sorted(maps.Keys(data)), ", ")
}

var baseConfigPath = distributionPath.Child("baseConfig")

// distributionOptions are the resolver's options for one object: its baseConfig's config,
// read from the ConfigMaps among the inputs and held to the spec's secret rules
// (config.CheckForeignSecrets), and whether it may run its image's own config (when it asks
// llsd to generate nothing).
func distributionOptions(obj *v1alpha2.LlamaStackDistribution, opts Options) (distribution.Options, []config.Warning, field.ErrorList) {
	out := opts.Distribution
	out.ImageOwnConfig = generatesNothing(&obj.Spec)
	b := obj.Spec.Distribution.BaseConfig
	if b == nil {
		return out, nil, nil
	}
	data, ok := opts.configMap(obj, b.ConfigMapName)
	if !ok {
		return out, nil, field.ErrorList{field.NotFound(baseConfigPath.Child("configMapName"), fmt.Sprintf(
			"%s (llsd generates from the base config at render time: put the ConfigMap among the inputs, next to the LlamaStackDistribution)", b.ConfigMapName))}
	}
	base, ok := data[b.ConfigKey()]
	if !ok {
		path := baseConfigPath.Child("configMapName")
		if b.Key != "" {
			path = baseConfigPath.Child("key")
		}
		return out, nil, field.ErrorList{field.NotFound(path, fmt.Sprintf("%s has no key %s (it has %s): set ⟦spec.distribution.baseConfig.key⟧ to the key that holds the image's config",
			b.ConfigMapName, b.ConfigKey(), keyList(data)))}
	}
	source := fmt.Sprintf("ConfigMap %s key %s", b.ConfigMapName, b.ConfigKey())
	out.BaseConfig = &distribution.BaseConfigData{Config: []byte(base), Source: source}
	tree, err := configyaml.UnmarshalMap([]byte(base))
	if err != nil {
		return out, nil, nil // the resolver reports it, with where
	}
	secretErrs, secretWarnings := config.CheckForeignSecrets(tree, baseConfigPath.Child("configMapName"), source)
	return out, secretWarnings, secretErrs
}

// generatesNothing reports whether a spec asks for nothing that goes into config.yaml:
// then an image llsd has no base config for may run the config it ships.
func generatesNothing(spec *v1alpha2.LlamaStackDistributionSpec) bool {
	return spec.Providers == nil && spec.Resources == nil && spec.Storage == nil && spec.Disabled == nil &&
		spec.ExternalProviders == nil && spec.Distribution.BaseConfig == nil && spec.ServerTLS() == nil &&
		(spec.Workload == nil || spec.Workload.Workers == nil)
}

// renderImageOwnConfig renders a Deployment of an image that runs the config it ships: no
// ConfigMap, no RUN_CONFIG_PATH.
func renderImageOwnConfig(obj *v1alpha2.LlamaStackDistribution, dist *distribution.Resolved, opts Options, errs field.ErrorList) (*Result, field.ErrorList) {
	envErrs, envWarnings := config.OverrideEnvProblems(overridesEnv(obj)) // whatever config runs (#56)
	return renderWithReceipt(render.Input{Object: obj, Distribution: dist, Options: opts.Render, ConfigMaps: opts.ConfigMaps}, obj,
		api.Receipt{Image: dist.Image, ConfigSource: api.ConfigSourceImage, RendererVersion: opts.RendererVersion}, append(errs, envErrs...),
		append(slices.Clone(dist.Warnings), envWarnings...))
}
