// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/krm"
	"github.com/llamastack/llsd/pkg/pipeline"
	"github.com/llamastack/llsd/pkg/render"
)

// renderCommand prints the manifests of every LlamaStackDistribution in paths, with the
// other documents passed through and objects llsd generated before left out. On any error
// it prints nothing to stdout: never a partial set of manifests.
func renderCommand(paths []string, stdout, stderr io.Writer) int {
	r, code := renderPaths("render", paths, stderr)
	if code != 0 {
		return code
	}
	if r.failed > 0 {
		return 1
	}
	_, _ = stdout.Write(r.out.Bytes())
	return 0
}

// rendered is what a render of some paths gave: the manifests, and how many
// LlamaStackDistributions were rendered and how many of them failed.
type rendered struct {
	out             bytes.Buffer
	checked, failed int
}

// renderPaths renders every document of the command's paths; `llsd render` prints the
// result, `llsd validate` only its verdict, so both refuse exactly the same inputs. The exit
// code is non-zero when the inputs cannot be read as a whole.
func renderPaths(command string, paths []string, stderr io.Writer) (*rendered, int) {
	files, ok := inputFiles(command, paths, stderr)
	if !ok {
		return nil, 2
	}
	r := &rendered{}
	var docs []document
	for _, file := range files {
		fileDocs, err := readDocuments(file)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", file, err)
			r.failed++
		}
		docs = append(docs, fileDocs...)
	}
	options, err := renderOptions(docs)
	if err == nil {
		err = checkUnique(docs)
	}
	if err != nil {
		fmt.Fprintf(stderr, "llsd %s: %v\n", command, err)
		return nil, 1
	}
	opts := options.PipelineOptions(Version())
	opts.ConfigMaps = configMaps(docs)
	for _, doc := range docs {
		if isRendered(doc) {
			r.checked++
		}
		if !renderDocument(doc, opts, &r.out, stderr) {
			r.failed++
		}
	}
	return r, 0
}

// isRendered reports whether a document is a LlamaStackDistribution that llsd renders.
func isRendered(doc document) bool {
	return doc.Kind == v1alpha2.Kind && !doc.generated() && !doc.localConfig()
}

// renderDocument writes one input document's output: a LlamaStackDistribution becomes its
// canonical form and objects; previously generated objects, local configuration
// (RenderOptions, kustomization files, Kptfiles) and documents without a kind are dropped;
// anything else passes through.
func renderDocument(doc document, opts pipeline.Options, out, stderr io.Writer) bool {
	file := doc.file
	switch {
	case doc.generated() || doc.localConfig() || doc.Kind == "":
		return true
	case doc.Kind != v1alpha2.Kind:
		fmt.Fprintf(out, "---\n%s\n", bytes.TrimSpace(doc.raw))
		return true
	}
	obj, errs := api.Decode(doc.raw)
	var res *pipeline.Result
	if len(errs) == 0 {
		res, errs = pipeline.Render(obj, opts)
	}
	for _, e := range errs {
		fmt.Fprintf(stderr, "%s: LlamaStackDistribution %s: %s\n", file, doc.name(), e.Error())
	}
	if len(errs) > 0 {
		return false
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "%s: LlamaStackDistribution %s: warning: %s\n", file, doc.name(), w)
	}
	data, err := render.YAML(append([]client.Object{res.LLSD}, res.Objects...))
	if err != nil {
		fmt.Fprintf(stderr, "%s: LlamaStackDistribution %s: %v\n", file, doc.name(), err)
		return false
	}
	_, _ = out.Write(data)
	return true
}

// configMaps are the user's ConfigMaps among the inputs, by namespace/name.
func configMaps(docs []document) map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, d := range docs {
		if d.Kind != "ConfigMap" || d.generated() {
			continue
		}
		var cm struct {
			Data map[string]string `json:"data"`
		}
		if yaml.Unmarshal(d.raw, &cm) == nil {
			out[d.Metadata.Namespace+"/"+d.Metadata.Name] = cm.Data
		}
	}
	return out
}

// checkUnique fails on two LlamaStackDistributions with the same namespace and name: their
// objects would collide.
func checkUnique(docs []document) error {
	seen := map[string]string{}
	for _, d := range docs {
		if d.Kind != v1alpha2.Kind || d.generated() || d.localConfig() {
			continue
		}
		key := d.Metadata.Namespace + "/" + d.Metadata.Name
		if first, ok := seen[key]; ok {
			return fmt.Errorf("LlamaStackDistribution %s is in %s and in %s: render each once", d.name(), first, d.file)
		}
		seen[key] = d.file
	}
	return nil
}

// document is one YAML document of an input file.
type document struct {
	raw        []byte
	file       string
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name        string            `json:"name"`
		Namespace   string            `json:"namespace"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
}

func (d document) generated() bool {
	return d.Metadata.Labels[render.LabelManagedBy] == render.ManagedBy
}

func (d document) localConfig() bool {
	return d.isRenderOptions() || d.Kind == "Kptfile" || d.Kind == "Kustomization" ||
		d.Metadata.Annotations["config.kubernetes.io/local-config"] == "true"
}

func (d document) isRenderOptions() bool {
	return d.APIVersion == krm.OptionsAPIVersion && d.Kind == krm.OptionsKind
}

func (d document) name() string {
	if d.Metadata.Name == "" {
		return "(unnamed)"
	}
	return d.Metadata.Name
}

func readDocuments(file string) ([]document, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var docs []document
	for _, raw := range splitYAML(data) {
		var d document
		if err := yaml.Unmarshal(raw, &d); err != nil {
			return nil, fmt.Errorf("not YAML: %v", err)
		}
		d.raw, d.file = raw, file
		docs = append(docs, d)
	}
	return docs, nil
}
