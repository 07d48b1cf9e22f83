// SPDX-License-Identifier: Apache-2.0

package render

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// replaceable are llsd's volumes that a volume of the spec's, mounted at the same path, takes
// the place of: any volume serves as the server's state or cache directory. The other volumes
// hold what llsd generated or was asked to mount (config.yaml, certificates, provider
// packages); mounting over them would hide it.
var replaceable = map[string]string{volumeStorage: "the server's state", volumeCache: "the server's cache"}

// addUserVolumes joins spec.workload.overrides' volumes and mounts to llsd's own in the pod,
// so that the API server takes the result: a mount of the spec's at the path of llsd's state
// or cache replaces llsd's (a Helm chart that mounts its own cache at /.cache works, with a
// warning naming both); a volume of the spec's with the name of one of llsd's keeps its name
// and llsd's is renamed; what the API server would still reject (a mount over config.yaml,
// two volumes or mounts of the spec's with one name or path, a mount of no volume) is an
// error naming the field.
//
//	overrides:
//	  volumes: [{name: cache, persistentVolumeClaim: {claimName: hf-cache}}]
//	  volumeMounts: [{name: cache, mountPath: /.cache}]   # replaces llsd's emptyDir cache
func addUserVolumes(pod *corev1.PodSpec, o *v1alpha2.WorkloadOverrides) (field.ErrorList, []config.Warning) {
	if o == nil || len(o.Volumes)+len(o.VolumeMounts) == 0 {
		return nil, nil
	}
	errs := append(duplicateUserVolumes(o), sourcelessVolumes(o)...)
	replacedErrs, warnings := replaceMounts(pod, o)
	errs = append(errs, replacedErrs...)
	dropUnmounted(pod, o)
	warnings = append(warnings, renameOwnVolumes(pod, o)...)
	pod.Volumes = append(pod.Volumes, o.Volumes...)
	pod.Containers[0].VolumeMounts = append(pod.Containers[0].VolumeMounts, o.VolumeMounts...)
	errs = append(errs, mountsOfNoVolume(pod, o)...)
	return errs, warnings
}

var overridesPath = workloadPath.Child("overrides")

// duplicateUserVolumes: two volumes of the spec with one name, or two mounts at one path.
func duplicateUserVolumes(o *v1alpha2.WorkloadOverrides) field.ErrorList {
	var errs field.ErrorList
	names := map[string]int{}
	for i, v := range o.Volumes {
		if j, seen := names[v.Name]; seen {
			errs = append(errs, field.Duplicate(overridesPath.Child("volumes").Index(i).Child("name"),
				fmt.Sprintf("%s is also the name of volumes[%d]: give each volume a name of its own", v.Name, j)))
		}
		names[v.Name] = i
	}
	paths := map[string]int{}
	for i, m := range o.VolumeMounts {
		p := cleanMountPath(m.MountPath)
		if j, seen := paths[p]; seen {
			errs = append(errs, field.Duplicate(overridesPath.Child("volumeMounts").Index(i).Child("mountPath"),
				fmt.Sprintf("%s is also where volumeMounts[%d] mounts: one volume per path", m.MountPath, j)))
		}
		paths[p] = i
	}
	return errs
}

// sourcelessVolumes: a volume with a name and nothing else (a reference page's placeholder),
// which the API server refuses ("must specify a volume type").
func sourcelessVolumes(o *v1alpha2.WorkloadOverrides) field.ErrorList {
	var errs field.ErrorList
	for i, v := range o.Volumes {
		if !hasSource(v) {
			errs = append(errs, field.Required(overridesPath.Child("volumes").Index(i), fmt.Sprintf("volume %s has no source: give it one, "+
				"such as emptyDir: {}, configMap: {name: ...}, secret: {secretName: ...} or persistentVolumeClaim: {claimName: ...}", v.Name)))
		}
	}
	return errs
}

// hasSource: the volume says where its files come from (emptyDir, configMap, ...).
func hasSource(v corev1.Volume) bool { return !reflect.ValueOf(v.VolumeSource).IsZero() }

// replaceMounts takes llsd's mount away where a mount of the spec's has its path, when it is
// the state or cache; at any other of llsd's paths the spec's mount is an error.
func replaceMounts(pod *corev1.PodSpec, o *v1alpha2.WorkloadOverrides) (field.ErrorList, []config.Warning) {
	var errs field.ErrorList
	var warnings []config.Warning
	server := &pod.Containers[0]
	for i, m := range o.VolumeMounts {
		p := overridesPath.Child("volumeMounts").Index(i)
		j := slices.IndexFunc(server.VolumeMounts, func(own corev1.VolumeMount) bool {
			return cleanMountPath(own.MountPath) == cleanMountPath(m.MountPath)
		})
		if j < 0 {
			continue
		}
		own := server.VolumeMounts[j]
		purpose, ok := replaceable[own.Name]
		if !ok {
			errs = append(errs, field.Duplicate(p.Child("mountPath"), fmt.Sprintf(
				"%s is where llsd mounts its volume %s (%s): mount yours elsewhere", m.MountPath, own.Name, volumePurpose(own.Name))))
			continue
		}
		message := fmt.Sprintf("mounts volume %s at %s in place of llsd's volume %s (%s)", m.Name, m.MountPath, own.Name, purpose)
		if v := volumeNamed(pod.Volumes, own.Name); v != nil && v.PersistentVolumeClaim != nil {
			message += fmt.Sprintf(": the PersistentVolumeClaim %s of ⟦spec.workload.storage⟧ is generated but not mounted; remove ⟦spec.workload.storage⟧ or mount yours elsewhere",
				v.PersistentVolumeClaim.ClaimName)
		}
		warnings = append(warnings, config.Warning{Field: p.String(), Message: message})
		server.VolumeMounts = slices.Delete(server.VolumeMounts, j, j+1)
	}
	return errs, warnings
}

