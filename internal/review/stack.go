// SPDX-License-Identifier: Apache-2.0

package review

import (
	"maps"
	"slices"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/pkg/api"
)

// Object is a rendered object as a tree.
type Object map[string]any

// Stack is one server as a render wrote it: its LlamaStackDistribution with the receipt, the
// config.yaml it runs, and the objects generated for it by kind/name.
type Stack struct {
	Key     string
	LLSD    Object
	Config  map[string]any
	Objects map[string]Object
}

// Stacks groups a render's output by the server each object was generated for.
func Stacks(items fn.KubeObjects) (map[string]*Stack, error) {
	stacks := map[string]*Stack{}
	stack := func(namespace, name string) *Stack {
		key := name
		if namespace != "" {
			key = namespace + "/" + name
		}
		if stacks[key] == nil {
			stacks[key] = &Stack{Key: key, Objects: map[string]Object{}}
		}
		return stacks[key]
	}
	for _, item := range items {
		var o Object
		if err := yaml.Unmarshal([]byte(item.String()), &o); err != nil {
			return nil, err
		}
		if item.GetKind() == "LlamaStackDistribution" {
			stack(item.GetNamespace(), item.GetName()).LLSD = o
			continue
		}
		if from := item.GetAnnotation(api.AnnotationGeneratedFrom); from != "" { // else the package's own
			stack(item.GetNamespace(), from).Objects[item.GetKind()+"/"+item.GetName()] = o
		}
	}
	for _, s := range stacks {
		cm := s.Objects["ConfigMap/"+s.receipt(api.AnnotationConfigMap)]
		if text, ok := nested(cm, "data", render.ConfigKey).(string); ok {
			if err := yaml.Unmarshal([]byte(text), &s.Config); err != nil {
				return nil, err
			}
		}
	}
	return stacks, nil
}

// receipt is an annotation of the stack's render receipt.
func (s *Stack) receipt(key string) string {
	if s == nil {
		return ""
	}
	v, _ := nested(s.LLSD, "metadata", "annotations", key).(string)
	return v
}

// object is the stack's object of kind (the first by name when there are several), nil when none.
func (s *Stack) object(kind string) Object {
	for _, key := range slices.Sorted(maps.Keys(s.Objects)) {
		if s.Objects[key]["kind"] == kind {
			return s.Objects[key]
		}
	}
	return nil
}
