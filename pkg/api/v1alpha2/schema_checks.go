// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/pkg/api/wording"
)

// The Go side of the CRD's OpenAPI bounds. The bounds themselves are the markers on the types,
// which controller-gen writes into the CRD and hack/crdpatch into zz_generated.bounds.go; the
// checks below apply them to a value and word the errors as the API server does, so
// `kustomize build` and `kubectl apply` report a bad field the same way (TestParitySchemaBounds
// breaks each bound on a real API server and holds them to that).

// checks accumulates errors.
type checks struct {
	errs  field.ErrorList
	refer bool // messages name fields by wording references (Check)
}

func (c *checks) add(err *field.Error) { c.errs = append(c.errs, err) }

// field is a path as a message names it: a wording reference when the checks refer.
func (c *checks) field(p *field.Path) string {
	if c.refer {
		return wording.Field(p.String())
	}
	return p.String()
}

// patterns holds the compiled patterns of the bounds, each compiled on first use (not when
// every llsd command starts).
var patterns sync.Map

func matches(pattern, value string) bool {
	re, ok := patterns.Load(pattern)
	if !ok {
		re, _ = patterns.LoadOrStore(pattern, regexp.MustCompile(pattern))
	}
	return re.(*regexp.Regexp).MatchString(value)
}

// str checks a string that is set against its length, pattern and enum.
func (c *checks) str(p *field.Path, value string, b *bounds) {
	if b.minLength != nil && int64(len(value)) < *b.minLength {
		c.add(field.Invalid(p, value, fmt.Sprintf("%s in body should be at least %d chars long", c.field(p), *b.minLength)))
	}
	if b.maxLength != nil && int64(len(value)) > *b.maxLength {
		c.add(field.TooLong(p, value, int(*b.maxLength)))
	}
	if b.pattern != "" && !matches(b.pattern, value) {
		message := fmt.Sprintf("%s in body should match '%s'", c.field(p), b.pattern)
		if lower := strings.ToLower(value); c.refer && matches(b.pattern, lower) {
			message += fmt.Sprintf(": write it in lowercase, %s", lower) // vLLM for vllm: llsd's own word, not the API server's
		}
		c.add(field.Invalid(p, value, message))
	}
	if len(b.enum) > 0 && !slices.Contains(b.enum, value) {
		c.add(field.NotSupported(p, value, b.enum))
	}
}

// number checks an integer against its minimum and maximum.
func (c *checks) number(p *field.Path, value int64, b *bounds) {
	if b.minimum != nil && value < *b.minimum {
		c.add(field.Invalid(p, value, fmt.Sprintf("%s in body should be greater than or equal to %d", c.field(p), *b.minimum)))
	}
	if b.maximum != nil && value > *b.maximum {
		c.add(field.Invalid(p, value, fmt.Sprintf("%s in body should be less than or equal to %d", c.field(p), *b.maximum)))
	}
}

// list checks a list's length, its items against the items' bounds, and the uniqueness its
// list type asks for. MinItems is not checked: an empty list is omitted when encoded, so it
// never reaches the API server from Go, and the decoder reports explicit empty lists itself.
func (c *checks) list(p *field.Path, v reflect.Value, b *bounds) {
	if b.maxItems != nil && int64(v.Len()) > *b.maxItems {
		c.add(field.TooMany(p, v.Len(), int(*b.maxItems)))
	}
	seen := map[any]bool{}
	for i := range v.Len() {
		item := reflect.Indirect(v.Index(i))
		if b.items != nil && item.Kind() == reflect.String {
			c.str(p.Index(i), item.String(), b.items)
		}
		key, shown := listKey(item, b)
		if key == nil {
			continue
		}
		if seen[key] {
			c.add(field.Duplicate(p.Index(i), shown))
		}
		seen[key] = true
	}
}

// listKey is what makes an item unique in a set (the item) or a map list (its key fields, shown
// as the API server shows them); nil for other lists.
func listKey(item reflect.Value, b *bounds) (key, shown any) {
	switch b.listType {
	case "set":
		return item.Interface(), item.Interface()
	case "map":
		fields := map[string]any{}
		for _, f := range fieldPlans(item.Type()) {
			if slices.Contains(b.listMapKeys, f.name) {
				fields[f.name] = item.Field(f.index).Interface()
			}
		}
		return fmt.Sprint(fields), fields
	}
	return nil, nil
}

// properties checks a map's size.
func (c *checks) properties(p *field.Path, v reflect.Value, b *bounds) {
	if b.maxProperties != nil && int64(v.Len()) > *b.maxProperties {
		c.add(field.TooMany(p, v.Len(), int(*b.maxProperties)))
	}
	if !v.IsNil() { // {} decodes as set
		c.tooFew(p, v.Len(), b.minProperties, "properties")
	}
}

// tooFew checks a list's or map's n items or properties against its minimum.
func (c *checks) tooFew(p *field.Path, n int, minimum *int64, what string) {
	if minimum != nil && int64(n) < *minimum {
		c.add(field.Invalid(p, n, fmt.Sprintf("%s in body should have at least %d %s", c.field(p), *minimum, what)))
	}
}
