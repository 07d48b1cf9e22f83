// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	k8svalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/lazyre"
)

// Validate checks a LlamaStackDistribution against every rule of the CRD (OpenAPI and CEL)
// and returns the errors with the same field paths and messages the API server gives, so a
// render fails exactly where `kubectl apply` would. Call Default first, as the API server
// does.
func Validate(obj *LlamaStackDistribution) field.ErrorList { return validate(obj, &checks{}) }

// Check is Validate for a reader who may have written the object in another API (v1alpha1, an
// OGXServer): the messages that name a field in their text name it by a reference, which
// wording.Format words in that API (wording.Plain in v1alpha2's, as Validate gives them).
func Check(obj *LlamaStackDistribution) field.ErrorList { return validate(obj, &checks{refer: true}) }

func validate(obj *LlamaStackDistribution, c *checks) field.ErrorList {
	errs := ValidateName(obj.Name)
	if obj.Namespace != "" {
		for _, msg := range k8svalidation.IsDNS1123Label(obj.Namespace) {
			errs = append(errs, field.Invalid(field.NewPath("metadata", "namespace"), obj.Namespace, msg))
		}
	}
	return append(errs, c.spec(&obj.Spec, field.NewPath("spec"))...)
}

// MaxNameLength is the longest metadata.name whose derived object names all stay valid: 63
// minus the longest suffix, "-network-policy" (a test in internal/render holds it to that).
const MaxNameLength = 48

// NameRules are the CEL rules of metadata.name, which hack/crdpatch writes into the CRD
// (controller-gen cannot place a rule on metadata.name) and ValidateName mirrors.
var NameRules = []struct{ Rule, Message string }{
	{"self.matches('" + dns1035Pattern + "')", "must be a DNS-1035 label: lower-case letters, digits and '-', " +
		"starting with a letter and ending with a letter or digit (the Service <name>-service needs one)"},
	{fmt.Sprintf("self.size() <= %d", MaxNameLength), fmt.Sprintf("may have at most %d characters: every object llsd "+
		"renders is named <name>-<suffix>, and the longest, <name>-network-policy, must fit in 63", MaxNameLength)},
}

// dns1035Pattern is a DNS-1035 label.
const dns1035Pattern = `^[a-z]([-a-z0-9]*[a-z0-9])?$`

var dns1035Label = lazyre.New(dns1035Pattern)

// ValidateName checks metadata.name as the CRD's rules do: every rendered object is named
// after it, and the Service name must be a DNS-1035 label of at most 63 characters.
func ValidateName(name string) field.ErrorList {
	var errs field.ErrorList
	p := field.NewPath("metadata", "name")
	if !dns1035Label().MatchString(name) {
		errs = append(errs, field.Invalid(p, name, NameRules[0].Message))
	}
	if len(name) > MaxNameLength {
		errs = append(errs, field.Invalid(p, name, NameRules[1].Message))
	}
	return errs
}

// ValidateSpec validates a spec rooted at path: every field against its bounds in the schema
// (zz_generated.bounds.go), every value against the rules on its type or field (rules.go,
// cel.go), in the order of the fields.
func ValidateSpec(spec *LlamaStackDistributionSpec, path *field.Path) field.ErrorList {
	return (&checks{}).spec(spec, path)
}

// spec walks a spec rooted at path and returns what the checks found.
func (c *checks) spec(spec *LlamaStackDistributionSpec, path *field.Path) field.ErrorList {
	c.walk(reflect.ValueOf(spec).Elem(), path, path)
	return c.errs
}

