// SPDX-License-Identifier: Apache-2.0

package render

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"path"
	"reflect"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/fastcodec"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Input is everything one LlamaStackDistribution renders from.
type Input struct {
	Object       *v1alpha2.LlamaStackDistribution
	Distribution *distribution.Resolved
	// Config is the generated config; nil when the spec runs its own (overrideConfig).
	Config *config.Result
	// UserConfig names the user's ConfigMap with config.yaml (overrideConfig), used as is;
	// UserConfigKey is its key that holds the config, mounted as config.yaml.
	UserConfig, UserConfigKey string
	// UserConfigHash is the content hash of that ConfigMap when it is known (it was in the
	// input): it goes on the pod template, so editing the ConfigMap rolls the pods.
	UserConfigHash string
	// ConfigMaps are the ConfigMaps among the inputs, by namespace/name, with their data: a
	// CA bundle found here is checked, and its content drives rollouts.
	ConfigMaps map[string]map[string]string
	Options    Options
	// Authentication is what the user's config (UserConfig) asks of callers; a generated
	// config says its own (Config.Authentication).
	Authentication config.Authentication
	// ModelAccess is what the server needs to call token-protected InferenceServices.
	ModelAccess ModelAccess
}

// authentication is what the config the server runs asks of its callers.
func (in Input) authentication() config.Authentication {
	if in.Config != nil && in.Config.Config != nil {
		return in.Config.Authentication
	}
	return in.Authentication
}

// configFile is the config file the server runs: the generated config.yaml, or the key of the
// user's ConfigMap, mounted whole at config.ConfigDir.
func (in Input) configFile() string {
	if userRunConfigPath(in) {
		file, _ := NamedConfigFile(in.Object)
		return file
	}
	if in.UserConfig != "" {
		return path.Join(config.ConfigDir, in.configKey())
	}
	return configPath
}

// configKey is the key of the user's ConfigMap that holds the config the server runs.
func (in Input) configKey() string {
	return cmp.Or(in.UserConfigKey, v1alpha2.DefaultOverrideConfigKey)
}

// runsImageConfig reports whether the server runs the config its image ships: llsd
// generated none and the spec names none.
func (in Input) runsImageConfig() bool {
	return (in.Config == nil || in.Config.Config == nil) && in.UserConfig == ""
}

// Output are the rendered objects, in a fixed order, and the generated ConfigMap's name.
type Output struct {
	Objects       []Object
	ConfigMapName string
	ConfigHash    string
	// Warnings are things the user should know that do not stop the render.
	Warnings []config.Warning
}

// Kinds returns an empty object of every kind a render writes, LlamaStackDistribution
// included: what writes them can prepare for each kind ahead (krm warms their JSON encoders).
func Kinds() []Object {
	return []Object{&v1alpha2.LlamaStackDistribution{}, &corev1.ConfigMap{}, &corev1.ServiceAccount{},
		&corev1.PersistentVolumeClaim{}, &appsv1.Deployment{}, &corev1.Service{}, &networkingv1.Ingress{},
		&networkingv1.NetworkPolicy{}, &autoscalingv2.HorizontalPodAutoscaler{}, &policyv1.PodDisruptionBudget{}, &Route{},
		&ServiceMonitor{}, &PrometheusRule{}, &corev1.Secret{}, &rbacv1.Role{}, &rbacv1.RoleBinding{}}
}

// Object is a Kubernetes object a render writes (the method set of controller-runtime's
// client.Object, which the KRM function does not link).
type Object interface {
	metav1.Object
	runtime.Object
}

