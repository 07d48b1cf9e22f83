// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"github.com/kptdev/krm-functions-sdk/go/fn"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Items migrates the LlamaStackDistributions and OGXServers among items, each to the other
// API, and passes the other documents through: an LLSD that does not render is an error (it
// has nothing to migrate to), with its render's errors. opts are the render's options; the
// ConfigMaps among items are read as a render reads them.
func Items(items fn.KubeObjects, opts pipeline.Options) (fn.KubeObjects, fn.Results) {
	opts.ConfigMaps = configMaps(items)
	var out fn.KubeObjects
	var results fn.Results
	for _, item := range items {
		if !api.IsRenderable(item.GetKind()) {
			out = append(out, item)
			continue
		}
		migrated, res := one(item, opts)
		results = append(results, res...)
		if migrated != nil {
			out = append(out, migrated)
		}
	}
	return out, results
}

// one migrates one object, or returns the errors that stop it.
func one(item *fn.KubeObject, opts pipeline.Options) (*fn.KubeObject, fn.Results) {
	decoded, errs := api.DecodeObject([]byte(item.String()))
	if len(errs) > 0 {
		return nil, results(item, errs, nil, nil)
	}
	var migrated any
	var warnings []config.Warning
	if decoded.Consumed { // an OGXServer: its LLSD is what it converts to
		llsd := decoded.Object.DeepCopy()
		llsd.Status = v1alpha2.LlamaStackDistributionStatus{}
		migrated = llsd
	} else {
		res, errs := pipeline.Render(decoded.Object, opts)
		if len(errs) > 0 {
			return nil, results(item, errs, nil, decoded)
		}
		migrated, warnings = ToOGXServer(decoded.Object, res)
	}
	data, err := yaml.Marshal(migrated)
	if err != nil {
		return nil, fn.Results{fn.ErrorConfigObjectResult(err, item)}
	}
	obj, err := fn.ParseKubeObject(data)
	if err != nil {
		return nil, fn.Results{fn.ErrorConfigObjectResult(err, item)}
	}
	_, _ = obj.RemoveNestedField("metadata", "creationTimestamp")
	_, _ = obj.RemoveNestedField("status")
	for _, k := range []string{"internal.config.kubernetes.io/path", "internal.config.kubernetes.io/index"} {
		if v := item.GetAnnotation(k); v != "" {
			_ = obj.SetAnnotation(k, v)
		}
	}
	return obj, results(item, nil, warnings, decoded)
}

// results are an object's errors and warnings, their paths as its author wrote them.
func results(item *fn.KubeObject, errs field.ErrorList, warnings []config.Warning, decoded *api.Decoded) fn.Results {
	written := func(path, message string) (string, string) {
		if decoded == nil {
			return path, message
		}
		return decoded.WrittenPath(path), decoded.WrittenText(message)
	}
	ref := &fn.ResourceRef{APIVersion: item.GetAPIVersion(), Kind: item.GetKind(), Name: item.GetName(), Namespace: item.GetNamespace()}
	var file *fn.File
	if item.PathAnnotation() != "" {
		file = &fn.File{Path: item.PathAnnotation(), Index: item.IndexAnnotation()}
	}
	out := make(fn.Results, 0, len(errs)+len(warnings))
	for _, e := range redact.Errors(errs) {
		path, message := written(e.Field, e.ErrorBody())
		out = append(out, &fn.Result{Message: message, Severity: fn.Error, ResourceRef: ref, Field: &fn.Field{Path: path}, File: file})
	}
	for _, w := range warnings {
		path, message := written(w.Field, w.Message)
		out = append(out, &fn.Result{Message: message, Severity: fn.Warning, ResourceRef: ref, Field: &fn.Field{Path: path}, File: file})
	}
	return out
}

// configMaps are the data of the ConfigMaps among items, by namespace/name.
func configMaps(items fn.KubeObjects) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, item := range items {
		if item.GetKind() != "ConfigMap" || item.GetAPIVersion() != "v1" {
			continue
		}
		data := map[string]string{}
		if m, found, err := item.NestedStringMap("data"); err == nil && found {
			data = m
		}
		out[item.GetNamespace()+"/"+item.GetName()] = data
	}
	return out
}
