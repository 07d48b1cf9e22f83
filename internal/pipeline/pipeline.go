// SPDX-License-Identifier: Apache-2.0

package pipeline

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/oci"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// Options are the render options.
type Options struct {
	Distribution distribution.Options
	Render       render.Options
	// RendererVersion is written into the receipt.
	RendererVersion string
	// ConfigMaps are the ConfigMaps among the inputs, by namespace/name, with their data:
	// an overrideConfig ConfigMap found here drives rollouts by its content hash.
	ConfigMaps map[string]map[string]string
	// KServe are the InferenceServices and ServingRuntimes among the inputs, which providers
	// that name an InferenceService are derived from.
	KServe KServe
	// Limits bound the work one LLSD may ask for; zero fields take the defaults.
	Limits Limits
	// Providers reads provider images' lls-provider-spec.yaml: the registry client when the
	// render may reach registries, else what an earlier render cached (nil: the default cache).
	Providers oci.ProviderReader
	// Praxis is the cluster's Praxis gateway, admitted to an OGXServer in Praxis mode that names
	// none itself (the successor operator's praxis-peer ConfigMap); its empty fields are the
	// operator's defaults, openshift-ingress and app=payload-processing.
	Praxis v1alpha2.PodsPeer
}

// Limits bound the work of a render, so that a hostile or broken input fails with an error
// instead of taking the memory or the time of the machine that renders it.
type Limits struct {
	// SettingsBytes is the largest settings of one provider, in bytes of JSON (64 KiB).
	SettingsBytes int `json:"settingsBytes,omitempty"`
	// SettingsDepth is the deepest nesting of settings (16).
	SettingsDepth int `json:"settingsDepth,omitempty"`
}

// Default limits.
const (
	DefaultSettingsBytes = 64 << 10
	DefaultSettingsDepth = 16
)

// checkLimits refuses settings (of spec.providers and spec.externalProviders) larger or
// deeper than the limits allow.
func checkLimits(obj *v1alpha2.LlamaStackDistribution, l Limits) field.ErrorList {
	size, depth := cmp.Or(l.SettingsBytes, DefaultSettingsBytes), cmp.Or(l.SettingsDepth, DefaultSettingsDepth)
	var errs field.ErrorList
	check := func(path *field.Path, settings *apiextensionsv1.JSON) {
		switch {
		case settings == nil:
		case len(settings.Raw) > size:
			errs = append(errs, field.TooLong(path, field.OmitValueType{}, size))
		case jsonDepth(settings.Raw) > depth:
			errs = append(errs, field.Invalid(path, field.OmitValueType{}, fmt.Sprintf(
				"settings are nested %d levels deep, more than the limit of %d (RenderOptions spec.limits.settingsDepth)",
				jsonDepth(settings.Raw), depth)))
		}
	}
	for _, list := range obj.Spec.Providers.APIs() {
		for i, p := range list.Providers {
			check(field.NewPath("spec", "providers", string(list.Name)).Index(i).Child("settings"), p.Settings)
		}
	}
	for _, list := range obj.Spec.ExternalProviders.APIs() {
		for i, p := range list.Providers {
			check(field.NewPath("spec", "externalProviders", string(list.Name)).Index(i).Child("settings"), p.Settings)
		}
	}
	return errs
}

