// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-logr/logr/funcr"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The conversion webhook converts a v1alpha1 write whose v1alpha2-fields annotation adds fields
// its v1alpha1 fields do not show, and logs which (F11): the conversion API has no warnings to
// answer with, and a hand-written annotation would otherwise add them unseen.
func TestTheWebhookLogsWhatTheAnnotationAdds(t *testing.T) {
	var mu sync.Mutex
	var lines []string
	log := funcr.New(func(prefix, args string) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, args)
	}, funcr.Options{})
	handler := conversionHandler(Scheme(), log)

	review := func(annotation string) string {
		return `{"apiVersion":"apiextensions.k8s.io/v1","kind":"ConversionReview","request":{"uid":"1","desiredAPIVersion":"llamastack.io/v1alpha2","objects":[` +
			`{"apiVersion":"llamastack.io/v1alpha1","kind":"LlamaStackDistribution","metadata":{"name":"s","namespace":"ai"` + annotation + `},` +
			`"spec":{"server":{"distribution":{"name":"starter"}}}}]}}`
	}
	forged := `,"annotations":{"llamastack.io/v1alpha2-fields":"{\"spec\":{\"distribution\":{\"name\":\"starter\"},\"telemetry\":{\"endpoint\":\"http://otel.example:4318\"}},\"fingerprint\":\"x\"}"}`
	for _, tc := range []struct {
		reason, body string
		logged       bool
	}{
		{reason: "a forged annotation", body: review(forged), logged: true},
		{reason: "no annotation", body: review(""), logged: false},
	} {
		lines = nil
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(tc.body)))
		require.Equal(t, http.StatusOK, rec.Code, tc.reason)
		assert.Contains(t, rec.Body.String(), `"status":"Success"`, "%s: converted: %s", tc.reason, rec.Body.String())
		if !tc.logged {
			assert.Empty(t, lines, tc.reason)
			continue
		}
		require.Len(t, lines, 1, tc.reason)
		assert.Contains(t, lines[0], `sets spec.telemetry, which the v1alpha1 fields of this object do not show`)
		assert.Contains(t, lines[0], `"namespace"="ai"`)
		assert.NotContains(t, lines[0], "otel.example", "the log names fields, not what they hold")
	}
}
