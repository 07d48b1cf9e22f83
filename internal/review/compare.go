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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/llamastack/llsd/pkg/api"
)

// check compares one concern of a stack before and after.
type check func(before, after *Stack) []Finding

// The concerns a review looks at, each in checks.go: those of the objects, and those of
// config.yaml, which run only when it changed (an unchanged config is never parsed).
var (
	objectChecks = []check{serverVersion, restart, exposure, networkPolicy, volume}
	configChecks = []check{authentication, storage, stores, models, providers}
)

// checksOf are the checks a pair of stacks needs: the config's only when config.yaml changed and
// both are at hand.
func checksOf(before, after *Stack) []check {
	switch {
	case before.config == after.config && before.configAbsent == "" && after.configAbsent == "":
		return objectChecks
	case before.LLSD == nil && after.LLSD == nil && (before.config == "" || after.config == ""):
		return objectChecks // a ConfigMap alone, added or pruned: there is nothing to compare it with
	case before.configAbsent != "" || after.configAbsent != "":
		return append(slices.Clone(objectChecks), configNotCompared)
	}
	return slices.Concat(objectChecks, configChecks)
}

// configNotCompared: config.yaml changed, but the objects compared lack the ConfigMap of one side.
func configNotCompared(before, after *Stack) []Finding {
	absent := cmp.Or(before.configAbsent, after.configAbsent)
	if before.receipt(api.AnnotationConfigHash) == after.receipt(api.AnnotationConfigHash) {
		return nil
	}
	return []Finding{{Level: Info, Message: fmt.Sprintf("config.yaml changes, but the ConfigMap %s is not among the objects "+
		"compared, so what changes in it is not reviewed: compare every object of both sides (argocd app manifests, or llsd "+
		"diff of the two packages)", absent)}}
}

// Compare is what changes for each server from the render before to the render after: servers
// added and removed, and per server every check's findings, highest level first.
func Compare(before, after map[string]*Stack) []Finding {
	var findings []Finding
	renamed := renames(before, after)
	renamedTo := map[string]bool{}
	for _, to := range renamed {
		renamedTo[to] = true
	}
	for _, key := range slices.Sorted(maps.Keys(before)) {
		switch {
		case renamed[key] != "":
			findings = append(findings, rename(before[key], after[renamed[key]]))
		case (after[key] == nil || after[key].LLSD == nil) && before[key].LLSD != nil:
			findings = append(findings, removed(before[key]))
		}
	}
	for _, key := range slices.Sorted(maps.Keys(union(before, after))) {
		b, a := before[key], after[key]
		switch {
		case a != nil && a.LLSD != nil && (b == nil || b.LLSD == nil):
			if !renamedTo[key] {
				findings = append(findings, Finding{Stack: key, Level: Info, Message: "a new server: " + describe(a)})
			}
		case (a == nil || a.LLSD == nil) && b != nil && b.LLSD != nil: // removed, above
		case b != nil && a != nil && unchanged(b, a):
		default: // the same server, or objects of a server whose LlamaStackDistribution is in neither
			findings = append(findings, changes(key, cmp.Or(b, &Stack{}), cmp.Or(a, &Stack{}))...)
		}
	}
	return findings
}

// renames pairs each server the change removes with the one it adds in the same namespace that
// runs the same config on the same image, when there is exactly one: old key to new key.
func renames(before, after map[string]*Stack) map[string]string {
	same := func(s *Stack) string {
		return s.namespace() + " " + s.receipt(api.AnnotationConfigHash) + " " + s.receipt(api.AnnotationImage)
	}
	gone, added := map[string][]string{}, map[string][]string{}
	for key, b := range before {
		if b.LLSD != nil && (after[key] == nil || after[key].LLSD == nil) && b.receipt(api.AnnotationConfigHash) != "" {
			gone[same(b)] = append(gone[same(b)], key)
		}
	}
	for key, a := range after {
		if a.LLSD != nil && (before[key] == nil || before[key].LLSD == nil) {
			added[same(a)] = append(added[same(a)], key)
		}
	}
	out := map[string]string{}
	for k, old := range gone {
		if len(old) == 1 && len(added[k]) == 1 {
			out[old[0]] = added[k][0]
		}
	}
	return out
}

// rename is a server renamed: the same config under a new name, with new objects; the old ones
// go where the GitOps tool prunes.
func rename(old, renamed *Stack) Finding {
	f := Finding{Stack: old.Key, Level: Breaking, Field: "metadata.name"}
	what := []string{"its objects are replaced by new ones"}
	if b, a := old.object("Service"), renamed.object("Service"); b != nil && a != nil {
		what = []string{fmt.Sprintf("its Service %s becomes %s, so callers of the old address lose it", nested(b, "metadata", "name"), nested(a, "metadata", "name"))}
	}
	if pvc := old.object("PersistentVolumeClaim"); pvc != nil {
		f.Level = DataAtRisk
		what = append(what, fmt.Sprintf("its PVC %s goes where the GitOps tool prunes, and %s starts empty: keep the old name to keep "+
			"the files and stores on it", nested(pvc, "metadata", "name"), nested(renamed.object("PersistentVolumeClaim"), "metadata", "name")))
	}
	f.Message = fmt.Sprintf("the server is renamed %s: %s", renamed.Key, strings.Join(what, "; "))
	return f
}

// changes are every check's findings for one server, highest level first.
func changes(key string, b, a *Stack) []Finding {
	var own []Finding
	for _, c := range checksOf(b, a) {
		for _, f := range c(b, a) {
			f.Stack = key
			own = append(own, f)
		}
	}
	slices.SortStableFunc(own, func(x, y Finding) int { return cmp.Compare(y.Level, x.Level) })
	return own
}

// union is every key of both sides.
func union(before, after map[string]*Stack) map[string]*Stack {
	all := maps.Clone(after)
	for k, v := range before {
		if all[k] == nil {
			all[k] = v
		}
	}
	return all
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
	v, _, _ := unstructured.NestedFieldNoCopy(tree, path...)
	return v
}

// same reports whether two values of objects or configs are equal as the API server compares them.
func same(a, b any) bool { return equality.Semantic.DeepEqual(a, b) }

// changed reports whether a field of an object changed from b (before) to a (after). Where the
// before side is as the API server returns it (LiveStacks), what a leaves out is the server's
// default, not a change: only a value a sets, to something else, is one.
func changed(before *Stack, b, a any) bool {
	if before.defaulted {
		return !within(a, b)
	}
	return !same(b, a)
}

// within reports whether every value set in a is in b: maps by key, lists item by item, and
// scalars equal (quantities by value: the API server writes "1" for "1000m").
func within(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range a {
			if !within(v, bm[k]) {
				return false
			}
		}
		return true
	case []any:
		bl, ok := b.([]any)
		if !ok || len(bl) != len(a) {
			return false
		}
		for i := range a {
			if !within(a[i], bl[i]) {
				return false
			}
		}
		return true
	case string:
		if bs, ok := b.(string); ok && bs != a {
			qa, errA := resource.ParseQuantity(a)
			qb, errB := resource.ParseQuantity(bs)
			return errA == nil && errB == nil && qa.Cmp(qb) == 0
		}
	}
	return same(a, b)
}

// quantity reads a quantity ("10Gi"), zero when absent or unreadable.
func quantity(v any) resource.Quantity {
	s, _ := v.(string)
	q, _ := resource.ParseQuantity(s)
	return q
}

// list joins names for a message.
func list(names []string) string { return strings.Join(names, ", ") }
