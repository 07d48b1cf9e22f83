// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLimitBody(t *testing.T) {
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(w, r.Body) })
	h := limitBody(echo, 10)
	for _, tc := range []struct {
		reason        string
		body          string
		contentLength int64
		code          int
	}{
		{reason: "a body within the limit reaches the handler", body: "0123456789", contentLength: 10, code: http.StatusOK},
		{reason: "a declared length over the limit is refused unread", body: "01234567890", contentLength: 11, code: http.StatusRequestEntityTooLarge},
		{reason: "an undeclared length (chunked) over the limit is refused after limit+1 bytes", body: strings.Repeat("x", 1000), contentLength: -1, code: http.StatusRequestEntityTooLarge},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/convert", strings.NewReader(tc.body))
			r.ContentLength = tc.contentLength
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Equal(t, tc.code, w.Code, tc.reason)
			if tc.code == http.StatusOK {
				assert.Equal(t, tc.body, w.Body.String(), tc.reason)
			}
		})
	}
}
