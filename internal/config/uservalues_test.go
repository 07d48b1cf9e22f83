// SPDX-License-Identifier: Apache-2.0

package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// After a credential written in clear is refused, generation goes on; what it finds later is
// reported too, but never about the refused field again, and never with the credential in it.
func TestRefusalsAfter(t *testing.T) {
	settings := field.NewPath("spec", "providers", "inference").Index(0).Child("settings")
	g := &generator{}
	refusal := field.Forbidden(settings.Key("api_token"), "api_token is a credential")
	g.refuse(settings.Key("api_token"), "sk-sentinel", refusal)
	g.refuse(settings.Key("base_url"), "http://u:sk-url-pass@vllm:8000/v1?token=sk-url-token", field.Invalid(settings.Key("base_url"), "", ""))
	refused := g.refused
	for _, tc := range []struct {
		reason string
		later  *field.Error
		want   *field.Error // nil: left out
	}{
		{reason: "an error at the refused field says again what the refusal says",
			later: field.Forbidden(settings.Key("api_token"), "put it in secretRefs")},
		{reason: "so does one below it",
			later: field.Invalid(settings.Key("api_token").Index(0), "x", "")},
		{reason: "an error elsewhere is kept as it is",
			later: field.Invalid(settings.Key("allowed_models"), "llama-3", "write a list"),
			want:  field.Invalid(settings.Key("allowed_models"), "llama-3", "write a list")},
		{reason: "a field that only begins like the refused one is another field",
			later: field.Invalid(settings.Key("api_token_file"), "/x", "no such key"),
			want:  field.Invalid(settings.Key("api_token_file"), "/x", "no such key")},
		{reason: "the credential in a later error's detail is masked",
			later: field.Invalid(settings, "", "the headers say Bearer sk-sentinel"),
			want:  field.Invalid(settings, "", "the headers say Bearer xxxxx")},
		{reason: "so are the user part and the token of a refused URL, shown without the rest",
			later: field.Invalid(settings, "", "cannot reach u:sk-url-pass@vllm with token sk-url-token"),
			want:  field.Invalid(settings, "", "cannot reach xxxxx@vllm with token xxxxx")},
		{reason: "a later error's value that holds the credential is left out",
			later: field.Invalid(settings, map[string]any{"api_token": "sk-sentinel"}, "must be an object"),
			want:  field.Invalid(settings, field.OmitValueType{}, "must be an object")},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got := refused.after(field.ErrorList{refusal, tc.later}, 1)
			want := field.ErrorList{refusal}
			if tc.want != nil {
				want = append(want, tc.want)
			}
			assert.Equal(t, want, got)
		})
	}
}
