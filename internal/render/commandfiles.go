// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"path"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// missingFiles refuses a command or argument of the spec's that names a file under a mount
// whose volume lists its files, but none of them: the server would not start. llsd's own
// ConfigMap holds config.yaml (and launcher.py); the keys of the user's, mounted whole at
// /etc/llama-stack as the operators mount it, the pipeline checks.
//
//	overrides:
//	  command: [/bin/sh, -c, llama stack run /etc/llama-stack/run.yaml]   # an error when the ConfigMap has no run.yaml
func missingFiles(in Input, pod *corev1.PodSpec, o *v1alpha2.WorkloadOverrides) field.ErrorList {
	var errs field.ErrorList
	own := ownKeys(in)
	check := func(p *field.Path, s string) {
		for _, file := range absolutePaths().FindAllString(s, -1) {
			clean := path.Clean(file)
			m, files, ok := listedFilesAt(pod, own, clean)
			if !ok || slices.ContainsFunc(files, func(f string) bool { return f == clean || strings.HasPrefix(f, clean+"/") }) {
				continue
			}
			hint := "write one of those"
			if m.MountPath == config.ConfigDir {
				hint = fmt.Sprintf("llsd mounts the config it generates as %s/%s: write that, or leave the command to llsd, "+
					"whose entrypoint reads it", config.ConfigDir, ConfigKey)
			}
			errs = append(errs, field.Invalid(p, s, fmt.Sprintf("%s is not in the pod: volume %s at %s holds only %s; %s",
				file, m.Name, m.MountPath, strings.Join(files, ", "), hint)))
		}
	}
	for i, s := range o.Command {
		check(overridesPath.Child("command").Index(i), s)
	}
	for i, s := range o.Args {
		check(overridesPath.Child("args").Index(i), s)
	}
	return errs
}

// absolutePaths are the absolute paths inside a command line.
var absolutePaths = lazyre.New(`/[A-Za-z0-9._/-]+`)

// ownKeys are the keys of the config ConfigMap, by where it is mounted whole (by path, as a
// volume of the spec's may take the volume's name and llsd's is then renamed): llsd's own, or
// the user's when it is among the inputs.
func ownKeys(in Input) map[string][]string {
	if in.UserConfig != "" {
		return nil // the pipeline checks the key the spec runs against the ConfigMap's (checkOverrideConfig)
	}
	if in.runsImageConfig() {
		return nil
	}
	keys := []string{ConfigKey}
	if in.Config.Launcher != nil {
		keys = append(keys, LauncherKey)
	}
	return map[string][]string{config.ConfigDir: keys}
}

// listedFilesAt finds the server container's deepest mount that holds file, when the files of
// its volume are known (a ConfigMap's or Secret's items, or the keys of llsd's own ConfigMap):
// the mount and those files.
func listedFilesAt(pod *corev1.PodSpec, own map[string][]string, file string) (corev1.VolumeMount, []string, bool) {
	var best corev1.VolumeMount
	for _, m := range pod.Containers[0].VolumeMounts {
		dir := path.Clean(m.MountPath)
		if m.SubPath == "" && strings.HasPrefix(file, dir+"/") && len(dir) > len(best.MountPath) {
			best = m
		}
	}
	v := volumeNamed(pod.Volumes, best.Name)
	if v == nil {
		return best, nil, false
	}
	var items []corev1.KeyToPath
	switch {
	case v.ConfigMap != nil:
		items = v.ConfigMap.Items
	case v.Secret != nil:
		items = v.Secret.Items
	}
	dir := path.Clean(best.MountPath)
	names := slices.Clone(own[dir])
	for _, it := range items {
		names = append(names, it.Path)
	}
	if len(names) == 0 {
		return best, nil, false // a whole ConfigMap or Secret of the user's, or a volume whose files llsd cannot know
	}
	var files []string
	for _, name := range names {
		files = append(files, path.Join(dir, name))
	}
	// deeper mounts inside it hold files too
	for _, m := range pod.Containers[0].VolumeMounts {
		if inner := path.Clean(m.MountPath); strings.HasPrefix(inner, dir+"/") {
			files = append(files, inner)
		}
	}
	return best, files, true
}
