// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"bytes"
	"io"
	"net/http"
	"time"

	"github.com/go-logr/logr"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
)

// conversionHandler serves /convert: at most MaxConcurrentConversions at a time, each body
// read within bodyReadTime and at most MaxConversionRequest long.
func conversionHandler(scheme *runtime.Scheme, log logr.Logger) http.Handler {
	return limitConcurrency(limitBody(warnRestores(conversion.NewWebhookHandler(scheme), log), MaxConversionRequest), MaxConcurrentConversions, conversionWait)
}

// bodyReadTime is how long a request that holds a conversion slot may take to send its
// body: the API server sends it at once; a client that trickles it gives the slot back.
var bodyReadTime = 5 * time.Second

// MaxConversionRequest is the largest ConversionReview the webhook reads (4 MiB): the API
// server sends one object at a time, and an object is at most 1.5 MiB in etcd. A larger body
// is refused before it is decoded, so that no client can make the controller run out of
// memory and leave v1alpha1 requests without their webhook.
const MaxConversionRequest = 4 << 20

// limitBody answers 413 to a request whose body is larger than limit, without reading more
// than limit+1 bytes of it.
func limitBody(next http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > limit {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(bodyReadTime))
		body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
		if err != nil {
			http.Error(w, "reading the request body failed", http.StatusBadRequest)
			return
		}
		if int64(len(body)) > limit {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = readBody{Reader: bytes.NewReader(body), data: body}
		next.ServeHTTP(w, r)
	})
}

// readBody is a request body limitBody has read: the handlers after it may look at its bytes
// without copying them again.
type readBody struct {
	*bytes.Reader
	data []byte
}

func (readBody) Close() error { return nil }
