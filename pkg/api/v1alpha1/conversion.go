// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/conversion"

	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Conversion is hub and spoke: v1alpha2 is the hub, this package the spoke. Each direction
// maps the fields both versions have (conversion_fields.go). When that loses
// something, the source spec travels in an annotation together with a fingerprint of the
// converted spec:
//
//   - V1alpha2FieldsAnnotation on a v1alpha1 object holds the v1alpha2 spec (providers,
//     resources, storage, TLS settings, ...).
//   - V1alpha1FieldsAnnotation on a v1alpha2 object holds the v1alpha1 spec (container
//     name, userConfig namespace, empty objects, ...).
//
// Anyone who may write the object may write these annotations, and a fingerprint is a hash
// anyone can compute, so an annotation never decides what the fields both versions have say:
// the saved spec comes back whole only when it converts to exactly what the object shows in
// those fields (nobody edited it in the other version), otherwise only the fields the other
// version cannot express come back. Whatever comes back is validated as a create of the
// target version would be, and status never comes from an annotation.
const (
	V1alpha2FieldsAnnotation = "llamastack.io/v1alpha2-fields"
	V1alpha1FieldsAnnotation = "llamastack.io/v1alpha1-fields"
)

type hubFields struct {
	Spec        v1alpha2.LlamaStackDistributionSpec `json:"spec"`
	Fingerprint string                              `json:"fingerprint"`
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
	// Only a conversion from v1alpha2 writes the v1alpha1 fields, and only on a v1alpha2 object.
	dropAnnotation(&dst.ObjectMeta, V1alpha1FieldsAnnotation)

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
		// What the annotation restored is held to the rules of a v1alpha2 create, which the
		// API server does not apply to a v1alpha1 write: all of them, since a restored field
		// can make another one invalid (overrideConfig with providers).
		if errs := v1alpha2.ValidateSpec(&dst.Spec, field.NewPath("spec")); len(errs) > 0 {
			return fmt.Errorf("metadata.annotations[%s] restores an invalid v1alpha2 spec: %w", V1alpha2FieldsAnnotation, redact.Errors(spokeErrors(errs)).ToAggregate())
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
	// Only a conversion to v1alpha2 reads the v1alpha2 fields, and only from a v1alpha1 object:
	// on a v1alpha2 object the annotation is no reviewed field, and would come back on a
	// v1alpha1 write.
	dropAnnotation(&dst.ObjectMeta, V1alpha2FieldsAnnotation)

	var saved spokeFields
	found, err := takeAnnotation(&dst.ObjectMeta, V1alpha1FieldsAnnotation, &saved)
	if err != nil {
		return err
	}
	if found {
		if saved.Fingerprint == fingerprint(&src.Spec) && sameSharedFields(&saved.Spec, &dst.Spec) {
			dst.Spec = saved.Spec
		} else {
			restoreSpokeOnlySpec(&dst.Spec, &saved.Spec)
		}
		if errs := validateSpokeOnly(&dst.Spec); len(errs) > 0 {
			return fmt.Errorf("metadata.annotations[%s] restores an invalid v1alpha1 spec: %w", V1alpha1FieldsAnnotation, redact.Errors(errs).ToAggregate())
		}
	}

	back := specToHub(&dst.Spec)
	if !equality.Semantic.DeepEqual(&back, &src.Spec) {
		return putAnnotation(&dst.ObjectMeta, V1alpha2FieldsAnnotation,
			hubFields{Spec: *src.Spec.DeepCopy(), Fingerprint: fingerprint(&dst.Spec)})
	}
	return nil
}

// sameSharedFields reports whether a saved v1alpha1 spec says what the v1alpha1 spec
// converted from the hub says in every field both versions have: it may differ only in what
// v1alpha2 cannot express (container name, userConfig namespace, empty objects).
func sameSharedFields(saved, converted *LlamaStackDistributionSpec) bool {
	hub := specToHub(saved)
	shared := specFromHub(&hub)
	return equality.Semantic.DeepEqual(&shared, converted)
}

// validateSpokeOnly checks the fields only v1alpha1 has, which no v1alpha2 rule covered, as
// the v1alpha1 CRD does.
func validateSpokeOnly(spec *LlamaStackDistributionSpec) field.ErrorList {
	var errs field.ErrorList
	if name := spec.Server.ContainerSpec.Name; name != "" {
		for _, msg := range validation.IsDNS1123Label(name) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "server", "containerSpec", "name"), name, msg))
		}
	}
	if u := spec.Server.UserConfig; u != nil && u.ConfigMapNamespace != "" {
		for _, msg := range validation.IsDNS1123Label(u.ConfigMapNamespace) {
			errs = append(errs, field.Invalid(field.NewPath("spec", "server", "userConfig", "configMapNamespace"), u.ConfigMapNamespace, msg))
		}
	}
	return errs
}

