// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sort"
	"sync"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"github.com/llamastack/llsd/internal/fastcodec"
	"sigs.k8s.io/kustomize/kyaml/kio"
	"sigs.k8s.io/kustomize/kyaml/kio/kioutil"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Run is fn.Run reading with ReadResourceList and writing to w with WriteResourceList: read
// the ResourceList, process it, write it. entries are those the processor wrote ahead
// (Processor.Entries). The error is the reader's, the processor's, or "error: function failure".
func Run(p fn.ResourceListProcessor, input []byte, w io.Writer, entries *Entries) error {
	rl, err := ReadResourceList(input)
	if err != nil {
		return err
	}
	ok, procErr := p.Process(rl)
	switch err := WriteResourceList(w, rl, entries); {
	case err != nil:
		return err
	case procErr != nil:
		return procErr
	case !ok:
		return fmt.Errorf("error: function failure")
	}
	return nil
}

// Entries are ResourceList entries written ahead: a render that writes each object as soon as
// it is made keeps text in memory, not the object's node tree (several times larger).
type Entries struct{ m sync.Map }

// writeAhead writes the entry of ko now and leaves in ko only what sorting reads (apiVersion,
// kind, namespace, name); WriteResourceList writes the entry in its place.
func (e *Entries) writeAhead(ko *fn.KubeObject) error {
	apiVersion, kind, namespace, name := ko.GetAPIVersion(), ko.GetKind(), ko.GetNamespace(), ko.GetName()
	text, err := encodeEntry(ko.MoveToResourceNode().YNode())
	if err != nil {
		return err
	}
	for _, set := range []func() error{
		func() error { return ko.SetAPIVersion(apiVersion) }, func() error { return ko.SetKind(kind) },
		func() error { return ko.SetNamespace(namespace) }, func() error { return ko.SetName(name) },
	} {
		if err := set(); err != nil {
			return err
		}
	}
	e.m.Store(ko, text)
	return nil
}

func (e *Entries) lookup(ko *fn.KubeObject) ([]byte, bool) {
	if e == nil {
		return nil, false
	}
	text, ok := e.m.Load(ko)
	if !ok {
		return nil, false
	}
	return text.([]byte), true
}

// parallelWriteMin is the number of items per CPU below which one encoder writes them all.
var parallelWriteMin = 8

// resourceListHeader is how every ResourceList starts.
const resourceListHeader = "apiVersion: config.kubernetes.io/v1\nkind: ResourceList\n"

