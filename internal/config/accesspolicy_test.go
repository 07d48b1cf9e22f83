// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/distributions"
	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/profile"
)

// Each condition form the server's parse_condition takes is taken, and what it refuses is
// refused with the forms it takes.
func TestParseAccessCondition(t *testing.T) {
	for _, ok := range []string{"user is owner", "user is not owner", "user with admin in roles", "user with admin not in roles",
		"user in owners teams", "user not in owners teams", "resource is unowned", "  user   is  owner "} {
		assert.Empty(t, config.ParseAccessCondition(ok), ok)
	}
	for _, bad := range []string{"user in owner teams", "user is admin", "user with admin in", "user with a b in roles",
		"resource is owned", "", "user with admin in roles and teams"} {
		assert.Contains(t, config.ParseAccessCondition(bad), "is no condition the server knows", bad)
	}
}

// A config of the user's whose access rules the server would refuse is an error naming each
// rule and what is wrong with it.
func TestOwnConfigAccessRules(t *testing.T) {
	_, err := checkOwnConfig(t, `
    provider_config: {type: kubernetes}
    access_policy:
    - {permit: {actions: [read]}, when: user in owner teams}
    - {permit: {actions: [write]}, forbid: {actions: [read]}}
    - {permit: {actions: [read]}, when: user is owner, unless: resource is unowned}
    route_policy:
    - {permit: {paths: "/v1/models*"}, when: user with developer in roles}
`)
	if assert.NotNil(t, err) {
		assert.Contains(t, err.Error(), `server.auth.access_policy[0]: when: "user in owner teams" is no condition the server knows`)
		assert.Contains(t, err.Error(), "server.auth.access_policy[1]: permit and forbid are mutually exclusive")
		assert.Contains(t, err.Error(), `server.auth.access_policy[1]: permit.actions: "write" is no action`)
		assert.Contains(t, err.Error(), "server.auth.access_policy[2]: when and unless are mutually exclusive")
		assert.NotContains(t, err.Error(), "route_policy", "the route rule is one the server takes")
	}
}

// A config's own server.auth gets what spec.authentication never renders said: a provider that
// reads who a caller is over TLS it does not verify (#56).
func TestOwnConfigUnverifiedIdentityProvider(t *testing.T) {
	warnings, err := checkOwnConfig(t, `
    provider_config: {type: oauth2_token, issuer: "https://idp.example.com", verify_tls: false, jwks: {uri: "https://idp.example.com/certs"}}
`)
	require.Nil(t, err)
	var said []string
	for _, w := range warnings {
		said = append(said, w.Message)
	}
	assert.Contains(t, strings.Join(said, "\n"), "ConfigMap own key config.yaml: server.auth.provider_config.verify_tls: false: the server reads who a caller is over TLS it does not verify")
}

// checkOwnConfig checks a config of OGX 1.3 with a vLLM provider and the server.auth given
// (the lines below auth:), as the server would read it.
func checkOwnConfig(t *testing.T, auth string) ([]config.Warning, *field.Error) {
	t.Helper()
	prof, ok := profile.For("1.3")
	require.True(t, ok)
	tree, perr := configyaml.UnmarshalMap([]byte(`version: 2
image_name: own
apis: [inference]
providers: {inference: [{provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://vllm:8000/v1"}}]}
server:
  auth:` + auth))
	require.NoError(t, perr)
	return config.CheckOwnConfig(tree, prof, nil, field.NewPath("spec", "overrideConfig", "configMapName"), "ConfigMap own key config.yaml")
}

// The access rules OpenShift AI's images ship are ones the checker takes: it refuses only what
// the server refuses.
func TestShippedAccessRulesAreTaken(t *testing.T) {
	files, err := fs.Glob(distributions.FS, "rh-dev/*.yaml")
	require.NoError(t, err)
	checked := 0
	for _, f := range files {
		data, err := fs.ReadFile(distributions.FS, f)
		require.NoError(t, err)
		tree, err := configyaml.UnmarshalMap(data)
		require.NoError(t, err)
		server, _ := tree["server"].(map[string]any)
		auth, _ := server["auth"].(map[string]any)
		for _, policy := range []string{"access_policy", "route_policy"} {
			rules, _ := auth[policy].([]any)
			for i, r := range rules {
				rule, _ := r.(map[string]any)
				assert.Empty(t, config.AccessRuleProblems(rule, policy == "route_policy"), "%s: %s[%d]", f, policy, i)
				checked++
			}
		}
	}
	assert.Greater(t, checked, 3, "the shipped configs have access rules")
}

// A config's own access rule scoped to a model says when it names none the config registers:
// the server names a registered model <provider_id>/<model_id> and matches the rule's resource
// exactly, so the bare model_id scopes the rule to nothing (#56).
func TestOwnConfigRulesNameRegisteredModels(t *testing.T) {
	prof, ok := profile.For("1.3")
	require.True(t, ok)
	tree, err := configyaml.UnmarshalMap([]byte(`version: 2
image_name: own
apis: [inference]
providers: {inference: [{provider_id: vllm, provider_type: remote::vllm, config: {base_url: "http://vllm:8000/v1"}}]}
registered_resources:
  models: [{model_id: granite, provider_id: vllm}, {model_id: vllm/llama, provider_id: vllm}]
server:
  auth:
    provider_config: {type: kubernetes}
    access_policy:
    - {permit: {actions: [read], resource: "model::granite"}, when: user with admin in roles}
    - {permit: {actions: [read], resource: "model::vllm/granite"}, when: user with admin in roles}
    - {forbid: {actions: [delete], resource: "model::vllm/llama"}}
    - {permit: {actions: [read], resource: "model::*"}}
    - {permit: {actions: [read], resource: "regex:model::gran.*"}}
`))
	require.NoError(t, err)
	warnings, ferr := config.CheckOwnConfig(tree, prof, nil, field.NewPath("spec", "overrideConfig", "configMapName"), "ConfigMap own key config.yaml")
	require.Nil(t, ferr)
	var said []string
	for _, w := range warnings {
		if strings.Contains(w.Message, "resource:") {
			said = append(said, w.Message)
		}
	}
	assert.Equal(t, []string{"ConfigMap own key config.yaml: server.auth.access_policy[0].permit.resource: model::granite names no model " +
		"the config registers (the server names them model::vllm/granite, model::vllm/llama): the rule applies to none of them; " +
		"write the model's full name, <provider_id>/<model_id>"}, said)
}
