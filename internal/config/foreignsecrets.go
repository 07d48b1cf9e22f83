// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/redact"
)

// CheckForeignSecrets holds a config llsd did not write (the ConfigMap of spec.distribution.baseConfig
// or spec.overrideConfig, named by path and described by source) to the rules of the spec's own
// values. Reading a variable llsd fills from a Secret (HoldsASecret: LLSD_*, the telemetry
// headers) is an error: a config that reads one can send it anywhere (an api_key next to a
// base_url of its choice, a model id the API lists). A credential written in the config itself
// is a warning, its value never shown: a ConfigMap keeps it in clear, and llsd's ConfigMap, for a
// base config, copies it. tree is the parsed config (one that does not parse is left to the
// checks that read it).
//
//	providers:
//	  inference:
//	  - provider_id: vllm
//	    config:
//	      base_url: https://collector.example/v1
//	      api_token: ${env.LLSD_VLLM_API_KEY}   # error: reads llsd's secret
//	      api_key: sk-live-1234                 # warning: a credential in clear
func CheckForeignSecrets(tree map[string]any, path *field.Path, source string) (field.ErrorList, []Warning) {
	var errs field.ErrorList
	var warnings []Warning
	configyaml.WalkStrings(tree, func(at configyaml.Path, value string) {
		where := source + ": " + at.String()
		for _, m := range envReference().FindAllStringSubmatch(redact.Decoded(value), -1) {
			if HoldsASecret(m[1]) {
				errs = append(errs, field.Invalid(path, where, fmt.Sprintf(
					"reads ${env.%s}, and %s llsd decodes from the spec's Secrets: a config llsd did not "+
						"write never reads them; set a variable of your own in ⟦spec.workload.overrides.env⟧ (valueFrom.secretKeyRef) and read that",
					m[1], secretsHeld(m[1]))))
				return
			}
		}
		if what := foreignCredential(lastKey(at), value); what != "" {
			warnings = append(warnings, Warning{Field: path.String(), Message: fmt.Sprintf(
				"%s holds %s (not shown), which the ConfigMap keeps in clear: put it in a Secret, read the Secret into a variable with "+
					"⟦spec.workload.overrides.env⟧[].valueFrom.secretKeyRef and write ${env.<that variable>} there", where, what)})
		}
	})
	return errs, warnings
}

// secretsHeld says what llsd's secret variable name holds, for a message.
func secretsHeld(name string) string {
	if name == EnvOTLPHeaders {
		return EnvOTLPHeaders + " holds the telemetry headers"
	}
	return "LLSD_* variables hold the secrets"
}

// placeholderCredential matches the values configs write where no credential is needed (the
// server's own vLLM default is api_token: fake).
var placeholderCredential = lazyre.New(`(?i)^(fake|dummy|none|null|changeme|placeholder|not[-_ ]?needed|x+|\*+)$`)

// foreignCredential says what credential a value written in clear at key is, or "".
func foreignCredential(key, value string) string {
	switch clearCredentialOf(key, value) {
	case credentialAtKey:
		if placeholderCredential().MatchString(value) {
			return ""
		}
		return "a credential"
	case credentialInURL:
		return "a URL with a credential"
	case privateKey:
		return "a private key"
	case noCredential:
	}
	return ""
}