// jsonDepth is the deepest nesting of objects and arrays in a JSON text.
func jsonDepth(data []byte) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range data {
		switch {
		case escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// Result is one rendered LlamaStackDistribution.
type Result struct {
	// LLSD is the canonical v1alpha2 object with its receipt.
	LLSD *v1alpha2.LlamaStackDistribution
	// Derived is the object as rendered, with what llsd derived filled in (a provider's
	// endpoint and model from the InferenceService it names); nil when nothing was.
	Derived *v1alpha2.LlamaStackDistribution
	// ModelAccess is what the render wrote for the server to call token-protected models.
	ModelAccess render.ModelAccess
	// Objects are the generated objects, in a fixed order.
	Objects  []render.Object
	Warnings []config.Warning
	// Config is the generated config.yaml as a tree (read it, do not change it); nil when the
	// server runs a config of its own.
	Config map[string]any
}

// Render renders a decoded, defaulted object. Nothing is returned on error: never a partial
// output. The errors are all that can be found at once: an invalid spec renders nothing, but
// is rendered anyway for the errors of its other fields (AlsoWrong). Messages are in
// v1alpha2's words; an object written in another API is rendered by RenderDecoded.
func Render(obj *v1alpha2.LlamaStackDistribution, opts Options) (*Result, field.ErrorList) {
	res, errs := renderMarked(obj, opts)
	return worded(res, errs, wording.Plain)
}

// RenderDecoded renders a decoded object as Render does, an OGXServer by the successor's
// defaults where they differ from a LlamaStackDistribution's: the OpenShift AI release of its
// rh-dev, the config also at /etc/ogx/config.yaml. Messages are in the words of the API its
// author wrote it in; their field paths are the canonical form's (Decoded.WrittenPath).
func RenderDecoded(d *api.Decoded, opts Options) (*Result, field.ErrorList) {
	opts.Distribution.OGXServer, opts.Render.OGXServer = d.Consumed, d.Consumed
	d.SetPraxisPeer(opts.Praxis.Namespace, opts.Praxis.Labels)
	res, errs := renderMarked(d.Object, opts)
	return worded(res, errs, d.WrittenText)
}

// worded are a render's errors and warnings with the references of their messages worded by
// text: the checks make messages in references, the reader's API says them. A bad value may
// be one too: an API's name, which an OGXServer spells otherwise.
func worded(res *Result, errs field.ErrorList, text func(string) string) (*Result, field.ErrorList) {
	for i, e := range errs {
		said := *e
		said.Detail = text(e.Detail)
		if value, ok := e.BadValue.(string); ok {
			said.BadValue = text(value)
		}
		errs[i] = &said
	}
	if res != nil {
		for i := range res.Warnings {
			res.Warnings[i].Message = text(res.Warnings[i].Message)
		}
	}
	return res, errs
}

// renderMarked is Render, its messages not yet worded.
func renderMarked(obj *v1alpha2.LlamaStackDistribution, opts Options) (*Result, field.ErrorList) {
	leftoverErrs, leftoverWarnings := v1alpha1Leftovers(obj)
	limitErrs := checkLimits(obj, opts.Limits)
	errs := slices.Concat(v1alpha2.Check(obj), mountable(obj), limitErrs, leftoverErrs)
	if invalid := specErrors(errs); len(invalid) > 0 {
		if len(limitErrs) > 0 || slices.ContainsFunc(invalid, tooMuch) {
			return nil, errs // what is over a limit is not worked through
		}
		return nil, append(errs, AlsoWrong(renderInvalid(obj, opts, invalid), invalid, nil)...)
	}
	res, errs := renderValid(obj, opts, errs)
	if res != nil {
		res.Warnings = append(leftoverWarnings, res.Warnings...)
	}
	return res, errs
}

// renderInvalid renders what is left of a spec the schema refuses once the refused values are
// left out (api.Without), for the errors of its other fields. Generation and rendering take
// valid specs: when what is left is refused too (a required field was the refused value),
// there is nothing more to report.
func renderInvalid(obj *v1alpha2.LlamaStackDistribution, opts Options, invalid field.ErrorList) field.ErrorList {
	rest, ok := api.Without(obj, invalid)
	if !ok || len(specErrors(slices.Concat(v1alpha2.Check(rest), mountable(rest)))) > 0 {
		return nil
	}
	_, errs := renderValid(rest, opts, nil)
	return errs
}

// specErrors are the errors of errs about the spec.
func specErrors(errs field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if v1alpha2.Within(e.Field, "spec") {
			out = append(out, e)
		}
	}
	return out
}

// tooMuch reports an error of a list or value over its bound: rendering it anyway would do the
// work the bound is there to spare.
func tooMuch(e *field.Error) bool {
	return e.Type == field.ErrorTypeTooMany || e.Type == field.ErrorTypeTooLong
}

// AlsoWrong are the errors of rendering an invalid spec anyway that are about other fields
// than those in error (invalid): an error at such a field, inside it or around it (a store
// missing because its type is misspelt) would only follow from the invalid value. written
// turns a rendered error's path into the author's, in which invalid's paths are (a v1alpha1
// object's, an OGXServer's; nil when they are the same).
func AlsoWrong(rendered, invalid field.ErrorList, written func(string) string) field.ErrorList {
	if written == nil {
		written = func(path string) string { return path }
	}
	var out field.ErrorList
	for _, e := range rendered {
		if !slices.ContainsFunc(invalid, func(i *field.Error) bool { return related(written(e.Field), i.Field) }) &&
			!slices.ContainsFunc(out, func(o *field.Error) bool { return sameError(o, e) }) {
			out = append(out, e)
		}
	}
	return out
}

// sameError reports whether two errors say the same of the same field: a check that runs on
// both the written and the rendered spec finds it twice.
func sameError(a, b *field.Error) bool {
	return a.Type == b.Type && a.Field == b.Field && a.Detail == b.Detail && reflect.DeepEqual(a.BadValue, b.BadValue)
}

// related reports whether one field path is the other or holds it.
func related(a, b string) bool { return v1alpha2.Within(a, b) || v1alpha2.Within(b, a) }

// renderValid renders obj; errs are the errors found before, which leave nothing rendered.
func renderValid(obj *v1alpha2.LlamaStackDistribution, opts Options, errs field.ErrorList) (*Result, field.ErrorList) {
	packages, pkgErrs := providerPackages(obj, opts.Providers)
	if len(pkgErrs) > 0 {
		return nil, append(errs, pkgErrs...)
	}
	opts.Distribution.ProviderPackages = packages
	if obj.Spec.OverrideConfig != nil {
		return renderOverride(obj, opts, errs)
	}
	distOpts, baseWarnings, baseErrs := distributionOptions(obj, opts)
	if len(baseErrs) > 0 {
		return nil, slices.Concat(errs, baseErrs, render.SpecErrors(render.Input{Object: obj, ConfigMaps: opts.ConfigMaps, Options: opts.Render}))
	}
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, distOpts)
	if ferr != nil {
		return nil, slices.Concat(errs, field.ErrorList{ferr}, config.UnknownProviderNames(&obj.Spec),
			render.SpecErrors(render.Input{Object: obj, ConfigMaps: opts.ConfigMaps, Options: opts.Render}))
	}
	opts.Render = forItsPlatform(dist, opts.Render)
	if dist.Base == nil {
		return renderImageOwnConfig(obj, dist, opts, errs)
	}
	served, access, servedWarnings, servedErrs := servedByKServe(obj, opts.KServe, opts.Render.OpenShiftAI || opts.Render.Platform == render.PlatformOpenShift)
	if len(servedErrs) > 0 {
		return nil, slices.Concat(errs, servedErrs, render.SpecErrors(render.Input{Object: obj, Distribution: dist, ConfigMaps: opts.ConfigMaps, Options: opts.Render}))
	}
	res, genErrs := config.Generate(served, dist)
	if len(genErrs) > 0 {
		return nil, append(append(errs, genErrs...), render.SpecErrors(render.Input{Object: obj, Distribution: dist, ConfigMaps: opts.ConfigMaps, Options: opts.Render})...)
	}
	result, errs := renderWithReceipt(render.Input{Object: served, Distribution: dist, Config: res, Options: opts.Render, ConfigMaps: opts.ConfigMaps,
		ModelAccess: access}, obj,
		api.Receipt{
			ServerVersion:   string(dist.Version),
			Image:           dist.Image,
			BaseConfig:      dist.BaseSource,
			ConfigSource:    dist.ConfigSource,
			ProviderCount:   res.ProviderCount,
			ResourceCount:   res.ResourceCount,
			RendererVersion: opts.RendererVersion,
		}, errs, slices.Concat(baseWarnings, dist.Warnings, servedWarnings, res.Warnings))
	if result != nil && obj.Spec.Workload != nil && obj.Spec.Workload.Overrides != nil {
		result.Warnings = append(result.Warnings, config.UnreadEnv(res.Tree, obj.Spec.Workload.Overrides.Env, overridesEnvPath)...)
	}
	return result, errs
}

