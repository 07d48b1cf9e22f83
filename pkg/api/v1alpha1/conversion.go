// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Conversion is hub and spoke: v1alpha2 is the hub, this package the spoke. Each direction
// maps the fields both versions have (the seed's migration table). When that loses
// something, the source spec travels in an annotation together with a fingerprint of the
// converted spec:
//
//   - V1alpha2FieldsAnnotation on a v1alpha1 object holds the v1alpha2 spec (providers,
//     resources, storage, TLS settings, ...) and the v1alpha2-only status.
//   - V1alpha1FieldsAnnotation on a v1alpha2 object holds the v1alpha1 spec (container
//     name, userConfig namespace, empty objects, ...).
//
// Converting back restores the original exactly when the fingerprint still matches, that
// is, when nobody edited the object in the other version. After an edit, the edit wins and
// only the fields the other version cannot express are restored.
const (
	V1alpha2FieldsAnnotation = "llamastack.io/v1alpha2-fields"
	V1alpha1FieldsAnnotation = "llamastack.io/v1alpha1-fields"
)

type hubFields struct {
	Spec        v1alpha2.LlamaStackDistributionSpec `json:"spec"`
	Status      hubOnlyStatus                       `json:"status,omitzero"`
	Fingerprint string                              `json:"fingerprint"`
}

type hubOnlyStatus struct {
	ObservedGeneration   int64                                `json:"observedGeneration,omitempty"`
	ConfigGeneration     *v1alpha2.ConfigGenerationStatus     `json:"configGeneration,omitempty"`
	ResolvedDistribution *v1alpha2.ResolvedDistributionStatus `json:"resolvedDistribution,omitempty"`
}

type spokeFields struct {
	Spec        LlamaStackDistributionSpec `json:"spec"`
	Fingerprint string                     `json:"fingerprint"`
}

var _ conversion.Convertible = &LlamaStackDistribution{}

// ConvertTo converts this v1alpha1 object to the v1alpha2 hub.
func (src *LlamaStackDistribution) ConvertTo(hubRaw conversion.Hub) error {
	dst, ok := hubRaw.(*v1alpha2.LlamaStackDistribution)
	if !ok {
		return fmt.Errorf("cannot convert to %T: only v1alpha2 is a hub", hubRaw)
	}
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	dst.Spec = specToHub(&src.Spec)
	dst.Status = statusToHub(&src.Status)

	var saved hubFields
	found, err := takeAnnotation(&dst.ObjectMeta, V1alpha2FieldsAnnotation, &saved)
	if err != nil {
		return err
	}
	if found {
		// The whole saved spec comes back only when it is what this object converts to in
		// the fields both versions have: a fingerprint alone is easily written by hand.
		if back := specFromHub(&saved.Spec); saved.Fingerprint == fingerprint(&src.Spec) && equality.Semantic.DeepEqual(&back, &src.Spec) {
			dst.Spec = saved.Spec
		} else {
			restoreHubOnlySpec(&dst.Spec, &saved.Spec)
		}
		dst.Status.ObservedGeneration = saved.Status.ObservedGeneration
		dst.Status.ConfigGeneration = saved.Status.ConfigGeneration
		dst.Status.ResolvedDistribution = saved.Status.ResolvedDistribution
		// Anyone who can write a v1alpha1 object can write this annotation; what it restores
		// is held to the rules of a v1alpha2 create, which the API server does not apply here.
		if errs := restoredErrors(&dst.Spec); len(errs) > 0 {
			return fmt.Errorf("metadata.annotations[%s] restores an invalid v1alpha2 spec: %v", V1alpha2FieldsAnnotation, errs.ToAggregate())
		}
	}

	back := specFromHub(&dst.Spec)
	if !equality.Semantic.DeepEqual(&back, &src.Spec) {
		return putAnnotation(&dst.ObjectMeta, V1alpha1FieldsAnnotation,
			spokeFields{Spec: *src.Spec.DeepCopy(), Fingerprint: fingerprint(&dst.Spec)})
	}
	return nil
}

// ConvertFrom converts the v1alpha2 hub to this v1alpha1 object.
func (dst *LlamaStackDistribution) ConvertFrom(hubRaw conversion.Hub) error {
	src, ok := hubRaw.(*v1alpha2.LlamaStackDistribution)
	if !ok {
		return fmt.Errorf("cannot convert from %T: only v1alpha2 is a hub", hubRaw)
	}
	dst.ObjectMeta = *src.ObjectMeta.DeepCopy()
	dst.Spec = specFromHub(&src.Spec)
	dst.Status = statusFromHub(&src.Status)

	var saved spokeFields
	found, err := takeAnnotation(&dst.ObjectMeta, V1alpha1FieldsAnnotation, &saved)
	if err != nil {
		return err
	}
	if found {
		if saved.Fingerprint == fingerprint(&src.Spec) {
			dst.Spec = saved.Spec
		} else {
			restoreSpokeOnlySpec(&dst.Spec, &saved.Spec)
		}
	}

	back := specToHub(&dst.Spec)
	hubOnly := hubOnlyStatus{src.Status.ObservedGeneration, src.Status.ConfigGeneration, src.Status.ResolvedDistribution}
	if !equality.Semantic.DeepEqual(&back, &src.Spec) || hubOnly != (hubOnlyStatus{}) {
		return putAnnotation(&dst.ObjectMeta, V1alpha2FieldsAnnotation,
			hubFields{Spec: *src.Spec.DeepCopy(), Status: hubOnly, Fingerprint: fingerprint(&dst.Spec)})
	}
	return nil
}

