// SPDX-License-Identifier: Apache-2.0

package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"
)

// Each rule shape the schemas translate holds of the same objects as the rule does, as CEL itself
// evaluates it; where CEL fails on a missing field (and the API server refuses), the schema may
// take the object, and never the other way round.
func TestCELTranslationsHoldWhatTheRuleHolds(t *testing.T) {
	object := apiextensionsv1.JSONSchemaProps{Type: "object"}
	stringMap := apiextensionsv1.JSONSchemaProps{Type: "object", AdditionalProperties: &apiextensionsv1.JSONSchemaPropsOrBool{
		Schema: &apiextensionsv1.JSONSchemaProps{Type: "string"}}}
	objectList := apiextensionsv1.JSONSchemaProps{Type: "array", Items: &apiextensionsv1.JSONSchemaPropsOrArray{
		Schema: &apiextensionsv1.JSONSchemaProps{Type: "object"}}}
	withMap := apiextensionsv1.JSONSchemaProps{Type: "object", Properties: map[string]apiextensionsv1.JSONSchemaProps{"annotations": stringMap}}
	for _, tc := range []struct {
		reason    string
		rule      string
		node      apiextensionsv1.JSONSchemaProps
		instances []string
	}{
		{reason: "two fields that exclude each other", rule: "!(has(self.name) && has(self.image))", node: object,
			instances: []string{`{}`, `{name: a}`, `{image: b}`, `{name: a, image: b}`}},
		{reason: "exactly one of two", rule: "has(self.permit) != has(self.forbid)", node: object,
			instances: []string{`{}`, `{permit: {}}`, `{forbid: {}}`, `{permit: {}, forbid: {}}`}},
		{reason: "a field only with a choice", rule: "!has(self.tableName) || self.type == 'kv_postgres'", node: object,
			instances: []string{`{}`, `{type: kv_postgres, tableName: t}`, `{type: kv_redis, tableName: t}`, `{type: kv_redis}`}},
		{reason: "a choice needs a field", rule: "!(has(self.type) && self.type == 'redis') || has(self.endpoint)", node: object,
			instances: []string{`{}`, `{type: redis}`, `{type: redis, endpoint: e}`, `{type: postgres}`}},
		{reason: "a boolean field", rule: "!has(self.hostname) || !has(self.enabled) || self.enabled", node: object,
			instances: []string{`{}`, `{hostname: h}`, `{hostname: h, enabled: true}`, `{hostname: h, enabled: false}`}},
		{reason: "a value in a list, through nested fields", node: object,
			rule:      "!(has(self.providers) && has(self.providers.files) && has(self.disabled) && 'files' in self.disabled)",
			instances: []string{`{}`, `{providers: {files: []}}`, `{disabled: [files]}`, `{providers: {files: []}, disabled: [files]}`, `{providers: {files: []}, disabled: [batches]}`}},
		{reason: "one of some fields", rule: "has(self.kv) || has(self.sql) || has(self.backends)", node: object,
			instances: []string{`{}`, `{kv: {}}`, `{backends: {}}`}},
		{reason: "every key matches", rule: "self.all(k, k.matches('^[a-z][a-z0-9_]*$'))", node: stringMap,
			instances: []string{`{}`, `{kv_default: x}`, `{Bad: x}`, `{a: x, 9b: y}`}},
		{reason: "no value empty", rule: "self.all(k, self[k] != '')", node: stringMap,
			instances: []string{`{}`, `{a: x}`, `{a: ""}`}},
		{reason: "ids when more than one", rule: "self.size() <= 1 || self.all(p, has(p.id))", node: objectList,
			instances: []string{`[]`, `[{}]`, `[{}, {}]`, `[{id: a}, {id: b}]`, `[{id: a}, {}]`}},
		{reason: "no key with a prefix", rule: "!has(self.annotations) || !self.annotations.exists(k, k.startsWith('llamastack.io/'))", node: withMap,
			instances: []string{`{}`, `{annotations: {a: b}}`, `{annotations: {llamastack.io/x: b}}`, `{annotations: {a: b, llamastack.io/x: c}}`}},
		{reason: "a name's form and length", rule: "self.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$') && self.size() <= 5",
			node: apiextensionsv1.JSONSchemaProps{Type: "string"}, instances: []string{`abc`, `a-b`, `-ab`, `abcdef`, `Ab`}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			translated, ok := translateRule(tc.rule, tc.node)
			require.True(t, ok, "the rule translates")
			data, err := json.Marshal(translated)
			require.NoError(t, err)
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
			require.NoError(t, err)
			c := jsonschema.NewCompiler()
			require.NoError(t, c.AddResource("file:///rule.json", doc))
			schema, err := c.Compile("file:///rule.json")
			require.NoError(t, err)
			program := celProgram(t, tc.rule)
			for _, instance := range tc.instances {
				var self any
				require.NoError(t, yaml.Unmarshal([]byte(instance), &self))
				out, _, evalErr := program.Eval(map[string]any{"self": self})
				celHolds := evalErr == nil && out.Value() == true
				celRefuses := evalErr == nil && out.Value() == false
				js, err := json.Marshal(self)
				require.NoError(t, err)
				value, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
				require.NoError(t, err)
				schemaHolds := schema.Validate(value) == nil
				if celHolds {
					assert.True(t, schemaHolds, "%s: CEL takes it, the schema does not", instance)
				}
				if celRefuses {
					assert.False(t, schemaHolds, "%s: CEL refuses it, the schema takes it", instance)
				}
			}
		})
	}
}

// A rule of another shape has no translation: the schema names it instead.
func TestCELRulesBeyondJSONSchema(t *testing.T) {
	for _, rule := range []string{
		"!has(self.minReplicas) || self.maxReplicas >= self.minReplicas",
		"self.all(p, self.exists_one(q, q.providerId == p.providerId))",
		"self.all(c, isCIDR(c))",
		"[has(self.oidc), has(self.kubernetes)].filter(x, x).size() <= 1",
	} {
		_, ok := translateRule(rule, apiextensionsv1.JSONSchemaProps{Type: "object"})
		assert.False(t, ok, rule)
	}
}

func celProgram(t *testing.T, rule string) cel.Program {
	env, err := cel.NewEnv(cel.Variable("self", cel.DynType))
	require.NoError(t, err)
	ast, issues := env.Compile(rule)
	require.NoError(t, issues.Err())
	program, err := env.Program(ast)
	require.NoError(t, err)
	return program
}