// renderWithReceipt renders in and returns its objects and the LlamaStackDistribution as
// written (in.Object may have filled in what llsd derived) with the receipt (the rendered ConfigMap's name and hash filled in), with the warnings found
// before the render first; nothing when errs (found before) or the render hold an error.
func renderWithReceipt(in render.Input, written *v1alpha2.LlamaStackDistribution, receipt api.Receipt, errs field.ErrorList, warnings []config.Warning) (*Result, field.ErrorList) {
	out, renderErrs := render.Render(in)
	if errs = append(errs, renderErrs...); len(errs) > 0 {
		return nil, errs
	}
	receipt.ConfigMap, receipt.ConfigHash = out.ConfigMapName, out.ConfigHash
	llsd, err := withReceipt(written, receipt)
	if err != nil {
		return nil, append(errs, err)
	}
	result := &Result{LLSD: llsd, Objects: out.Objects, Warnings: slices.Concat(warnings, out.Warnings), ModelAccess: in.ModelAccess}
	if in.Object != written {
		result.Derived = in.Object
	}
	if in.Config != nil {
		result.Config = in.Config.Tree
	}
	return result, nil
}

// mountable rejects references a pod cannot mount: a CA bundle ConfigMap in another
// namespace (volumes only see the pod's own namespace).
func mountable(obj *v1alpha2.LlamaStackDistribution) field.ErrorList {
	var errs field.ErrorList
	for _, ref := range api.CABundles(obj) {
		ns := ref.ConfigMapNamespace
		if ns == "" || obj.Namespace == "" || ns == obj.Namespace { // without a namespace, it is decided at apply time
			continue
		}
		errs = append(errs, field.Invalid(ref.Path.Child("configMapNamespace"), ns,
			"a pod can mount only ConfigMaps of its own namespace: copy the CA bundle into the LlamaStackDistribution's namespace and remove configMapNamespace"))
	}
	return errs
}

