// SPDX-License-Identifier: Apache-2.0

// Package pipeline renders one LlamaStackDistribution end to end: validate, resolve the
// distribution, generate config.yaml, render the objects, and write the render receipt on
// the canonical v1alpha2 object. The KRM function and `llsd render` both run it.
package pipeline

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/config"
	"github.com/llamastack/llsd/pkg/distribution"
	"github.com/llamastack/llsd/pkg/render"
)

// Render receipt: annotations on the emitted LlamaStackDistribution, from which the
// controller derives status.
const (
	ReceiptConfigMap     = "llamastack.io/config-map"
	ReceiptConfigHash    = "llamastack.io/config-hash"
	ReceiptServerVersion = "llamastack.io/server-version"
	ReceiptImage         = "llamastack.io/image"
	ReceiptBaseConfig    = "llamastack.io/base-config"
	ReceiptProviderCount = "llamastack.io/provider-count"
	ReceiptResourceCount = "llamastack.io/resource-count"
	ReceiptRenderer      = "llamastack.io/rendered-by"
	ReceiptSpecHash      = "llamastack.io/spec-hash"
)

// ReceiptKeys are all receipt annotations: a new render replaces every one of them.
var ReceiptKeys = []string{ReceiptConfigMap, ReceiptConfigHash, ReceiptServerVersion, ReceiptImage, ReceiptBaseConfig,
	ReceiptProviderCount, ReceiptResourceCount, ReceiptRenderer, ReceiptSpecHash}

