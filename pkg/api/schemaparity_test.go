// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// The OpenAPI half of the parity suite, generated from the CRD: for every bound the v1alpha2
// schema puts on a field of ours (maxLength, minLength, pattern, enum, minimum, maximum,
// maxItems, minItems, maxProperties, minProperties, required), a valid fixture that has the
// field is broken in exactly that bound, and llsd must report at that field the same messages
// as the API server, word for word. The markers on the Go types are the one source of these
// bounds; this test is what holds validation.go's checks to them, so a marker changed or added
// without its Go check fails here, naming the field and the bound.

// bound is one constraint of the schema on one field, reachable in a fixture.
type bound struct {
	path    []string // schema path: property names, "[]" for an item, "{}" for a map value
	keyword string
	schema  apiextensionsv1.JSONSchemaProps
}

func (b bound) String() string { return strings.Join(b.path, ".") + " " + b.keyword }

// sameCheck names the bound with "*" for the API of a provider list's items: validation.go
// checks the items of every API's list with the same code, so one API's item stands for all.
func (b bound) sameCheck() string {
	path := slices.Clone(b.path)
	if len(path) > 3 && (path[1] == "providers" || path[1] == "externalProviders") && path[3] == "[]" {
		path[2] = "*"
	}
	return strings.Join(path, ".") + " " + b.keyword
}

// embedded are the schema paths of core Kubernetes types: their bounds are Kubernetes' own.
var embedded = []string{
	"spec.workload.resources", "spec.workload.topologySpreadConstraints", "spec.workload.overrides.env",
	"spec.workload.overrides.volumes", "spec.workload.overrides.volumeMounts", "spec.workload.pod.tolerations",
	"spec.workload.pod.affinity", "spec.workload.pod.imagePullSecrets",
}

func v1alpha2Spec(t *testing.T) apiextensionsv1.JSONSchemaProps {
	t.Helper()
	data, err := os.ReadFile("../../crds/llamastack.io_llamastackdistributions.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	for _, v := range crd.Spec.Versions {
		if v.Name == "v1alpha2" {
			return v.Schema.OpenAPIV3Schema.Properties["spec"]
		}
	}
	t.Fatal("the CRD has no v1alpha2")
	return apiextensionsv1.JSONSchemaProps{}
}