// v1alpha1Leftovers reports what an object written in v1alpha1 asks that llsd cannot do:
// another name for the server container (a warning: the container is llama-stack), a user
// config in another namespace (an error: a pod mounts ConfigMaps of its own namespace).
func v1alpha1Leftovers(obj *v1alpha2.LlamaStackDistribution) (field.ErrorList, []config.Warning) {
	left, err := v1alpha1.LeftoversOf(obj)
	if err != nil {
		return field.ErrorList{field.Invalid(field.NewPath("metadata", "annotations").Key(v1alpha1.V1alpha1FieldsAnnotation),
			field.OmitValueType{}, err.Error())}, nil
	}
	var errs field.ErrorList
	var warnings []config.Warning
	if left.ContainerName != "" && left.ContainerName != api.ContainerName {
		warnings = append(warnings, config.Warning{Field: "spec.server.containerSpec.name", Message: fmt.Sprintf(
			"llsd names the server container %s, not %s (probes, status and the conversion rely on the name): "+
				"use %s with kubectl logs -c and in patches, and set the field to it or remove it",
			api.ContainerName, left.ContainerName, api.ContainerName)})
	}
	if ns := left.UserConfigNamespace; ns != "" && ns != obj.Namespace {
		path := field.NewPath("spec", "server", "userConfig", "configMapNamespace")
		msg := "a pod mounts only ConfigMaps of its own namespace: copy the ConfigMap into the LlamaStackDistribution's namespace and remove configMapNamespace"
		if obj.Namespace == "" {
			warnings = append(warnings, config.Warning{Field: path.String(), Message: fmt.Sprintf(
				"the object has no namespace, and %s; it works only if the object is applied in %s", msg, ns)})
		} else {
			errs = append(errs, field.Invalid(path, ns, msg))
		}
	}
	return errs, warnings
}