// Render returns the objects of one LlamaStackDistribution: ConfigMap, ServiceAccount,
// PersistentVolumeClaim, Deployment, Service, Ingress or Route, NetworkPolicy,
// HorizontalPodAutoscaler, PodDisruptionBudget, ServiceMonitor, PrometheusRule (each when the
// spec calls for it), or the
// errors that stop it (what the API server or the workload would refuse). No owner
// references: nothing has a UID at render time, and pruning belongs to the GitOps tool.
func Render(in Input) (Output, field.ErrorList) {
	if in.Config == nil {
		in.Config = &config.Result{}
	}
	errs, warnings := check(in)
	if len(errs) > 0 {
		return Output{}, errs
	}
	m := meta{llsd: in.Object.Name, names: api.NamesOf(in.Object.Name), namespace: in.Object.Namespace, labels: in.Object.Labels}
	out := Output{ConfigMapName: in.UserConfig, ConfigHash: in.UserConfigHash, Warnings: warnings}
	if in.Config.Config != nil {
		cm, hash := configMap(m, in.Config)
		if err := checkConfigMapSize(cm); err != nil {
			return Output{}, field.ErrorList{err}
		}
		out.ConfigMapName, out.ConfigHash = cm.Name, hash
		out.Objects = append(out.Objects, cm)
	}
	out.Objects = appendRendered(out.Objects, trustedCAConfigMap(m, in.Object), serviceAccount(m, in.Object), pvc(m, in.Object))
	d := deployment(m, in, out.ConfigMapName, out.ConfigHash)
	volumeErrs, volumeWarnings := addUserVolumes(&d.Spec.Template.Spec, overrides(in.Object))
	addCacheSeed(&d.Spec.Template.Spec, in)
	podErrs, podWarnings := checkPod(in, &d.Spec.Template)
	podErrs, podWarnings = append(volumeErrs, podErrs...), append(volumeWarnings, podWarnings...)
	if len(podErrs) > 0 {
		return Output{}, podErrs
	}
	out.Warnings = append(append(out.Warnings, podWarnings...), tokenWarnings(in, tokenOf(in))...)
	out.Objects = appendRendered(out.Objects, d, service(m, in.Object),
		ingress(m, in.Object, in.Options), route(m, in.Object, in.Options), networkPolicy(m, in.Object, in.Options),
		hpa(m, in.Object), pdb(m, in.Object), serviceMonitor(m, in.Object), prometheusRule(m, in.Object))
	out.Objects = append(out.Objects, modelAccessObjects(m, in.ModelAccess, d.Spec.Template.Spec.ServiceAccountName)...)
	return out, nil
}

// appendRendered appends the objects the spec calls for: each builder returns a nil pointer
// for an object it does not.
func appendRendered(objects []Object, rendered ...Object) []Object {
	for _, o := range rendered {
		if o != nil && !reflect.ValueOf(o).IsNil() { // every builder returns a pointer
			objects = append(objects, o)
		}
	}
	return objects
}

// meta builds the metadata every rendered object shares.
type meta struct {
	llsd      string
	names     api.Names
	namespace string
	// labels are the LlamaStackDistribution's own: they go on every object it renders (a
	// kustomization's labels: reach them so), under llsd's own labels.
	labels map[string]string
}

func (m meta) object(name string) metav1.ObjectMeta {
	labels := make(map[string]string, len(m.labels)+3)
	maps.Copy(labels, m.labels)
	maps.Copy(labels, m.names.Labels())
	return metav1.ObjectMeta{Name: name, Namespace: m.namespace, Labels: labels,
		Annotations: map[string]string{api.AnnotationGeneratedFrom: m.llsd}}
}

// YAML writes objects as a YAML stream of manifests: without status and empty fields, which
// belong to the cluster, not to Git.
func YAML(objects []Object) ([]byte, error) {
	var buf bytes.Buffer
	for _, o := range objects {
		u, err := Manifest(o)
		if err != nil {
			return nil, err
		}
		data, err := yaml.Marshal(u)
		if err != nil {
			return nil, err
		}
		buf.WriteString("---\n")
		buf.Write(data)
	}
	return buf.Bytes(), nil
}

// Manifest is an object as it belongs in Git: a plain map without status, creation
// timestamp or empty annotations.
func Manifest(o Object) (map[string]any, error) {
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil, err
	}
	StripRuntimeFields(u)
	return u, nil
}

// StripRuntimeFields removes from an object's map what belongs to the cluster, not to Git
// (IsRuntimeField).
func StripRuntimeFields(object map[string]any) { fastcodec.DropFields(object, IsRuntimeField) }

// IsRuntimeField reports whether the field of an object at path (keys from the object's top;
// empty when its value is an empty mapping) belongs to the cluster, not to Git: status, the
// creation timestamp, and annotations left empty.
func IsRuntimeField(path []string, empty bool) bool {
	switch {
	case len(path) == 1:
		return path[0] == "status"
	case len(path) == 2 && path[0] == "metadata":
		return path[1] == "creationTimestamp" || path[1] == "annotations" && empty
	}
	return false
}

// ConfigMapDataHash is the content hash of a ConfigMap's data: hex sha256 over its keys in
// order, each key and value followed by a zero byte.
func ConfigMapDataHash(data map[string]string) string {
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	h := sha256.New()
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte{0})
		h.Write([]byte(data[k]))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}
