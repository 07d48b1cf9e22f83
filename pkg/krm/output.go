// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"bytes"
	"fmt"
	"runtime"
	"sort"
	"sync"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Run is fn.Run with the output written by WriteResourceList: parse the ResourceList, process
// it, write it. The error is fn.Run's: the processor's, or "error: function failure".
func Run(p fn.ResourceListProcessor, input []byte) ([]byte, error) {
	rl, err := fn.ParseResourceList(input)
	if err != nil {
		return nil, err
	}
	ok, procErr := p.Process(rl)
	out, err := WriteResourceList(rl)
	switch {
	case err != nil:
		return out, err
	case procErr != nil:
		return out, procErr
	case !ok:
		return out, fmt.Errorf("error: function failure")
	}
	return out, nil
}

// parallelWriteMin is the number of items per CPU below which one encoder writes them all.
var parallelWriteMin = 8

// resourceListHeader is how every ResourceList starts.
const resourceListHeader = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"

// WriteResourceList writes rl byte for byte as fn.ResourceList.ToYAML does (items sorted by
// apiVersion, kind, namespace and name), encoding the items in parallel: a thousand
// LlamaStackDistributions write 18 MB. The items are consumed (their nodes moved out).
// TestWriteResourceListIsToYAML checks it against ToYAML.
func WriteResourceList(rl *fn.ResourceList) ([]byte, error) {
	sortItems(rl.Items)
	workers := runtime.GOMAXPROCS(0)
	if workers < 2 || len(rl.Items) == 0 || len(rl.Items) < parallelWriteMin*workers {
		return rl.ToYAML()
	}
	rest, err := (&fn.ResourceList{FunctionConfig: rl.FunctionConfig, Results: rl.Results}).ToYAML()
	if err != nil || !bytes.HasPrefix(rest, []byte(resourceListHeader)) {
		return rl.ToYAML()
	}
	chunks := make([][]byte, workers)
	errs := make([]error, workers)
	size := (len(rl.Items) + workers - 1) / workers
	var wg sync.WaitGroup
	for w := range workers {
		part := rl.Items[min(w*size, len(rl.Items)):min((w+1)*size, len(rl.Items))]
		wg.Go(func() { chunks[w], errs[w] = encodeItems(part) })
	}
	wg.Wait()
	var out bytes.Buffer
	out.Grow(len(rest) + len("items:\n") + sum(chunks))
	out.WriteString(resourceListHeader + "items:\n")
	for w := range workers {
		if errs[w] != nil {
			return nil, errs[w]
		}
		out.Write(chunks[w])
	}
	out.Write(rest[len(resourceListHeader):])
	return out.Bytes(), nil
}

// encodeItems writes items as the entries of the ResourceList's items sequence: by
// entryWriter when it knows the node, else as the SDK's encoder writes {items: [item]},
// without the key's line (an entry's text does not depend on its neighbours).
func encodeItems(items fn.KubeObjects) ([]byte, error) {
	var out, one bytes.Buffer
	for _, item := range items {
		node := item.MoveToResourceNode().YNode()
		one.Reset()
		if (entryWriter{&one}).entry(node) {
			out.Write(one.Bytes())
			continue
		}
		one.Reset()
		seq := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{node}}
		doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "items"}, seq}}
		if err := yaml.NewEncoder(&one).Encode(doc); err != nil {
			return nil, err
		}
		out.Write(bytes.TrimPrefix(one.Bytes(), []byte("items:\n")))
	}
	return out.Bytes(), nil
}

// sortItems sorts as fn.ResourceList.Sort does, with the same sort.Sort over the same
// comparison, so that equal identifiers end in the same order; the identifiers are built
// once instead of at every comparison.
func sortItems(items fn.KubeObjects) {
	ids := make([]string, len(items))
	for i, o := range items {
		ids[i] = fmt.Sprintf("%s %s %s %s", o.GetAPIVersion(), o.GetKind(), o.GetNamespace(), o.GetName())
	}
	sort.Sort(byID{items, ids})
}

type byID struct {
	items fn.KubeObjects
	ids   []string
}

func (s byID) Len() int           { return len(s.items) }
func (s byID) Less(i, j int) bool { return s.ids[i] < s.ids[j] }
func (s byID) Swap(i, j int) {
	s.items[i], s.items[j] = s.items[j], s.items[i]
	s.ids[i], s.ids[j] = s.ids[j], s.ids[i]
}

func sum(chunks [][]byte) int {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	return n
}
