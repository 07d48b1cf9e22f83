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
		{"a body within the limit reaches the handler", "0123456789", 10, http.StatusOK},
		{"a declared length over the limit is refused unread", "01234567890", 11, http.StatusRequestEntityTooLarge},
		{"an undeclared length (chunked) over the limit is refused after limit+1 bytes", strings.Repeat("x", 1000), -1, http.StatusRequestEntityTooLarge},
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
