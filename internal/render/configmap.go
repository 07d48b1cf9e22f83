// SPDX-License-Identifier: Apache-2.0

package render

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Keys of the generated ConfigMap.
const (
	ConfigKey   = "config.yaml"
	LauncherKey = "launcher.py"
)

// configMap is the generated config as an immutable ConfigMap named after its content: a new
// config is a new ConfigMap, which rolls the pods; old pods keep their config until they go
// (Argo CD prunes the old one last).
func configMap(m meta, res *config.Result) (*corev1.ConfigMap, string) {
	data := map[string]string{ConfigKey: string(res.Config)}
	if res.Launcher != nil {
		data[LauncherKey] = string(res.Launcher)
	}
	hash := ConfigMapDataHash(data)
	immutable := true
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: m.object(m.names.ConfigMap(hash)),
		Immutable:  &immutable,
		Data:       data,
	}
	cm.Annotations["argocd.argoproj.io/sync-options"] = "PruneLast=true"
	return cm, hash
}

// maxConfigMapBytes is what the API server takes in a ConfigMap's data (corev1.MaxSecretSize,
// which its validation applies to ConfigMaps too).
const maxConfigMapBytes = corev1.MaxSecretSize

// checkConfigMapSize refuses a generated ConfigMap the API server would refuse, naming the parts
// of config.yaml that take the most: a render's output must apply.
func checkConfigMapSize(cm *corev1.ConfigMap) *field.Error {
	total := 0
	for _, v := range cm.Data {
		total += len(v)
	}
	if total <= maxConfigMapBytes {
		return nil
	}
	return field.Forbidden(field.NewPath("spec"), fmt.Sprintf(
		"the generated ConfigMap %s would hold %s, more than the %s the API server takes in a ConfigMap%s: register "+
			"fewer resources (⟦spec.resources⟧, or a base config's registered_resources), or make large settings smaller",
		cm.Name, byteSize(total), byteSize(maxConfigMapBytes), largestParts(cm.Data[ConfigKey])))
}

// largestParts names the three top-level keys of a config that take the most, with their sizes.
func largestParts(data string) string {
	tree, err := configyaml.UnmarshalMap([]byte(data))
	if err != nil {
		return ""
	}
	size := map[string]int{}
	for key, value := range tree {
		out, _ := yaml.Marshal(value)
		size[key] = len(out)
	}
	keys := slices.SortedFunc(maps.Keys(size), func(a, b string) int { return cmp.Or(size[b]-size[a], strings.Compare(a, b)) })
	var parts []string
	for _, key := range keys[:min(3, len(keys))] {
		parts = append(parts, fmt.Sprintf("%s %s", key, byteSize(size[key])))
	}
	return " (the largest parts of config.yaml: " + strings.Join(parts, ", ") + ")"
}

// byteSize writes a size in KiB or MiB, as people read it.
func byteSize(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", (n+1023)/1024)
}

// injectTrustedCABundle is the label OpenShift's cluster network operator looks for: it fills
// the ConfigMap's ca-bundle.crt with the CAs the cluster trusts, and keeps it current.
const injectTrustedCABundle = "config.openshift.io/inject-trusted-cabundle"

// trustedCAConfigMap is the ConfigMap the cluster fills with its trusted CAs
// (networking.tls.clusterTrustedCAs). It has no data of its own: the cluster's are not drift
// for a GitOps tool that applies only the fields it manages, and it is not immutable.
func trustedCAConfigMap(m meta, obj *v1alpha2.LlamaStackDistribution) *corev1.ConfigMap {
	if !obj.Spec.ClusterTrustedCAs() {
		return nil
	}
	cm := &corev1.ConfigMap{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
		ObjectMeta: m.object(m.names.TrustedCA()),
	}
	cm.Labels[injectTrustedCABundle] = "true"
	return cm
}
