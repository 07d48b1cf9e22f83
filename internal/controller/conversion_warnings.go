// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"bytes"
	"encoding/json"
	"net/http"

	"github.com/go-logr/logr"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// conversionReview is what warnRestores reads of a ConversionReview: where the objects go.
type conversionReview struct {
	Request *struct {
		DesiredAPIVersion string            `json:"desiredAPIVersion"`
		Objects           []json.RawMessage `json:"objects"`
	} `json:"request"`
}

// warnRestores logs, for each v1alpha1 object converted to v1alpha2, the fields its
// v1alpha2-fields annotation sets beyond what its v1alpha1 fields show (the conversion API has
// no warnings to answer with): a v1alpha1 write whose annotation someone wrote by hand adds
// them without a reviewer seeing them. It reads the body limitBody read and bounded, in place.
func warnRestores(next http.Handler, log logr.Logger) http.Handler {
	marker := []byte(v1alpha1.V1alpha2FieldsAnnotation)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, ok := r.Body.(readBody); ok && bytes.Contains(body.data, marker) {
			logRestores(body.data, log)
		}
		next.ServeHTTP(w, r)
	})
}

func logRestores(body []byte, log logr.Logger) {
	var review conversionReview
	if json.Unmarshal(body, &review) != nil || review.Request == nil || review.Request.DesiredAPIVersion != v1alpha2.GroupVersion.String() {
		return // the conversion handler answers what is wrong with it
	}
	for _, raw := range review.Request.Objects {
		var obj v1alpha1.LlamaStackDistribution
		if json.Unmarshal(raw, &obj) != nil || obj.APIVersion != v1alpha1.GroupVersion.String() {
			continue
		}
		if added := v1alpha1.AnnotationRestores(&obj); len(added) > 0 {
			log.Info("warning: metadata.annotations["+v1alpha1.V1alpha2FieldsAnnotation+"] "+api.RestoresMessage(added),
				"namespace", obj.Namespace, "name", obj.Name, "fields", added)
		}
	}
}
