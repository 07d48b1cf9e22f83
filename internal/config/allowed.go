// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/llamastack/llsd/internal/profile"
	"github.com/llamastack/llsd/internal/suggest"
)

// checkAllowed refuses a settings value the provider's config key does not allow although it
// is of a kind the key takes: a string an enum lacks (pydantic compares exactly), a number out
// of the key's bounds. A ${env.} reference is taken, its value not known here.
//
//	settings: {distance_metric: cosine}       # remote::pgvector: COSINE, L2, L1 or INNER_PRODUCT
//	settings: {max_concurrent_batches: 0}     # inline::reference: at least 1
func (g *generator) checkAllowed(providerType string, f profile.Field, v any, path *field.Path) {
	if s, ok := v.(string); ok && substitutes(s) {
		return
	}
	if problem := notAllowed(f, v); problem != "" {
		g.errs = append(g.errs, field.Invalid(path, v, fmt.Sprintf("%s's %s in %s %s: the server would not start",
			providerType, f.Name, g.prof, problem)))
	}
}

// notAllowed says what f allows that v is not ("is one of ...", "is at least 1"); "" when
// v is allowed, or not a string or number.
func notAllowed(f profile.Field, v any) string {
	if s, ok := v.(string); ok && len(f.Enum) > 0 {
		for _, e := range f.Enum {
			if s == e {
				return ""
			}
		}
		return fmt.Sprintf("is one of %s, written exactly so%s", strings.Join(f.Enum, ", "), suggest.DidYouMean(s, f.Enum))
	}
	n, ok := number(v)
	switch {
	case !ok:
	case f.Minimum != nil && n < *f.Minimum:
		return "is at least " + formatNumber(*f.Minimum)
	case f.ExclusiveMinimum != nil && n <= *f.ExclusiveMinimum:
		return "is more than " + formatNumber(*f.ExclusiveMinimum)
	case f.Maximum != nil && n > *f.Maximum:
		return "is at most " + formatNumber(*f.Maximum)
	}
	return ""
}

// number is v as a number, as pydantic reads it: a number, or a string that reads as one.
func number(v any) (float64, bool) {
	switch t := v.(type) {
	case int64:
		return float64(t), true
	case float64:
		return t, true
	case string:
		n, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
		return n, err == nil
	}
	return 0, false
}

func formatNumber(n float64) string { return strconv.FormatFloat(n, 'f', -1, 64) }

// checkNested checks the keys of a config class written in settings (network: {tls: {...}})
// as the top-level keys are checked: a key the class does not have (the server ignores it), a
// value of a kind it does not take, a URL that is none, a value out of its enum or bounds.
// A value of the kind the key takes is written as the server reads it.
//
//	settings: {network: {tls: {verfy: false}}}   # did you mean verify?
func (g *generator) checkNested(providerType string, f profile.Field, v any, path *field.Path) {
	m, ok := v.(map[string]any)
	if !ok || len(f.Fields) == 0 || isReference(m) {
		return
	}
	names := profile.FieldNames(f.Fields)
	for _, key := range slices.Sorted(maps.Keys(m)) {
		at := path.Key(key)
		i := slices.Index(names, key)
		if i < 0 {
			g.errs = append(g.errs, field.Invalid(at, key, fmt.Sprintf("%s's %s in %s has no key %s%s: its keys are %s",
				providerType, f.Name, g.prof, key, suggest.DidYouMean(key, names), strings.Join(names, ", "))))
			continue
		}
		sub := f.Fields[i]
		sub.Name = f.Name + "." + sub.Name // in messages: network.tls.verify
		g.checkValue(providerType, sub, m, key, at)
	}
}

// checkValue checks the value of key in settings (or a config class inside them), a key of
// field f: its kind, a URL, its enum and bounds, then the keys inside it; and writes it as the
// server reads it.
func (g *generator) checkValue(providerType string, f profile.Field, settings map[string]any, key string, at *field.Path) {
	g.checkKind(providerType, f, settings[key], at)
	g.checkURL(providerType, f, settings[key], at)
	g.checkAllowed(providerType, f, settings[key], at)
	settings[key] = asRead(f.Kinds, settings[key])
	g.checkNested(providerType, f, settings[key], at)
}