// spokeErrors names the fields of errors about a converted v1alpha1 object as v1alpha1 does;
// the fields only v1alpha2 has keep their v1alpha2 paths inside the annotation.
func spokeErrors(errs field.ErrorList) field.ErrorList {
	out := make(field.ErrorList, 0, len(errs))
	for _, e := range errs {
		e := *e
		if spokePath, ok := convertedFrom(e.Field); ok {
			e.Field = spokePath
		}
		out = append(out, &e)
	}
	return out
}

// restoreHubOnlySpec brings back what v1alpha1 cannot express after a v1alpha1 edit.
func restoreHubOnlySpec(dst, saved *v1alpha2.LlamaStackDistributionSpec) {
	dst.Distribution.ServerVersion = saved.Distribution.ServerVersion
	dst.Distribution.BaseConfig = saved.Distribution.BaseConfig
	dst.Providers = saved.Providers
	dst.Resources = saved.Resources
	dst.Storage = saved.Storage
	dst.Disabled = saved.Disabled
	dst.ExternalProviders = saved.ExternalProviders
	dst.Telemetry = saved.Telemetry
	dst.VectorStores = saved.VectorStores
	dst.Monitoring = saved.Monitoring
	dst.Authentication = saved.Authentication
	if o := saved.OverrideConfig; o != nil && dst.OverrideConfig != nil {
		dst.OverrideConfig.Key = o.Key
	}
	if w := saved.Workload; w != nil {
		if w.Pod != nil {
			ensureWorkload(dst)
			dst.Workload.Pod = w.Pod
		}
		if st := w.Storage; st != nil && dst.Workload != nil && dst.Workload.Storage != nil {
			dst.Workload.Storage.StorageClassName, dst.Workload.Storage.AccessModes = st.StorageClassName, st.AccessModes
		}
	}
	if tls := hubTLS(saved); tls != nil && (tls.Enabled || tls.SecretName != "") {
		ensureNetworking(dst)
		if dst.Networking.TLS == nil {
			dst.Networking.TLS = &v1alpha2.TLSSpec{}
		}
		dst.Networking.TLS.Enabled, dst.Networking.TLS.SecretName = tls.Enabled, tls.SecretName
		dst.Networking.TLS.CertificateKey, dst.Networking.TLS.PrivateKeyKey = tls.CertificateKey, tls.PrivateKeyKey
		dst.Networking.TLS.Ciphers, dst.Networking.TLS.HSTSMaxAge = tls.Ciphers, tls.HSTSMaxAge
	}
	if tls := hubTLS(saved); tls != nil && (len(tls.CABundles) > 0 || tls.ClusterTrustedCAs) {
		ensureNetworking(dst)
		if dst.Networking.TLS == nil {
			dst.Networking.TLS = &v1alpha2.TLSSpec{}
		}
		dst.Networking.TLS.CABundles, dst.Networking.TLS.ClusterTrustedCAs = tls.CABundles, tls.ClusterTrustedCAs
	}
	if a := saved.Networking; a != nil && a.AllowedFrom != nil && len(a.AllowedFrom.CIDRs)+len(a.AllowedFrom.Pods) > 0 && dst.Networking != nil && dst.Networking.AllowedFrom != nil {
		dst.Networking.AllowedFrom.CIDRs, dst.Networking.AllowedFrom.Pods = a.AllowedFrom.CIDRs, a.AllowedFrom.Pods
	}
	if saved.Networking != nil && saved.Networking.Egress != nil {
		ensureNetworking(dst)
		dst.Networking.Egress = saved.Networking.Egress
	}
	if saved.Networking != nil && saved.Networking.CORS != nil {
		ensureNetworking(dst)
		dst.Networking.CORS = saved.Networking.CORS
	}
	if exp := saved.Networking.GetExpose(); exp != nil && dst.ExposeEnabled() {
		dst.Networking.Expose.Hostname = exp.Hostname
		dst.Networking.Expose.ClassName = exp.ClassName
		dst.Networking.Expose.Annotations = exp.Annotations
		dst.Networking.Expose.Route = exp.Route
		dst.Networking.Expose.TLSSecretName = exp.TLSSecretName
	}
}

