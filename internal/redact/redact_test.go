// SPDX-License-Identifier: Apache-2.0

package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

const secret = "S3NT1NEL"

func TestRedact(t *testing.T) {
	for _, tc := range []struct{ reason, endpoint, want string }{
		{reason: "user and password", endpoint: "http://admin:" + secret + "@vllm:8000/v1", want: "http://xxxxx@vllm:8000/v1"},
		{reason: "a / in the password, which ends a URL's host part", endpoint: "http://admin:9/" + secret + "@vllm:8000/v1", want: "http://xxxxx@vllm:8000/v1"},
		{reason: "an @ in the password", endpoint: "redis://:p@" + secret + "@redis:6379", want: "redis://xxxxx@redis:6379"},
		{reason: "no scheme", endpoint: ":" + secret + "@redis.cache.svc:6379", want: "xxxxx@redis.cache.svc:6379"},
		{reason: "a key in the query", endpoint: "https://llm.example.com/v1?api_key=" + secret + "&model=x", want: "https://llm.example.com/v1?api_key=xxxxx&model=x"},
		{reason: "a token after another parameter", endpoint: "https://h/v1?a=1&Token=" + secret, want: "https://h/v1?a=1&Token=xxxxx"},
		{reason: "nothing to hide", endpoint: "http://vllm:8000/v1?model=llama", want: "http://vllm:8000/v1?model=llama"},
		{reason: "a token in the fragment", endpoint: "https://h/cb#access_token=" + secret + "&x=1", want: "https://h/cb#access_token=xxxxx&x=1"},
		{reason: "a percent-encoded parameter name", endpoint: "https://h/v1?api%5Fkey=" + secret, want: "https://h/v1?api%5Fkey=xxxxx"},
		{reason: "a key after a semicolon", endpoint: "https://h/v1;a=1;apikey=" + secret, want: "https://h/v1;a=1;apikey=xxxxx"},
		{reason: "a JWT in the query", endpoint: "wss://h/ws?jwt=" + secret, want: "wss://h/ws?jwt=xxxxx"},
		{reason: "a short password parameter", endpoint: "http://h/db?user=app&pass=" + secret, want: "http://h/db?user=app&pass=xxxxx"},
		{reason: "pw", endpoint: "http://h/db?pw=" + secret, want: "http://h/db?pw=xxxxx"},
		{reason: "db_pw", endpoint: "http://h/db?db_pw=" + secret, want: "http://h/db?db_pw=xxxxx"},
		{reason: "a bearer parameter", endpoint: "https://h/v1?bearer=" + secret, want: "https://h/v1?bearer=xxxxx"},
		{reason: "a password in the fragment", endpoint: "https://h/cb#pass=" + secret, want: "https://h/cb#pass=xxxxx"},
		{reason: "a parameter that only contains the letters pw", endpoint: "http://h/v1?pwr=2", want: "http://h/v1?pwr=2"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got := URL(tc.endpoint)
			assert.Equal(t, tc.want, got, tc.reason)
			assert.NotContains(t, got, secret, tc.reason)
			assert.Equal(t, tc.want != tc.endpoint, HasCredentials(tc.endpoint), tc.reason)
			// Hidden names what URL hid, each part holding the secret, and nothing else
			hidden := Hidden(tc.endpoint)
			assert.Equal(t, HasCredentials(tc.endpoint), len(hidden) > 0, tc.reason)
			for _, part := range hidden {
				assert.Contains(t, part, secret, tc.reason)
			}
		})
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
		got := URL(endpoint)
		// the secret is in the user part: before an @, after the scheme (if any)
		scheme := strings.Index(endpoint, "://")
		inUserPart := scheme < 0 || scheme+3 <= len(before)
		if strings.Contains(after, "@") && !strings.Contains(after, secret) && inUserPart {
			assert.NotContains(t, got, secret, "%q", endpoint)
			assert.True(t, HasCredentials(endpoint))
		}
	})
}

func TestText(t *testing.T) {
	for _, tc := range []struct{ reason, message, want string }{
		{reason: "a URL inside a message", message: `Invalid value: "http://user:` + secret + `@otel:4318": must be a URL`, want: `Invalid value: "http://xxxxx@otel:4318": must be a URL`},
		{reason: "two URLs", message: "OLLAMA_URL=http://a:" + secret + "@o:11434 and redis://:" + secret + "@r:6379", want: "OLLAMA_URL=http://xxxxx@o:11434 and redis://xxxxx@r:6379"},
		{reason: "nothing to hide", message: "set spec.storage.kv {type: redis}", want: "set spec.storage.kv {type: redis}"},
		{reason: "the punctuation after a URL is the message's, not the token's", message: "endpoint http://o:11434/v1?token=" + secret + ": remove the token, or http://x?key=" + secret + ".",
			want: "endpoint http://o:11434/v1?token=xxxxx: remove the token, or http://x?key=xxxxx."},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.want, Text(tc.message), tc.reason)
		})
	}
}

func TestErrors(t *testing.T) {
	errs := Errors(field.ErrorList{
		field.Invalid(field.NewPath("spec", "telemetry", "endpoint"), "http://u:"+secret+"@otel:4318", "must match"),
		field.Invalid(field.NewPath("spec", "providers").Key("api_key"), secret, "a credential in settings"),
		field.Invalid(field.NewPath("spec", "x"), "y", "see https://h/v1?token="+secret),
	})
	for _, e := range errs {
		assert.NotContains(t, e.Error(), secret)
	}
	assert.Equal(t, `spec.telemetry.endpoint: Invalid value: "http://xxxxx@otel:4318": must match`, errs[0].Error())
}