// Options are the render options.
type Options struct {
	Distribution distribution.Options
	Render       render.Options
	// RendererVersion is written into the receipt.
	RendererVersion string
	// ConfigMaps are the ConfigMaps among the inputs, by namespace/name, with their data:
	// an overrideConfig ConfigMap found here drives rollouts by its content hash.
	ConfigMaps map[string]map[string]string
	// Limits bound the work one LLSD may ask for; zero fields take the defaults.
	Limits Limits
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

// checkLimits refuses settings larger or deeper than the limits allow.
func checkLimits(obj *v1alpha2.LlamaStackDistribution, l Limits) field.ErrorList {
	size, depth := cmp.Or(l.SettingsBytes, DefaultSettingsBytes), cmp.Or(l.SettingsDepth, DefaultSettingsDepth)
	var errs field.ErrorList
	for _, list := range obj.Spec.Providers.APIs() {
		for i, p := range list.Providers {
			if p.Settings == nil {
				continue
			}
			path := field.NewPath("spec", "providers", string(list.Name)).Index(i).Child("settings")
			if n := len(p.Settings.Raw); n > size {
				errs = append(errs, field.TooLong(path, field.OmitValueType{}, size))
			} else if d := jsonDepth(p.Settings.Raw); d > depth {
				errs = append(errs, field.Invalid(path, field.OmitValueType{}, fmt.Sprintf(
					"settings are nested %d levels deep, more than the limit of %d (RenderOptions spec.limits.settingsDepth)", d, depth)))
			}
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
	// Objects are the generated objects, in a fixed order.
	Objects  []client.Object
	Warnings []config.Warning
}

// Render renders a decoded, defaulted object. Nothing is returned on error: never a partial
// output. The errors are all that can be found at once: an invalid spec stops before the
// config is generated (it would mislead), an invalid name does not.
func Render(obj *v1alpha2.LlamaStackDistribution, opts Options) (*Result, field.ErrorList) {
	errs := append(append(v1alpha2.Validate(obj), mountable(obj)...), checkLimits(obj, opts.Limits)...)
	if slices.ContainsFunc(errs, func(e *field.Error) bool { return strings.HasPrefix(e.Field, "spec") }) {
		return nil, errs
	}
	if obj.Spec.OverrideConfig != nil {
		return renderOverride(obj, opts, errs)
	}
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, opts.Distribution)
	if ferr != nil {
		return nil, append(errs, ferr)
	}
	res, genErrs := config.Generate(obj, dist)
	if len(genErrs) > 0 {
		return nil, append(errs, genErrs...)
	}
	out, renderErrs := render.Render(render.Input{Object: obj, Distribution: dist, Config: res, Options: opts.Render, ConfigMaps: opts.ConfigMaps})
	if errs = append(errs, renderErrs...); len(errs) > 0 {
		return nil, errs
	}
	llsd := withReceipt(obj, map[string]string{
		ReceiptConfigMap:     out.ConfigMapName,
		ReceiptConfigHash:    out.ConfigHash,
		ReceiptServerVersion: string(res.Version),
		ReceiptImage:         dist.Image,
		ReceiptBaseConfig:    dist.BaseSource,
		ReceiptProviderCount: strconv.Itoa(res.ProviderCount),
		ReceiptResourceCount: strconv.Itoa(res.ResourceCount),
		ReceiptRenderer:      "llsd " + opts.RendererVersion,
	})
	warnings := make([]config.Warning, 0, len(dist.Warnings)+len(res.Warnings)+len(out.Warnings))
	for _, w := range dist.Warnings {
		warnings = append(warnings, config.Warning{Field: "spec.distribution", Message: w})
	}
	warnings = append(append(warnings, res.Warnings...), out.Warnings...)
	return &Result{LLSD: llsd, Objects: out.Objects, Warnings: warnings}, nil
}

// mountable rejects references a pod cannot mount: a CA bundle ConfigMap in another
// namespace (volumes only see the pod's own namespace).
func mountable(obj *v1alpha2.LlamaStackDistribution) field.ErrorList {
	tls := obj.Spec.Networking.GetTLS()
	if tls == nil || tls.CABundle == nil {
		return nil
	}
	ns := tls.CABundle.ConfigMapNamespace
	if ns == "" || obj.Namespace == "" || ns == obj.Namespace { // without a namespace, it is decided at apply time
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("spec", "networking", "tls", "caBundle", "configMapNamespace"), ns,
		"a pod can mount only ConfigMaps of its own namespace: copy the CA bundle into the LlamaStackDistribution's namespace and remove configMapNamespace")}
}

// renderOverride runs the user's own config.yaml: no generation, the ConfigMap is theirs.
func renderOverride(obj *v1alpha2.LlamaStackDistribution, opts Options, errs field.ErrorList) (*Result, field.ErrorList) {
	dist, ferr := distribution.ResolveRuntime(obj.Spec.Distribution, opts.Distribution)
	if ferr != nil {
		return nil, append(errs, ferr)
	}
	image := dist.Image
	in := render.Input{
		Object:       obj,
		Distribution: dist,
		UserConfig:   obj.Spec.OverrideConfig.ConfigMapName,
		Options:      opts.Render,
	}
	if data, ok := opts.ConfigMaps[obj.Namespace+"/"+obj.Spec.OverrideConfig.ConfigMapName]; ok {
		in.UserConfigHash = render.ConfigMapDataHash(data)
	}
	in.ConfigMaps = opts.ConfigMaps
	out, renderErrs := render.Render(in)
	if errs = append(errs, renderErrs...); len(errs) > 0 {
		return nil, errs
	}
	llsd := withReceipt(obj, map[string]string{
		ReceiptConfigMap:  out.ConfigMapName,
		ReceiptConfigHash: out.ConfigHash,
		ReceiptImage:      image,
		ReceiptRenderer:   "llsd " + opts.RendererVersion,
	})
	return &Result{LLSD: llsd, Objects: out.Objects, Warnings: out.Warnings}, nil
}

// withReceipt returns a copy of obj with the receipt annotations (replacing an older receipt).
// SpecHash identifies a canonical spec: sha256 (16 hex) of its JSON with sorted keys, so the
// spec the API server returns hashes the same as the one rendered. The controller compares
// it with the receipt to tell an object edited after its render.
func SpecHash(spec *v1alpha2.LlamaStackDistributionSpec) string {
	data, err := json.Marshal(spec)
	if err != nil {
		return ""
	}
	var tree any // through a generic tree: map keys sorted, embedded JSON (settings) normalised
	if err := json.Unmarshal(data, &tree); err != nil {
		return ""
	}
	data, _ = json.Marshal(tree)
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:8])
}

func withReceipt(obj *v1alpha2.LlamaStackDistribution, receipt map[string]string) *v1alpha2.LlamaStackDistribution {
	out := obj.DeepCopy()
	out.APIVersion = v1alpha2.GroupVersion.String()
	out.Kind = v1alpha2.Kind
	if out.Annotations == nil {
		out.Annotations = map[string]string{}
	}
	for _, key := range ReceiptKeys {
		delete(out.Annotations, key)
	}
	receipt[ReceiptSpecHash] = SpecHash(&out.Spec)
	for k, v := range receipt {
		if v != "" {
			out.Annotations[k] = v
		}
	}
	return out
}