// restoreHubOnlySpec brings back what v1alpha1 cannot express after a v1alpha1 edit.
func restoreHubOnlySpec(dst, saved *v1alpha2.LlamaStackDistributionSpec) {
	dst.Distribution.ServerVersion = saved.Distribution.ServerVersion
	dst.Providers = saved.Providers
	dst.Resources = saved.Resources
	dst.Storage = saved.Storage
	dst.Disabled = saved.Disabled
	dst.ExternalProviders = saved.ExternalProviders
	dst.Telemetry = saved.Telemetry
	if w := saved.Workload; w != nil {
		if w.Pod != nil {
			ensureWorkload(dst)
			dst.Workload.Pod = w.Pod
		}
		if st := w.Storage; st != nil && dst.Workload != nil && dst.Workload.Storage != nil {
			dst.Workload.Storage.StorageClassName, dst.Workload.Storage.AccessModes = st.StorageClassName, st.AccessModes
		}
	}
	if tls := saved.Networking.GetTLS(); tls != nil && (tls.Enabled || tls.SecretName != "") {
		ensureNetworking(dst)
		if dst.Networking.TLS == nil {
			dst.Networking.TLS = &v1alpha2.TLSSpec{}
		}
		dst.Networking.TLS.Enabled, dst.Networking.TLS.SecretName = tls.Enabled, tls.SecretName
	}
	if exp := saved.Networking.GetExpose(); exp != nil && dst.ExposeEnabled() {
		dst.Networking.Expose.Hostname = exp.Hostname
		dst.Networking.Expose.ClassName = exp.ClassName
		dst.Networking.Expose.Annotations = exp.Annotations
		dst.Networking.Expose.Route = exp.Route
	}
}

// hubOnlyPaths are the fields restoreHubOnlySpec takes from the annotation.
var hubOnlyPaths = []string{
	"spec.providers", "spec.resources", "spec.storage", "spec.disabled", "spec.externalProviders",
	"spec.networking.tls.enabled", "spec.networking.tls.secretName", "spec.networking.expose.hostname",
	"spec.networking.expose.className", "spec.networking.expose.annotations", "spec.networking.expose.route",
	"spec.distribution.serverVersion", "spec.telemetry", "spec.workload.pod", "spec.workload.storage.storageClassName",
	"spec.workload.storage.accessModes",
}

// restoredErrors validates the fields an annotation restored: the others are the v1alpha1
// object's, which the API server validated with the v1alpha1 schema.
func restoredErrors(spec *v1alpha2.LlamaStackDistributionSpec) field.ErrorList {
	var errs field.ErrorList
	for _, e := range v1alpha2.ValidateSpec(spec, field.NewPath("spec")) {
		if isHubOnly(e.Field) {
			errs = append(errs, e)
		}
	}
	return errs
}

// restoreSpokeOnlySpec brings back what v1alpha2 cannot express after a v1alpha2 edit.
func restoreSpokeOnlySpec(dst, saved *LlamaStackDistributionSpec) {
	dst.Server.ContainerSpec.Name = saved.Server.ContainerSpec.Name
	if dst.Server.UserConfig != nil && saved.Server.UserConfig != nil {
		dst.Server.UserConfig.ConfigMapNamespace = saved.Server.UserConfig.ConfigMapNamespace
	}
}

func ensureWorkload(spec *v1alpha2.LlamaStackDistributionSpec) {
	if spec.Workload == nil {
		spec.Workload = &v1alpha2.WorkloadSpec{}
	}
}

func ensureNetworking(spec *v1alpha2.LlamaStackDistributionSpec) {
	if spec.Networking == nil {
		spec.Networking = &v1alpha2.NetworkingSpec{}
	}
}

// fingerprint identifies a spec as produced by a conversion.
func fingerprint(spec any) string {
	data, err := json.Marshal(spec)
	if err != nil {
		panic(err) // the API types always marshal
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

func takeAnnotation(meta *metav1.ObjectMeta, key string, into any) (bool, error) {
	raw, ok := meta.Annotations[key]
	if !ok {
		return false, nil
	}
	delete(meta.Annotations, key)
	if len(meta.Annotations) == 0 {
		meta.Annotations = nil
	}
	if err := json.Unmarshal([]byte(raw), into); err != nil {
		return false, fmt.Errorf("metadata.annotations[%s] is not valid conversion data (%v): remove the annotation", key, err)
	}
	return true, nil
}

func putAnnotation(meta *metav1.ObjectMeta, key string, value any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return err
	}
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations[key] = string(data)
	return nil
}

// Leftovers are the fields of a v1alpha1 spec that v1alpha2 has no place for, which a
// converted object carries for the way back (in V1alpha1FieldsAnnotation). Rendering reports
// them, since it cannot do what they ask.
//
// +kubebuilder:object:generate=false
type Leftovers struct {
	// ContainerName is spec.server.containerSpec.name.
	ContainerName string
	// UserConfigNamespace is spec.server.userConfig.configMapNamespace.
	UserConfigNamespace string
}

// LeftoversOf reads the Leftovers of a converted object; none when it carries no v1alpha1
// fields.
func LeftoversOf(obj *v1alpha2.LlamaStackDistribution) (Leftovers, error) {
	raw, ok := obj.Annotations[V1alpha1FieldsAnnotation]
	if !ok {
		return Leftovers{}, nil
	}
	var saved spokeFields
	if err := json.Unmarshal([]byte(raw), &saved); err != nil {
		return Leftovers{}, fmt.Errorf("metadata.annotations[%s] is not valid conversion data (%v): remove the annotation", V1alpha1FieldsAnnotation, err)
	}
	out := Leftovers{ContainerName: saved.Spec.Server.ContainerSpec.Name}
	if u := saved.Spec.Server.UserConfig; u != nil {
		out.UserConfigNamespace = u.ConfigMapNamespace
	}
	return out, nil
}
