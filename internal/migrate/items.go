// SPDX-License-Identifier: Apache-2.0

package migrate

import (
	"fmt"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
)

// Items migrates the LlamaStackDistributions and OGXServers among items, each to the other
// API, and passes the other documents through: an LLSD that does not render is an error (it
// has nothing to migrate to), with its render's errors. opts are the render's options; the
// ConfigMaps among items are read as a render reads them.
func Items(items fn.KubeObjects, opts pipeline.Options) (fn.KubeObjects, fn.Results) {
	opts.ConfigMaps = krm.ConfigMaps(items)
	opts.KServe = krm.KServeObjects(items)
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
	decoded, errs := krm.DecodeItem(item)
	if len(errs) > 0 {
		return nil, krm.ObjectResults(item, nil, errs, nil)
	}
	var migrated any
	var warnings []config.Warning
	if decoded.Consumed { // an OGXServer: its LLSD is what it converts to
		decoded.SetPraxisPeer(opts.Praxis.Namespace, opts.Praxis.Labels) // the cluster's gateway, as the render admits it
		migrated = decoded.Object
		if decoded.Object.Spec.Distribution.Name == distribution.RHDev && opts.Distribution.OpenShiftAIRelease == "" {
			warnings = append(warnings, config.Warning{Field: "spec.distribution.name", Message: fmt.Sprintf(
				"an OGXServer's %s renders for OpenShift AI %s without the render option openshiftAI.release, a LlamaStackDistribution's for %s: "+
					"render the LlamaStackDistribution with openshiftAI.release: %q to keep the release", distribution.RHDev,
				distribution.DefaultOGXServerRelease, distribution.DefaultRelease, distribution.DefaultOGXServerRelease)})
		}
	} else {
		res, errs := pipeline.RenderDecoded(decoded, opts)
		if len(errs) > 0 {
			return nil, krm.ObjectResults(item, decoded, errs, nil)
		}
		migrated, warnings = ToOGXServer(decoded.Object, res)
	}
	obj, err := krm.ManifestObject(migrated)
	if err != nil {
		return nil, fn.Results{fn.ErrorConfigObjectResult(err, item)}
	}
	for _, k := range []string{"internal.config.kubernetes.io/path", "internal.config.kubernetes.io/index"} {
		if v := item.GetAnnotation(k); v != "" {
			_ = obj.SetAnnotation(k, v)
		}
	}
	return obj, krm.ObjectResults(item, decoded, nil, warnings)
}
