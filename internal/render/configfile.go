// SPDX-License-Identifier: Apache-2.0

package render

import (
	"cmp"
	"path"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// A config of the user's own (spec.overrideConfig; v1alpha1 userConfig) is their ConfigMap,
// mounted whole at config.ConfigDir as the upstream and Open Data Hub operators mount it: every
// key a file. Which key the server runs is the spec's to say: spec.overrideConfig.key, or the
// file that RUN_CONFIG_PATH or the command names, as the OpenShift AI dashboard writes it:
//
//	command: [/bin/sh, -c, llama stack run /etc/llama-stack/run.yaml]   # runs the key run.yaml
//	env: [{name: RUN_CONFIG_PATH, value: /app-config/config.yaml}]      # a mount of the same ConfigMap

// NamedConfigFile is the config file the spec's own settings make the server run, and where
// the spec names it: the value of RUN_CONFIG_PATH in spec.workload.overrides.env, else the first
// absolute path to a .yaml file in its command or arguments; "" when the spec names none.
func NamedConfigFile(obj *v1alpha2.LlamaStackDistribution) (string, *field.Path) {
	o := overrides(obj)
	if o == nil {
		return "", nil
	}
	for i, e := range o.Env {
		if e.Name == runConfigPathEnv && e.ValueFrom == nil && strings.HasPrefix(e.Value, "/") {
			return path.Clean(e.Value), overridesPath.Child("env").Index(i).Child("value")
		}
	}
	for _, list := range []struct {
		name  string
		items []string
	}{{"command", o.Command}, {"args", o.Args}} {
		for i, s := range list.items {
			for _, file := range absolutePaths().FindAllString(s, -1) {
				if strings.HasSuffix(file, ".yaml") || strings.HasSuffix(file, ".yml") {
					return path.Clean(file), overridesPath.Child(list.name).Index(i)
				}
			}
		}
	}
	return "", nil
}

// ConfigFileUndecided reports whether the pod's command may run a config file llsd cannot
// name: none is named (NamedConfigFile), and RUN_CONFIG_PATH comes from a Secret or ConfigMap,
// or the command or its args read a variable ($(VAR), or a shell's $VAR), as in
// `ogx run /etc/llama-stack/$(F)`. Such a pod may run any key of a ConfigMap mounted whole.
func ConfigFileUndecided(obj *v1alpha2.LlamaStackDistribution) bool {
	o := overrides(obj)
	if o == nil {
		return false
	}
	if file, _ := NamedConfigFile(obj); file != "" {
		return false
	}
	for _, e := range o.Env {
		if e.Name == runConfigPathEnv && e.ValueFrom != nil {
			return true
		}
	}
	return slices.ContainsFunc(slices.Concat(o.Command, o.Args), func(s string) bool { return strings.Contains(s, "$") })
}

// SuccessorConfigFile is where the successor operator mounts an OGXServer's config (the key of
// its generated or overrideConfig ConfigMap, as config.yaml). llsd mounts an OGXServer's there
// too, so that a command written for the successor runs it.
const SuccessorConfigFile = "/etc/ogx/config.yaml"

// UserConfigKeyAt is the key of the user's ConfigMap that file is, when the pod mounts that
// ConfigMap there: whole at config.ConfigDir, as SuccessorConfigFile for an OGXServer
// (successor), or through a volume of spec.workload.overrides.
func UserConfigKeyAt(obj *v1alpha2.LlamaStackDistribution, configMap, file string, successor bool) (string, bool) {
	if key, ok := strings.CutPrefix(file, config.ConfigDir+"/"); ok {
		return key, true
	}
	if successor && file == SuccessorConfigFile && obj.Spec.OverrideConfig != nil {
		return cmp.Or(obj.Spec.OverrideConfig.Key, v1alpha2.DefaultOverrideConfigKey), true
	}
	o := overrides(obj)
	if o == nil {
		return "", false
	}
	for _, m := range o.VolumeMounts {
		dir := path.Clean(m.MountPath)
		key, ok := strings.CutPrefix(file, dir+"/")
		if !ok || m.SubPath != "" {
			continue
		}
		if v := volumeNamed(o.Volumes, m.Name); v != nil && v.ConfigMap != nil && v.ConfigMap.Name == configMap {
			return key, true
		}
	}
	return "", false
}

// userRunConfigPath reports whether the spec's own RUN_CONFIG_PATH names the user's config: then
// llsd sets none.
func userRunConfigPath(in Input) bool {
	if in.UserConfig == "" {
		return false
	}
	file, at := NamedConfigFile(in.Object)
	if file == "" || !strings.HasSuffix(at.String(), ".value") {
		return false
	}
	_, ok := UserConfigKeyAt(in.Object, in.UserConfig, file, in.Options.OGXServer)
	return ok
}

// successorConfigMount reports whether the pod mounts its config also as SuccessorConfigFile:
// an OGXServer's, when the server runs a config of llsd's or the user's ConfigMap.
func (in Input) successorConfigMount() bool {
	return in.Options.OGXServer && !in.runsImageConfig()
}

// mountedConfigKey is the key of the config's ConfigMap the server runs: the user's, else the
// generated config.yaml.
func (in Input) mountedConfigKey() string {
	if in.UserConfig != "" {
		return in.configKey()
	}
	return ConfigKey
}

const runConfigPathEnv = "RUN_CONFIG_PATH"