// renderOverride runs the user's own config.yaml: no generation, the ConfigMap is theirs.
func renderOverride(obj *v1alpha2.LlamaStackDistribution, opts Options, errs field.ErrorList) (*Result, field.ErrorList) {
	dist, ferr := distribution.ResolveRuntime(obj.Spec.Distribution, opts.Distribution)
	if ferr != nil {
		return nil, append(errs, ferr)
	}
	opts.Render = forItsPlatform(dist, opts.Render)
	in := render.Input{
		Object:        obj,
		Distribution:  dist,
		UserConfig:    obj.Spec.OverrideConfig.ConfigMapName,
		UserConfigKey: obj.Spec.OverrideConfig.ConfigKey(),
		Options:       opts.Render,
		ConfigMaps:    opts.ConfigMaps,
	}
	named, ferr := namedConfigKey(obj, opts.Render.OGXServer)
	if ferr != nil {
		errs = append(errs, ferr)
	}
	if named.key != "" {
		in.UserConfigKey = named.key
	}
	checked := dist.Warnings // and those of the ConfigMap's config, when it is among the inputs
	if named.warning != nil {
		checked = append(checked, *named.warning)
	}
	envErrs, envWarnings := config.OverrideEnvProblems(overridesEnv(obj)) // whatever config runs (#56)
	errs, checked = append(errs, envErrs...), append(slices.Clone(checked), envWarnings...)
	if data, ok := opts.configMap(obj, obj.Spec.OverrideConfig.ConfigMapName); ok {
		in.UserConfigHash = render.ConfigMapDataHash(data)
		key, auth, warnings, checkErrs := checkOverrideConfig(obj, dist, data, named)
		errs = append(errs, checkErrs...)
		in.UserConfigKey, in.Authentication, checked = key, auth, append(checked, warnings...)
	}
	return renderWithReceipt(in, obj, api.Receipt{Image: dist.Image, ConfigSource: api.ConfigSourceOverride, RendererVersion: opts.RendererVersion}, errs, checked)
}

// configMap is the data of a ConfigMap of obj's namespace among the inputs.
func (o Options) configMap(obj *v1alpha2.LlamaStackDistribution, name string) (map[string]string, bool) {
	data, ok := o.ConfigMaps[obj.Namespace+"/"+name]
	return data, ok
}

// withReceipt returns a copy of obj with the receipt annotations (replacing an older receipt).
func withReceipt(obj *v1alpha2.LlamaStackDistribution, receipt api.Receipt) (*v1alpha2.LlamaStackDistribution, *field.Error) {
	out := obj.DeepCopy()
	out.APIVersion = v1alpha2.GroupVersion.String()
	out.Kind = v1alpha2.Kind
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	for _, key := range api.ReceiptKeys {
		delete(out.Annotations, key)
	}
	hash, err := api.SpecHash(&out.Spec)
	if err != nil {
		return nil, field.InternalError(field.NewPath("spec"), err)
	}
	receipt.SpecHash = hash
	maps.Copy(out.Annotations, receipt.Annotations())
	return out, nil
}

// overridesEnv are the variables of spec.workload.overrides.env.
func overridesEnv(obj *v1alpha2.LlamaStackDistribution) []corev1.EnvVar {
	if w := obj.Spec.Workload; w != nil && w.Overrides != nil {
		return w.Overrides.Env
	}
	return nil
}