// walk checks a struct of the spec and what it holds. celPath is where the API server reports
// the rules' errors: it names a map entry [key] there, and .key in the schema's errors (path).
func (c *checks) walk(v reflect.Value, path, celPath *field.Path) {
	for _, f := range fieldPlans(v.Type()) {
		fv := v.Field(f.index)
		if fv.IsZero() && !f.bounds.required && len(f.rules) == 0 {
			continue // left out: nothing to check
		}
		fp := path.Child(f.name)
		cp := fp // the rules' path: the same, but below a map entry
		if celPath != path {
			cp = celPath.Child(f.name)
		}
		if c.value(fv, fp, cp, &f.bounds) {
			for _, r := range f.rules {
				r.checkValue(c, cp, fv)
			}
		}
	}
	c.rules(v.Type().Name(), v, celPath)
}

// fieldPlan is what walk needs of one field of a struct: where it is, its JSON name, its bounds
// and the rules on it.
type fieldPlan struct {
	index  int
	name   string
	bounds bounds
	rules  []ruleChecker
}

var plans sync.Map // reflect.Type -> []fieldPlan

// fieldPlans is the plan of a struct type's fields, made once per type.
func fieldPlans(t reflect.Type) []fieldPlan {
	if plan, ok := plans.Load(t); ok {
		return plan.([]fieldPlan)
	}
	var plan []fieldPlan
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		key := t.Name() + "." + name
		plan = append(plan, fieldPlan{index: i, name: name, bounds: schemaBounds[key], rules: rulesOn()[key]})
	}
	plans.Store(t, plan)
	return plan
}

// value checks one field's value against its bounds and descends into it. It reports whether
// the value is there to check further (a required field left out is not).
func (c *checks) value(v reflect.Value, path, celPath *field.Path, b *bounds) bool {
	// Go cannot tell a required field left out from an empty one: a struct whose type has rules
	// is left to them (they say what it needs), a number to its minimum.
	if b.required && v.IsZero() && !isNumber(v) && !hasTypeRules(v.Type()) {
		c.add(field.Required(path, ""))
		return false
	}
	explicit := v.Kind() == reflect.Pointer // a pointer set to "" was written as ""
	if explicit {
		if v.IsNil() {
			return false
		}
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.String:
		if v.String() != "" || explicit {
			c.str(path, v.String(), b)
		}
	case reflect.Int32, reflect.Int64:
		c.number(path, v.Int(), b)
	case reflect.Slice:
		c.list(path, v, b)
		for i := range v.Len() {
			c.descend(v.Index(i), path.Index(i), celPath.Index(i))
		}
	case reflect.Map:
		c.properties(path, v, b)
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		for _, k := range keys {
			entry := reflect.New(v.Type().Elem()).Elem()
			entry.Set(v.MapIndex(k))
			c.descend(entry, path.Child(k.String()), celPath.Key(k.String()))
		}
	case reflect.Struct:
		c.descend(v, path, celPath)
	}
	return true
}

// descend walks a struct of ours; the fields of Kubernetes' own types are theirs to check.
func (c *checks) descend(v reflect.Value, path, celPath *field.Path) {
	if v.Kind() == reflect.Struct && v.Type().PkgPath() == ownPackage {
		c.walk(v, path, celPath)
	}
	if v.Type() == jsonType {
		if raw := v.Interface().(apiextensionsv1.JSON).Raw; len(raw) > 0 && raw[0] != '{' {
			c.add(field.Invalid(path, field.OmitValueType{}, "settings must be an object of provider config keys"))
		}
	}
}

// isNumber reports an integer: its zero is checked as a value (against the minimum), since Go
// cannot tell it from one left out.
func isNumber(v reflect.Value) bool { return v.Kind() == reflect.Int32 || v.Kind() == reflect.Int64 }

var jsonType = reflect.TypeFor[apiextensionsv1.JSON]()

var ownPackage = reflect.TypeFor[LlamaStackDistributionSpec]().PkgPath()

// Within reports whether a field path is field, or a field or item inside it, as
// field.Path writes them: spec.storage.sql.type and spec.providers[0] are within spec.storage
// and spec.providers; spec.storageClass is not within spec.storage.
func Within(path, field string) bool {
	rest, ok := strings.CutPrefix(path, field)
	return ok && (rest == "" || rest[0] == '.' || rest[0] == '[')
}
