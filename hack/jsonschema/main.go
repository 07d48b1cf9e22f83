// SPDX-License-Identifier: Apache-2.0

// Command jsonschema writes the JSON Schemas editors validate and complete llsd's documents with
// (the YAML language server's modeline, or its settings):
//
//   - llamastackdistribution-v1alpha2.json and -v1alpha1.json from the CRD's schema of each
//     served version, which controller-gen makes from the Go types: OpenAPI's nullable and
//     int-or-string written as JSON Schema says them, an object's unknown keys refused where
//     the API server prunes them, the CRD's CEL rules of the shapes cel.go knows as JSON Schema
//     (the others named in a $comment), and v1alpha2's authoring shorthand;
//   - renderoptions-v1alpha1.json from the RenderOptions type, its choices from the code that
//     checks them.
//
// make generate writes them into schemas/; a release publishes them.
//
//	go run ./hack/jsonschema CRD OUT
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/invopop/jsonschema"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/render"
)

// Draft is the JSON Schema draft the schemas are written in: the newest the YAML language server
// validates fully.
const Draft = "http://json-schema.org/draft-07/schema#"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: jsonschema CRD OUT")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "jsonschema:", err)
		os.Exit(1)
	}
}

func run(crdPath, out string) error {
	data, err := os.ReadFile(crdPath)
	if err != nil {
		return err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		return fmt.Errorf("%s: %w", crdPath, err)
	}
	schemas := map[string]map[string]any{}
	for _, v := range crd.Spec.Versions {
		if v.Served && v.Schema != nil && v.Schema.OpenAPIV3Schema != nil {
			name := strings.ToLower(crd.Spec.Names.Kind) + "-" + v.Name + ".json"
			schemas[name] = FromCRD(crd.Spec.Group+"/"+v.Name, crd.Spec.Names.Kind, v.Schema.OpenAPIV3Schema)
			if v.Storage { // the version authors write, with its shorthand
				withShorthand(schemas[name])
			}
		}
	}
	options, err := RenderOptions()
	if err != nil {
		return err
	}
	schemas["renderoptions-v1alpha1.json"] = options
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, schema := range schemas {
		data, err := json.MarshalIndent(schema, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, name), append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// FromCRD is the JSON Schema of one version of a CRD: its schema with apiVersion and kind fixed
// to that version's and required, and metadata open (the API server's ObjectMeta).
func FromCRD(apiVersion, kind string, s *apiextensionsv1.JSONSchemaProps) map[string]any {
	root := convert(*s)
	root["$schema"] = Draft
	root["title"] = kind + " " + apiVersion
	props := root["properties"].(map[string]any)
	props["apiVersion"] = map[string]any{"type": "string", "enum": []string{apiVersion}}
	props["kind"] = map[string]any{"type": "string", "enum": []string{kind}}
	metadata := props["metadata"].(map[string]any)
	delete(metadata, "additionalProperties") // labels, annotations, namespace...: ObjectMeta's
	root["required"] = []string{"apiVersion", "kind"}
	return root
}

// withShorthand lets a v1alpha2 schema take the authoring shorthand llsd reads (pkg/api
// expandShorthand): a provider list as its one provider, a model as its name, expose as a
// boolean. The API server stores the canonical form llsd writes.
func withShorthand(root map[string]any) {
	spec := root["properties"].(map[string]any)["spec"].(map[string]any)["properties"].(map[string]any)
	either := func(node map[string]any, short map[string]any) map[string]any {
		return map[string]any{"description": node["description"], "anyOf": []any{node, short}}
	}
	providers := spec["providers"].(map[string]any)["properties"].(map[string]any)
	for api, p := range providers {
		list := p.(map[string]any)
		if items, ok := list["items"].(map[string]any); ok {
			providers[api] = either(list, items)
		}
	}
	models := spec["resources"].(map[string]any)["properties"].(map[string]any)["models"].(map[string]any)
	models["items"] = either(models["items"].(map[string]any), map[string]any{"type": "string", "minLength": 1})
	networking := spec["networking"].(map[string]any)["properties"].(map[string]any)
	networking["expose"] = either(networking["expose"].(map[string]any), map[string]any{"type": "boolean"})
}

// convert writes an OpenAPI v3 schema of a CRD as JSON Schema draft-07.
func convert(s apiextensionsv1.JSONSchemaProps) map[string]any {
	out := map[string]any{}
	set := func(key string, v any, ok bool) {
		if ok {
			out[key] = v
		}
	}
	set("description", s.Description, s.Description != "")
	set("type", s.Type, s.Type != "")
	set("format", s.Format, s.Format != "")
	set("pattern", s.Pattern, s.Pattern != "")
	set("maxLength", s.MaxLength, s.MaxLength != nil)
	set("minLength", s.MinLength, s.MinLength != nil)
	set("maxItems", s.MaxItems, s.MaxItems != nil)
	set("minItems", s.MinItems, s.MinItems != nil)
	set("uniqueItems", true, s.UniqueItems)
	set("maxProperties", s.MaxProperties, s.MaxProperties != nil)
	set("minProperties", s.MinProperties, s.MinProperties != nil)
	set("multipleOf", s.MultipleOf, s.MultipleOf != nil)
	// OpenAPI 3.0's exclusive bounds are flags on the bound; JSON Schema's are the bound
	bound := func(value *float64, exclusive bool, inclusiveKey, exclusiveKey string) {
		switch {
		case value == nil:
		case exclusive:
			out[exclusiveKey] = *value
		default:
			out[inclusiveKey] = *value
		}
	}
	bound(s.Minimum, s.ExclusiveMinimum, "minimum", "exclusiveMinimum")
	bound(s.Maximum, s.ExclusiveMaximum, "maximum", "exclusiveMaximum")
	if s.Default != nil {
		var v any
		if json.Unmarshal(s.Default.Raw, &v) == nil {
			out["default"] = v
		}
	}
	if len(s.Enum) > 0 {
		var values []any
		for _, e := range s.Enum {
			var v any
			if json.Unmarshal(e.Raw, &v) == nil {
				values = append(values, v)
			}
		}
		out["enum"] = values
	}
	if len(s.Properties) > 0 {
		props := map[string]any{}
		for name, p := range s.Properties {
			props[name] = allowNull(convert(p))
		}
		out["properties"] = props
	}
	set("required", s.Required, len(s.Required) > 0)
	if s.Items != nil && s.Items.Schema != nil {
		out["items"] = convert(*s.Items.Schema)
	}
	for key, list := range map[string][]apiextensionsv1.JSONSchemaProps{"anyOf": s.AnyOf, "allOf": s.AllOf, "oneOf": s.OneOf} {
		if len(list) > 0 {
			schemas := make([]any, 0, len(list))
			for _, x := range list {
				schemas = append(schemas, convert(x))
			}
			out[key] = schemas
		}
	}
	if s.Not != nil {
		out["not"] = convert(*s.Not)
	}
	switch {
	case s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil:
		out["additionalProperties"] = convert(*s.AdditionalProperties.Schema)
	case s.AdditionalProperties != nil:
		out["additionalProperties"] = s.AdditionalProperties.Allows
	case s.Type == "object" && !preserves(s) && !s.XEmbeddedResource:
		out["additionalProperties"] = false // the API server prunes, kubectl and llsd refuse
	}
	if s.XListType != nil && *s.XListType == "set" {
		out["uniqueItems"] = true
	}
	rules, beyond := celRules(s)
	if len(rules) > 0 {
		out["allOf"] = append(asList(out["allOf"]), rules...)
	}
	if len(beyond) > 0 {
		out["$comment"] = "Checked by the API server and llsd validate, not by this schema: " + strings.Join(beyond, "; ")
	}
	if s.XIntOrString {
		delete(out, "type")
		out["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
	}
	if s.Nullable {
		if t, ok := out["type"].(string); ok {
			out["type"] = []string{t, "null"}
		}
	}
	return out
}

// celRules are the node's CEL rules written as JSON Schema, each with its message for editors,
// and the messages of those that have no JSON Schema form (and of the uniqueness of a list's
// keys).
func celRules(s apiextensionsv1.JSONSchemaProps) (rules []any, beyond []string) {
	for _, r := range s.XValidations {
		if t, ok := translateRule(r.Rule, s); ok && r.Message != "" {
			t["errorMessage"] = r.Message
			rules = append(rules, t)
			continue
		}
		beyond = append(beyond, cmpOr(r.Message, r.Rule))
	}
	if s.XListType != nil && *s.XListType == "map" {
		beyond = append(beyond, "no two items with the same "+strings.Join(s.XListMapKeys, " and "))
	}
	return rules, beyond
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func asList(v any) []any {
	list, _ := v.([]any)
	return list
}

// allowNull lets a field be null, as the API server does: it drops a field whose value is null
// (name: with nothing after it) before it validates, and so does llsd. The field's rules hold
// of its values only.
func allowNull(field map[string]any) map[string]any {
	switch t := field["type"].(type) {
	case string:
		field["type"] = []string{t, "null"}
	case []string:
		if !slices.Contains(t, "null") {
			field["type"] = append(t, "null")
		}
	}
	if enum, ok := field["enum"].([]any); ok {
		field["enum"] = append(enum, nil)
	}
	if anyOf, ok := field["anyOf"].([]any); ok && field["type"] == nil {
		field["anyOf"] = append(anyOf, map[string]any{"type": "null"})
	}
	if rules, ok := field["allOf"].([]any); ok {
		field["allOf"] = []any{map[string]any{"if": map[string]any{"type": "null"}, "else": map[string]any{"allOf": rules}}}
	}
	return field
}

func preserves(s apiextensionsv1.JSONSchemaProps) bool {
	return s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields
}

// RenderOptions is the JSON Schema of a RenderOptions document: the Go type's fields with their
// comments, unknown keys refused (llsd reads it strictly), and the choices llsd checks.
func RenderOptions() (map[string]any, error) {
	r := &jsonschema.Reflector{ExpandedStruct: true, DoNotReference: true}
	if err := r.AddGoComments("github.com/llamastack/llsd", "./internal/krm"); err != nil {
		return nil, err
	}
	data, err := json.Marshal(r.Reflect(&krm.RenderOptions{}))
	if err != nil {
		return nil, err
	}
	var schema map[string]any
	if err := json.Unmarshal(data, &schema); err != nil {
		return nil, err
	}
	schema["$schema"] = Draft
	schema["title"] = krm.OptionsKind + " " + krm.OptionsAPIVersion
	delete(schema, "$id")
	props := schema["properties"].(map[string]any)
	props["apiVersion"] = map[string]any{"type": "string", "enum": []string{krm.OptionsAPIVersion}}
	props["kind"] = map[string]any{"type": "string", "enum": []string{krm.OptionsKind}}
	props["metadata"] = map[string]any{"type": "object"}
	spec := props["spec"].(map[string]any)["properties"].(map[string]any)
	spec["platform"].(map[string]any)["enum"] = []string{"kubernetes", render.PlatformOpenShift}
	spec["podSecurity"].(map[string]any)["enum"] = []string{render.PodSecurityRestricted, render.PodSecurityBaseline, render.PodSecurityPrivileged}
	var releases []string
	for _, r := range distribution.Releases {
		releases = append(releases, r.Name)
	}
	spec["openshiftAI"].(map[string]any)["properties"].(map[string]any)["release"].(map[string]any)["enum"] = releases
	schema["required"] = []string{"apiVersion", "kind"}
	return schema, nil
}
