// SPDX-License-Identifier: Apache-2.0

package review

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/llamastack/llsd/pkg/api"
)

// check compares one concern of a stack before and after.
type check func(before, after *Stack) []Finding

// The concerns a review looks at, each in checks.go: those of the objects, and those of
// config.yaml, which run only when its hash changed (an unchanged config is never parsed).
var (
	objectChecks = []check{serverVersion, restart, exposure, networkPolicy, volume}
	configChecks = []check{authentication, storage, models, providers}
)

// checksOf are the checks a pair of stacks needs.
func checksOf(before, after *Stack) []check {
	if before.receipt(api.AnnotationConfigHash) != after.receipt(api.AnnotationConfigHash) {
		return slices.Concat(objectChecks, configChecks)
	}
	return objectChecks
}

// Compare is what changes for each server from the render before to the render after: servers
// added and removed, and per server every check's findings, highest level first.
func Compare(before, after map[string]*Stack) []Finding {
	var findings []Finding
	for _, key := range slices.Sorted(maps.Keys(before)) {
		if (after[key] == nil || after[key].LLSD == nil) && before[key].LLSD != nil {
			findings = append(findings, removed(before[key]))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(after)) {
		a, b := after[key], before[key]
		switch {
		case a.LLSD == nil:
		case b == nil || b.LLSD == nil:
			findings = append(findings, Finding{Stack: key, Level: Info, Message: "a new server: " + describe(a)})
		case unchanged(b, a):
		default:
			var own []Finding
			for _, c := range checksOf(b, a) {
				for _, f := range c(b, a) {
					f.Stack = key
					own = append(own, f)
				}
			}
			slices.SortStableFunc(own, func(x, y Finding) int { return cmp.Compare(y.Level, x.Level) })
			findings = append(findings, own...)
		}
	}
	return findings
}

// removed is a server the change removes: with a PVC, its state goes with it where the GitOps
// tool prunes.
func removed(s *Stack) Finding {
	if pvc := s.object("PersistentVolumeClaim"); pvc != nil {
		return Finding{Stack: s.Key, Level: DataAtRisk, Message: fmt.Sprintf("the server is removed, and its PVC %s with it where "+
			"the GitOps tool prunes: the files and stores on it are lost; keep the PVC (annotate it to be kept) or back it up", nested(pvc, "metadata", "name"))}
	}
	return Finding{Stack: s.Key, Level: Breaking, Message: "the server is removed: its callers get no answer"}
}

// describe says what a new server runs.
func describe(s *Stack) string {
	return fmt.Sprintf("%s (server %s)", s.receipt(api.AnnotationImage), cmp.Or(s.receipt(api.AnnotationServerVersion), "version unknown"))
}

// nested reads a value of a tree (a config, an object), nil when absent.
func nested(tree map[string]any, path ...string) any {
	var cur any = tree
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

// same reports whether two values of objects or configs are equal as the API server compares them.
func same(a, b any) bool { return equality.Semantic.DeepEqual(a, b) }

// quantity reads a quantity ("10Gi"), zero when absent or unreadable.
func quantity(v any) resource.Quantity {
	s, _ := v.(string)
	q, _ := resource.ParseQuantity(s)
	return q
}

// list joins names for a message.
func list(names []string) string { return strings.Join(names, ", ") }
