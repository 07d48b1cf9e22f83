// SPDX-License-Identifier: Apache-2.0

package review

import (
	"maps"
	"slices"
	"strings"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
)

// Object is a rendered object as a tree.
type Object map[string]any

// Stack is one server as a render wrote it: its LlamaStackDistribution with the receipt, the
// config.yaml it runs, and the objects generated for it by kind/name.
type Stack struct {
	Key  string
	LLSD Object
	// texts are the compared objects as the render wrote them, by kind/name: a render writes
	// the same object as the same text, so equal texts need no parsing; objects are those
	// parsed, on first use (object).
	texts   map[string]string
	objects map[string]Object
	// config is config.yaml as the ConfigMap holds it, parsed on first use (Config): a stack
	// whose config hash did not change is never parsed.
	config string
	parsed map[string]any
	err    error
	// configAbsent names the ConfigMap the receipt names when the objects compared do not hold
	// it: kubectl diff sends only the objects of the change, not the config they replace.
	configAbsent string
	// defaulted: the objects are as the API server returns them, with the fields it defaults
	// (LiveStacks), so a field the other side leaves out is not a change.
	defaulted bool
}

// Config is the config.yaml the stack runs, as a tree (nil when it runs its own).
func (s *Stack) Config() map[string]any {
	if s.parsed == nil && s.config != "" && s.err == nil {
		s.parsed, s.err = configyaml.UnmarshalMap([]byte(s.config))
	}
	return s.parsed
}

// compared are the kinds of generated objects a review reads; the others (ServiceAccounts, RBAC,
// monitoring) are not read, which keeps a review of 1,000 stacks fast.
var compared = []string{"Deployment", "Service", "Ingress", "Route", "NetworkPolicy", "PersistentVolumeClaim"}

// LiveStacks are Stacks of objects as the API server returns them (kubectl get, argocd app
// manifests --source live, what kubectl diff hands its external diff): their fields the API
// server defaults (a port's protocol, a claim's storage class) are not changes when the
// objects compared with them leave them out.
func LiveStacks(items fn.KubeObjects) (map[string]*Stack, error) {
	stacks, err := Stacks(items)
	for _, s := range stacks {
		s.defaulted = true
	}
	return stacks, err
}

// Stacks groups a render's output by the server each object was generated for. The objects of
// a server whose LlamaStackDistribution is not among items (argocd app diff hands one object at
// a time) form a stack without it, whose config is the one generated ConfigMap holding
// config.yaml.
func Stacks(items fn.KubeObjects) (map[string]*Stack, error) {
	stacks := map[string]*Stack{}
	stack := func(namespace, name string) *Stack {
		key := name
		if namespace != "" {
			key = namespace + "/" + name
		}
		if stacks[key] == nil {
			stacks[key] = &Stack{Key: key, texts: map[string]string{}, objects: map[string]Object{}}
		}
		return stacks[key]
	}
	configs := map[string]string{} // config.yaml of the generated ConfigMaps that hold one, by namespace/name
	configOf := map[*Stack][]string{}
	for _, item := range items {
		kind := item.GetKind()
		if kind == "LlamaStackDistribution" {
			annotations := map[string]any{}
			for k, v := range item.GetAnnotations() {
				annotations[k] = v
			}
			stack(item.GetNamespace(), item.GetName()).LLSD = Object{"metadata": map[string]any{"annotations": annotations}}
			continue
		}
		from := item.GetAnnotation(api.AnnotationGeneratedFrom)
		switch {
		case from == "": // the package's own
		case kind == "ConfigMap":
			text, found, err := item.NestedString("data", render.ConfigKey)
			if err != nil {
				return nil, err
			}
			if found {
				configs[item.GetNamespace()+"/"+item.GetName()] = text
				s := stack(item.GetNamespace(), from)
				configOf[s] = append(configOf[s], text)
			}
		case slices.Contains(compared, kind):
			stack(item.GetNamespace(), from).texts[kind+"/"+item.GetName()] = item.String()
		}
	}
	for _, s := range stacks {
		name := s.receipt(api.AnnotationConfigMap)
		text, found := configs[s.namespace()+"/"+name]
		switch {
		case s.LLSD == nil && len(configOf[s]) == 1:
			s.config = configOf[s][0]
		case found:
			s.config = text
		case name != "":
			s.configAbsent = name
		}
	}
	return stacks, nil
}

// namespace is the stack's namespace, "" for a stack that names none.
func (s *Stack) namespace() string {
	namespace, _, found := strings.Cut(s.Key, "/")
	if !found {
		return ""
	}
	return namespace
}

// HaveReceipts reports whether some stack's LlamaStackDistribution carries a render receipt:
// the package holds what llsd rendered, not only what its author wrote.
func HaveReceipts(stacks map[string]*Stack) bool {
	for _, s := range stacks {
		if s.receipt(api.AnnotationConfigHash) != "" {
			return true
		}
	}
	return false
}

// receipt is an annotation of the stack's render receipt.
func (s *Stack) receipt(key string) string {
	if s == nil {
		return ""
	}
	v, _ := nested(s.LLSD, "metadata", "annotations", key).(string)
	return v
}

// object is the stack's object of kind (the first by name when there are several), nil when
// none (or unreadable, which a render's own output never is).
func (s *Stack) object(kind string) Object {
	for _, key := range slices.Sorted(maps.Keys(s.texts)) {
		if !strings.HasPrefix(key, kind+"/") {
			continue
		}
		if s.objects[key] == nil {
			s.objects[key], _ = configyaml.UnmarshalMap([]byte(s.texts[key]))
		}
		return s.objects[key]
	}
	return nil
}

// unchanged reports whether a stack rendered the same before and after: the same receipt and the
// same text of every compared object.
func unchanged(before, after *Stack) bool {
	return same(before.LLSD, after.LLSD) && maps.Equal(before.texts, after.texts)
}