// dropUnmounted removes llsd's volumes that no container mounts any more. A mount of the
// spec's that names one of llsd's volumes (and no volume of its own) still uses it.
func dropUnmounted(pod *corev1.PodSpec, o *v1alpha2.WorkloadOverrides) {
	used := map[string]bool{}
	eachMount(pod, func(m *corev1.VolumeMount) { used[m.Name] = true })
	for _, m := range o.VolumeMounts {
		if volumeNamed(o.Volumes, m.Name) == nil {
			used[m.Name] = true
		}
	}
	pod.Volumes = slices.DeleteFunc(pod.Volumes, func(v corev1.Volume) bool { return !used[v.Name] })
}

// renameOwnVolumes gives llsd's volume a free name where a volume of the spec's has its name:
// the spec's mounts of that name mean the spec's volume.
func renameOwnVolumes(pod *corev1.PodSpec, o *v1alpha2.WorkloadOverrides) []config.Warning {
	var warnings []config.Warning
	for i, v := range o.Volumes {
		own := volumeNamed(pod.Volumes, v.Name)
		if own == nil {
			continue
		}
		renamed := "llsd-" + v.Name
		for n := 2; volumeNamed(o.Volumes, renamed) != nil || volumeNamed(pod.Volumes, renamed) != nil; n++ {
			renamed = fmt.Sprintf("llsd-%s-%d", v.Name, n)
		}
		warnings = append(warnings, config.Warning{Field: overridesPath.Child("volumes").Index(i).Child("name").String(), Message: fmt.Sprintf(
			"%s is also the name of llsd's volume (%s), which is named %s in the pod; your mounts of %s mount yours", v.Name, volumePurpose(v.Name), renamed, v.Name)})
		own.Name = renamed
		eachMount(pod, func(m *corev1.VolumeMount) {
			if m.Name == v.Name {
				m.Name = renamed
			}
		})
	}
	return warnings
}

// eachMount calls f with every volume mount of the pod's containers, init containers first.
func eachMount(pod *corev1.PodSpec, f func(*corev1.VolumeMount)) {
	for _, containers := range [][]corev1.Container{pod.InitContainers, pod.Containers} {
		for i := range containers {
			for j := range containers[i].VolumeMounts {
				f(&containers[i].VolumeMounts[j])
			}
		}
	}
}

// mountsOfNoVolume: a mount of the spec's whose volume is neither the spec's nor llsd's.
func mountsOfNoVolume(pod *corev1.PodSpec, o *v1alpha2.WorkloadOverrides) field.ErrorList {
	var errs field.ErrorList
	for i, m := range o.VolumeMounts {
		if volumeNamed(pod.Volumes, m.Name) == nil {
			errs = append(errs, field.NotFound(overridesPath.Child("volumeMounts").Index(i).Child("name"),
				m.Name+" (add a volume of that name to ⟦spec.workload.overrides.volumes⟧)"))
		}
	}
	return errs
}

func volumeNamed(volumes []corev1.Volume, name string) *corev1.Volume {
	if i := slices.IndexFunc(volumes, func(v corev1.Volume) bool { return v.Name == name }); i >= 0 {
		return &volumes[i]
	}
	return nil
}

// cleanMountPath is the path a mount occupies: /.cache/ and /.cache are one.
func cleanMountPath(p string) string { return path.Clean(p) }

// volumePurpose says what one of llsd's volumes holds.
func volumePurpose(name string) string {
	switch name {
	case volumeConfig:
		return "the generated config.yaml"
	case volumeStorage:
		return "the server's state"
	case volumeCache:
		return "the server's cache"
	case volumeTLS:
		return "the serving certificate"
	case volumeCABundle, volumeCAMerged:
		return "the CA bundle"
	case volumeProviders:
		return "the external providers' packages"
	case volumeOGXConfig:
		return "the config, where the successor operator mounts it"
	}
	if strings.HasPrefix(name, volumeCABundle+"-") {
		return "a CA bundle"
	}
	if strings.HasPrefix(name, volumeClientTLS+"-") {
		return "a provider's client certificate"
	}
	return "mounted by llsd"
}
