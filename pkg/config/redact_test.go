// SPDX-License-Identifier: Apache-2.0

package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

const secret = "S3NT1NEL"

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ reason, endpoint, want string }{
		{"user and password", "http://admin:" + secret + "@vllm:8000/v1", "http://xxxxx@vllm:8000/v1"},
		{"a / in the password, which ends a URL's host part", "http://admin:9/" + secret + "@vllm:8000/v1", "http://xxxxx@vllm:8000/v1"},
		{"an @ in the password", "redis://:p@" + secret + "@redis:6379", "redis://xxxxx@redis:6379"},
		{"no scheme", ":" + secret + "@redis.cache.svc:6379", "xxxxx@redis.cache.svc:6379"},
		{"a key in the query", "https://llm.example.com/v1?api_key=" + secret + "&model=x", "https://llm.example.com/v1?api_key=xxxxx&model=x"},
		{"a token after another parameter", "https://h/v1?a=1&Token=" + secret, "https://h/v1?a=1&Token=xxxxx"},
		{"nothing to hide", "http://vllm:8000/v1?model=llama", "http://vllm:8000/v1?model=llama"},
	} {
		got := redact(tc.endpoint)
		assert.Equal(t, tc.want, got, tc.reason)
		assert.NotContains(t, got, secret, tc.reason)
		assert.Equal(t, tc.want != tc.endpoint, hasCredentials(tc.endpoint), tc.reason)
	}
}

// Whatever surrounds a secret that sits before an @, redact never shows it.
func FuzzRedact(f *testing.F) {
	for _, seed := range [][2]string{
		{"http://admin:", "@vllm:8000/v1"}, {"http://a:9/", "@h/v1"}, {"", "@redis:6379"},
		{"redis://:", "@r:6379/0"}, {"http://u:p/x?#", "@h"}, {"://", "@"},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, before, after string) {
		endpoint := before + secret + after
		got := redact(endpoint)
		// the secret is in the user part: before an @, after the scheme (if any)
		scheme := strings.Index(endpoint, "://")
		inUserPart := scheme < 0 || scheme+3 <= len(before)
		if strings.Contains(after, "@") && !strings.Contains(after, secret) && inUserPart {
			assert.NotContains(t, got, secret, "%q", endpoint)
			assert.True(t, hasCredentials(endpoint))
		}
	})
}