// WriteResourceList writes rl to w byte for byte as fn.ResourceList.ToYAML does (items
// sorted by apiVersion, kind, namespace and name), encoding the items in parallel: a thousand
// LlamaStackDistributions write 18 MB. The items are consumed (their nodes moved out).
// entries, if any, are items written ahead. TestWriteResourceListIsToYAML checks it against
// ToYAML.
func WriteResourceList(w io.Writer, rl *fn.ResourceList, entries *Entries) error {
	sortItems(rl.Items)
	head := &fn.ResourceList{FunctionConfig: rl.FunctionConfig, Results: rl.Results}
	var results []byte // the results, when written here rather than by the SDK (they come last)
	if len(rl.Results) > 0 && resultsFast() {
		if text, ok := resultsText(rl.Results); ok {
			head.Results, results = nil, text
		}
	}
	rest, err := head.ToYAML()
	if err != nil {
		return err
	}
	rest = append(rest, results...)
	if len(rl.Items) == 0 {
		_, err := w.Write(rest)
		return err
	}
	if !bytes.HasPrefix(rest, []byte(resourceListHeader)) {
		return fmt.Errorf("the ResourceList does not start with %q", resourceListHeader)
	}
	workers := runtime.GOMAXPROCS(0)
	if len(rl.Items) < parallelWriteMin*workers {
		workers = 1
	}
	chunks := make([][][]byte, workers)
	errs := make([]error, workers)
	size := (len(rl.Items) + workers - 1) / workers
	var wg sync.WaitGroup
	for i := range workers {
		part := rl.Items[min(i*size, len(rl.Items)):min((i+1)*size, len(rl.Items))]
		wg.Go(func() { chunks[i], errs[i] = encodeItems(part, entries) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	// The entries are written as they are, not joined first: a thousand LLSDs' 18 MB would be
	// copied into buffers that double as they grow.
	// A bufio.Writer keeps its first error, which Flush returns.
	out := bufio.NewWriterSize(w, 64<<10)
	_, _ = out.WriteString(resourceListHeader + "items:\n")
	for _, chunk := range chunks {
		for _, text := range chunk {
			_, _ = out.Write(text)
		}
	}
	_, _ = out.Write(rest[len(resourceListHeader):])
	return out.Flush()
}

// encodeItems writes items as the entries of the ResourceList's items sequence, one text each.
func encodeItems(items fn.KubeObjects, entries *Entries) ([][]byte, error) {
	out := make([][]byte, 0, len(items))
	for _, item := range items {
		text, ok := entries.lookup(item)
		if !ok {
			var err error
			if text, err = encodeEntry(item.MoveToResourceNode().YNode()); err != nil {
				return nil, err
			}
		}
		out = append(out, text)
	}
	return out, nil
}

// encodeEntry writes a node as an entry of the items sequence: by fastcodec.WriteEntry when it knows
// the node, else as the SDK's encoder writes {items: [node]}, without the key's line (an
// entry's text does not depend on its neighbours).
func encodeEntry(node *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	if fastcodec.WriteEntry(&buf, node) {
		return buf.Bytes(), nil
	}
	buf.Reset()
	seq := &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{node}}
	doc := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "items"}, seq}}
	if err := yaml.NewEncoder(&buf).Encode(doc); err != nil {
		return nil, err
	}
	return bytes.TrimPrefix(buf.Bytes(), []byte("items:\n")), nil
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

// WriteDocuments writes nodes as a YAML stream, byte for byte as one kio.ByteWriter with
// clearAnnotations writes them (local configuration is the caller's to leave out), several
// times faster: each document is written on its own (by fastcodec.WriteDocument when it knows the node)
// and the documents in parallel, while ByteWriter's single encoder queues the events of the
// whole stream. The nodes are changed (their cleared annotations). TestWriteDocumentsIsByteWriter
// checks it against ByteWriter.
func WriteDocuments(w io.Writer, nodes []*yaml.RNode, clearAnnotations []string) error {
	if len(nodes) < 2 { // one bare node from a .json file is written as JSON: ByteWriter's rule
		return kio.ByteWriter{Writer: w, ClearAnnotations: clearAnnotations}.Write(nodes)
	}
	docs := make([][]byte, len(nodes))
	errs := make([]error, len(nodes))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				docs[i], errs[i] = writeDocument(nodes[i], clearAnnotations)
			}
		})
	}
	for i := range nodes {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, doc := range docs {
		if errs[i] != nil {
			return errs[i]
		}
		if i > 0 {
			if _, err := io.WriteString(w, "---\n"); err != nil {
				return err
			}
		}
		if _, err := w.Write(doc); err != nil {
			return err
		}
	}
	return nil
}

// writeDocument writes one node as ByteWriter writes a document of its stream.
func writeDocument(node *yaml.RNode, clearAnnotations []string) ([]byte, error) {
	// ByteWriter's clearing, done first so that it does not see the file path of a lone node.
	for _, a := range append([]string{kioutil.IndexAnnotation, kioutil.LegacyIndexAnnotation, kioutil.SeqIndentAnnotation}, //nolint:staticcheck // both spellings
		clearAnnotations...) {
		if _, err := node.Pipe(yaml.ClearAnnotation(a)); err != nil {
			return nil, err
		}
	}
	if err := yaml.ClearEmptyAnnotations(node); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if fastcodec.WriteDocument(&buf, node.YNode()) {
		return buf.Bytes(), nil
	}
	buf.Reset()
	err := kio.ByteWriter{Writer: &buf}.Write([]*yaml.RNode{node})
	return buf.Bytes(), err
}