// hubTLS is the saved hub's networking.tls as written (the conversion copies fields; what they
// mean to a render is v1alpha2.ServerTLS's).
func hubTLS(saved *v1alpha2.LlamaStackDistributionSpec) *v1alpha2.TLSSpec {
	if saved.Networking == nil {
		return nil
	}
	return saved.Networking.TLS
}

// hubOnlyPaths are the fields restoreHubOnlySpec takes from the annotation.
var hubOnlyPaths = []string{
	"spec.providers", "spec.resources", "spec.storage", "spec.disabled", "spec.externalProviders",
	"spec.networking.tls.enabled", "spec.networking.tls.secretName", "spec.networking.tls.certificateKey", "spec.networking.tls.privateKeyKey", "spec.networking.tls.ciphers", "spec.networking.tls.hstsMaxAge", "spec.networking.egress", "spec.networking.cors", "spec.networking.tls.caBundles", "spec.networking.allowedFrom.cidrs", "spec.networking.allowedFrom.pods", "spec.networking.tls.clusterTrustedCAs", "spec.networking.expose.hostname",
	"spec.networking.expose.className", "spec.networking.expose.annotations", "spec.networking.expose.route",
	"spec.distribution.serverVersion", "spec.telemetry", "spec.workload.pod", "spec.workload.storage.storageClassName",
	"spec.workload.storage.accessModes", "spec.overrideConfig.key",
	"spec.distribution.baseConfig", "spec.vectorStores", "spec.monitoring", "spec.authentication",
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
	dropAnnotation(meta, key)
	if err := json.Unmarshal([]byte(raw), into); err != nil {
		return false, fmt.Errorf("metadata.annotations[%s] is not valid conversion data (%w): remove the annotation", key, err)
	}
	return true, nil
}

func dropAnnotation(meta *metav1.ObjectMeta, key string) {
	delete(meta.Annotations, key)
	if len(meta.Annotations) == 0 {
		meta.Annotations = nil
	}
}

// CheckHubAnnotations refuses, on an object written in v1alpha2, conversion annotations that
// say something else than the object: a v1alpha1 spec that differs from it in the fields both
// versions have, or v1alpha1 fields a v1alpha1 create would refuse (a conversion would drop or
// refuse them), and the v1alpha2 fields, which only a v1alpha1 object carries. The conversion
// webhook writes these annotations; nobody needs to write them by hand.
func CheckHubAnnotations(hub *v1alpha2.LlamaStackDistribution) field.ErrorList {
	annotations := field.NewPath("metadata", "annotations")
	var errs field.ErrorList
	if _, ok := hub.Annotations[V1alpha2FieldsAnnotation]; ok {
		errs = append(errs, field.Forbidden(annotations.Key(V1alpha2FieldsAnnotation),
			"the conversion webhook writes it on v1alpha1 objects; a v1alpha2 object says its fields itself: remove the annotation"))
	}
	raw, ok := hub.Annotations[V1alpha1FieldsAnnotation]
	if !ok {
		return errs
	}
	p := annotations.Key(V1alpha1FieldsAnnotation)
	var saved spokeFields
	if err := json.Unmarshal([]byte(raw), &saved); err != nil {
		return append(errs, field.Invalid(p, field.OmitValueType{}, fmt.Sprintf("not valid conversion data (%v): remove the annotation", err)))
	}
	if converted := specFromHub(&hub.Spec); !sameSharedFields(&saved.Spec, &converted) {
		errs = append(errs, field.Invalid(p, field.OmitValueType{},
			"holds a v1alpha1 spec that says something else than this object's spec, which is what a v1alpha1 reader would see: remove the annotation (the conversion webhook writes it)"))
	}
	for _, e := range validateSpokeOnly(&saved.Spec) {
		errs = append(errs, field.Invalid(p, e.BadValue, e.Field+": "+e.Detail))
	}
	return errs
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
		return Leftovers{}, fmt.Errorf("metadata.annotations[%s] is not valid conversion data (%w): remove the annotation", V1alpha1FieldsAnnotation, err)
	}
	out := Leftovers{ContainerName: saved.Spec.Server.ContainerSpec.Name}
	if u := saved.Spec.Server.UserConfig; u != nil {
		out.UserConfigNamespace = u.ConfigMapNamespace
	}
	return out, nil
}