// bounds lists every constraint below node.
func bounds(node apiextensionsv1.JSONSchemaProps, path []string) []bound {
	if slices.Contains(embedded, strings.Join(path, ".")) {
		return nil
	}
	var out []bound
	add := func(keyword string, set bool) {
		if set {
			out = append(out, bound{path: path, keyword: keyword, schema: node})
		}
	}
	add("maxLength", node.MaxLength != nil)
	add("minLength", node.MinLength != nil && *node.MinLength > 0)
	add("pattern", node.Pattern != "")
	add("enum", len(node.Enum) > 0)
	add("minimum", node.Minimum != nil)
	add("maximum", node.Maximum != nil)
	add("maxItems", node.MaxItems != nil)
	add("minItems", node.MinItems != nil)
	add("maxProperties", node.MaxProperties != nil)
	add("minProperties", node.MinProperties != nil)
	for _, name := range node.Required {
		out = append(out, bound{path: append(slices.Clone(path), name), keyword: "required", schema: node.Properties[name]})
	}
	for _, name := range sortedKeys(node.Properties) {
		out = append(out, bounds(node.Properties[name], append(slices.Clone(path), name))...)
	}
	if node.Items != nil && node.Items.Schema != nil {
		out = append(out, bounds(*node.Items.Schema, append(slices.Clone(path), "[]"))...)
	}
	if node.AdditionalProperties != nil && node.AdditionalProperties.Schema != nil {
		out = append(out, bounds(*node.AdditionalProperties.Schema, append(slices.Clone(path), "{}"))...)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }

// slot is where a schema path stands in one object: the container holding the value, and
// the value's key (a string for a map) or index (an int for a list).
type slot struct {
	parent any
	key    any
	field  string // the field path as the API server writes it
}

func (s slot) get() any {
	if m, ok := s.parent.(map[string]any); ok {
		return m[s.key.(string)]
	}
	return s.parent.([]any)[s.key.(int)]
}

func (s slot) set(v any) {
	if m, ok := s.parent.(map[string]any); ok {
		m[s.key.(string)] = v
		return
	}
	s.parent.([]any)[s.key.(int)] = v
}

// find returns the first place in obj that path names, "{}" taking a map's first key.
func find(obj map[string]any, path []string) (slot, bool) {
	var walk func(v any, path []string, field string) (slot, bool)
	walk = func(v any, path []string, field string) (slot, bool) {
		name, rest := path[0], path[1:]
		switch name {
		case "[]":
			list, _ := v.([]any)
			for i := range list {
				s := slot{list, i, fmt.Sprintf("%s[%d]", field, i)}
				if len(rest) == 0 {
					return s, true
				}
				if found, ok := walk(list[i], rest, s.field); ok {
					return found, true
				}
			}
		case "{}":
			m, _ := v.(map[string]any)
			for _, k := range sortedKeys(m) {
				s := slot{m, k, field + "." + k}
				if len(rest) == 0 {
					return s, true
				}
				if found, ok := walk(m[k], rest, s.field); ok {
					return found, true
				}
			}
		default:
			m, ok := v.(map[string]any)
			if !ok {
				return slot{}, false
			}
			if _, has := m[name]; !has {
				return slot{}, false
			}
			s := slot{m, name, strings.TrimPrefix(field+"."+name, ".")}
			if len(rest) == 0 {
				return s, true
			}
			return walk(m[name], rest, s.field)
		}
		return slot{}, false
	}
	return walk(obj, path, "")
}

// breakBound changes the value at s so that it breaks b and, where it can, nothing else of
// the same field. It returns false when the fixture's value cannot be broken that way.
func breakBound(s slot, b bound) bool {
	cur := s.get()
	str, _ := cur.(string)
	switch b.keyword {
	case "required":
		delete(s.parent.(map[string]any), s.key.(string))
		return true
	case "maxLength":
		pads := []string{"a", "0"}
		if str != "" {
			pads = append([]string{str[len(str)-1:]}, pads...)
		}
		for _, pad := range pads {
			long := str + strings.Repeat(pad, int(*b.schema.MaxLength)+1-len(str))
			patternOK := b.schema.Pattern == "" || regexp.MustCompile(b.schema.Pattern).MatchString(long)
			if patternOK {
				s.set(long)
				return true
			}
		}
	case "minLength":
		s.set(str[:*b.schema.MinLength-1])
		return true
	case "pattern":
		for _, bad := range []string{"Not Valid!", "A!", "-", "_", "a b", "x"} {
			if !regexp.MustCompile(b.schema.Pattern).MatchString(bad) && (b.schema.MaxLength == nil || int64(len(bad)) <= *b.schema.MaxLength) &&
				(b.schema.MinLength == nil || int64(len(bad)) >= *b.schema.MinLength) {
				s.set(bad)
				return true
			}
		}
	case "enum":
		s.set("not-a-value")
		return true
	case "minimum":
		s.set(int64(*b.schema.Minimum) - 1)
		return true
	case "maximum":
		s.set(int64(*b.schema.Maximum) + 1)
		return true
	case "maxItems":
		list, _ := cur.([]any)
		if len(list) == 0 {
			return false
		}
		for i := len(list); int64(i) <= *b.schema.MaxItems; i++ {
			list = append(list, list[0])
		}
		s.set(list)
		return true
	case "minItems":
		s.set([]any{})
		return true
	case "maxProperties":
		m, _ := cur.(map[string]any)
		if len(m) == 0 {
			return false
		}
		first := m[sortedKeys(m)[0]]
		grown := map[string]any{}
		for k, v := range m {
			grown[k] = v
		}
		for i := 0; int64(len(grown)) <= *b.schema.MaxProperties; i++ {
			grown["k"+strconv.Itoa(i)] = first
		}
		s.set(grown)
		return true
	case "minProperties":
		s.set(map[string]any{})
		return true
	}
	return false
}

// knownDifferences are the bounds where llsd's message differs from the API server's, on
// purpose or because Go cannot see what the server sees, each with the reason. llsd may also
// say more than the server everywhere: the server skips the CEL rules while a field breaks a
// bound it treats as blocking (required, maxLength, maxItems, enum), and llsd reports every
// problem of an object at once.
var knownDifferences = map[string]string{
	"spec.distribution required":         "llsd says which of name or image to set (the rule that needs one of them)",
	"spec.workload.storage.size pattern": "the size is decoded as a quantity first: llsd names the form (500m, 2, 512Mi, 10Gi) instead of the pattern",
}

func TestParitySchemaBounds(t *testing.T) {
	requireAPIServer(t)
	var bases []map[string]any
	for _, fx := range loadFixtures(t, "valid") {
		var obj map[string]any
		if err := yaml.Unmarshal(fx.data, &obj); err != nil {
			t.Fatal(err)
		}
		if obj["apiVersion"] == "llamastack.io/v1alpha2" {
			bases = append(bases, obj)
		}
	}
	reached := map[string]bool{}
	var unreached []string
	for _, b := range bounds(v1alpha2Spec(t), []string{"spec"}) {
		if reached[b.sameCheck()] {
			continue
		}
		var obj map[string]any
		var at slot
		for _, base := range bases {
			copied := runtime.DeepCopyJSON(base)
			if s, ok := find(copied, b.path); ok {
				obj, at = copied, s
				break
			}
		}
		if obj == nil || !breakBound(at, b) {
			unreached = append(unreached, b.sameCheck())
			continue
		}
		reached[b.sameCheck()] = true
		t.Run(b.String(), func(t *testing.T) {
			data, err := yaml.Marshal(obj)
			if err != nil {
				t.Fatal(err)
			}
			_, serverErr := apiServerCreate(t, data)
			server := serverMessages(serverErr, at.field)
			if len(server) == 0 {
				t.Fatalf("the API server accepted %s broken in %s (or said nothing of the field): %v", at.field, b.keyword, serverErr)
			}
			_, errs := goVerdict(data)
			var ours []string
			for _, e := range errs {
				if e.Field == at.field {
					ours = append(ours, e.ErrorBody())
				}
			}
			var missing []string
			for _, msg := range server {
				if !slices.Contains(ours, msg) {
					missing = append(missing, msg)
				}
			}
			why, known := knownDifferences[b.String()]
			switch {
			case len(missing) > 0 && !known:
				t.Errorf("%s broken in %s:\nllsd says\n  %s\nthe API server says\n  %s", at.field, b.keyword,
					strings.Join(ours, "\n  "), strings.Join(server, "\n  "))
			case len(missing) == 0 && known:
				t.Errorf("%s broken in %s is no longer a known difference (%s): remove it from knownDifferences", at.field, b.keyword, why)
			}
		})
	}
	unreached = slices.Compact(slices.DeleteFunc(unreached, func(b string) bool { return reached[b] }))
	if len(unreached) > 0 {
		t.Errorf("no valid fixture has a value to break for these bounds; add one to testdata/valid:\n  %s", strings.Join(unreached, "\n  "))
	}
}

// serverMessages are the API server's messages about the field at path.
func serverMessages(err error, path string) []string {
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil {
		return nil
	}
	var out []string
	for _, c := range status.Status().Details.Causes {
		if c.Field == path {
			out = append(out, c.Message)
		}
	}
	return out
}
