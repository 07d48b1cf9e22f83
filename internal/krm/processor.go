// SPDX-License-Identifier: Apache-2.0

package krm

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/kptdev/krm-functions-sdk/go/fn"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/redact"
	"github.com/llamastack/llsd/internal/render"
	"github.com/llamastack/llsd/internal/suggest"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// Processor is the llsd KRM function.
type Processor struct {
	// Version is written into render receipts.
	Version string
	// Standalone is set when llsd itself read the items from files (`llsd render`): every
	// LLSD is written in its canonical form, and generated objects are not placed in files.
	// Otherwise an LLSD read from a file of a package (kpt) keeps its source as written,
	// with the receipt annotations added.
	Standalone bool
	// LookupEnv, when set, reads render options from the renderer's environment (LLSD_* and
	// Argo CD's ARGOCD_ENV_LLSD_*), by the precedence rule (precedence.go).
	LookupEnv func(string) (string, bool)
	// FileOf, when set, names the file an item came from (`llsd render`); otherwise kpt's
	// annotations name it.
	FileOf func(*fn.KubeObject) string
	// NamespaceOf, when set, is the namespace an object that names none is applied to ("" for
	// none known): a kustomization's namespace above its file, the destination of an Argo CD
	// Application (ARGOCD_APP_NAMESPACE). The LLSDs and the objects llsd reads beside them get
	// it, as the tool that applies them would give it.
	NamespaceOf func(*fn.KubeObject) string
	// Entries, when set, receives the output entries of the rendered objects that are not
	// placed in files, written as soon as they are made; their items keep only their
	// identity. Run writes them.
	Entries *Entries
}

// annotations a KRM orchestrator uses and generated objects must not inherit.
var orchestratorAnnotations = []string{
	"config.kubernetes.io/function", "config.kubernetes.io/local-config",
}

// Process renders the ResourceList. On any error the items are returned unchanged with the
// error results: never a partial render.
func (p Processor) Process(rl *fn.ResourceList) (bool, error) {
	// The results are this run's (the KRM function spec): a render of its own output, which
	// carries the results of the first, says each warning once, not again beside the old one.
	rl.Results = nil
	// A message may quote what the user wrote, and what they wrote may hold a credential
	// (an endpoint with a password): every result shows it redacted. A message about no
	// object of the user's (an option's, a package's) is said in llsd's own words; one about
	// an object was said in its author's when it was rendered (pipeline.RenderDecoded).
	defer func() {
		for _, r := range rl.Results {
			r.Message = redact.Text(wording.Plain(r.Message))
		}
	}()
	fileOf := p.FileOf
	if fileOf == nil {
		fileOf = itemFile
	}
	pkgs, err := Packages(rl.Items, fileOf, rl.FunctionConfig, p.LookupEnv)
	if err != nil {
		result := &fn.Result{Severity: fn.Error, Message: err.Error()}
		if IsFunctionConfigError(err) && !noFunctionConfig(rl.FunctionConfig) {
			result = fn.ErrorConfigObjectResult(err, rl.FunctionConfig)
		}
		rl.Results = append(rl.Results, result)
		return false, nil
	}
	if len(pkgs) > 1 {
		return p.processEach(rl, pkgs)
	}
	return p.processPackage(rl, pkgs[0])
}

// processPackage renders the items of one package with its options. Its RenderOptions
// documents among the items are checked and kept as one package's are.
func (p Processor) processPackage(rl *fn.ResourceList, pkg Package) (bool, error) {
	options, llsdConfig := pkg.Options, pkg.LLSD
	if p.NamespaceOf != nil {
		if err := InNamespace(p.NamespaceOf, append(slices.Clone(rl.Items), llsdConfig)); err != nil {
			return false, err
		}
	}
	opts := options.PipelineOptions(p.Version)
	opts.Render.OptionsSource = pkg.Source
	if n, limit := countLLSDs(rl.Items), cmp.Or(options.Spec.Limits.LLSDs, DefaultMaxLLSDs); n > limit {
		rl.Results = append(rl.Results, &fn.Result{Severity: fn.Error, Message: fmt.Sprintf(
			"%d LlamaStackDistributions in one render, more than the limit of %d: split them, or raise RenderOptions spec.limits.llsds",
			n, limit)})
		return false, nil
	}
	opts.ConfigMaps = configMaps(rl.Items, llsdConfig)
	if slices.ContainsFunc(rl.Items, namesAnInferenceService) || namesAnInferenceService(llsdConfig) {
		opts.KServe = KServeObjects(rl.Items)
	}
	toDo := toRender(rl.Items, llsdConfig)
	prepare(toDo)
	var out fn.KubeObjects
	var results fn.Results
	seen := map[string]*fn.KubeObject{}
	files := fileIndexes{}
	rendered := renderedLLSDs(rl.Items, llsdConfig)
	earlier := p.earlierReceipts(toDo)
	renders := p.renderAll(toDo, opts)
	keepRendererVersions(earlier, renders, rl.Items)
	regenerated := regeneratedObjects(renders)
	for _, item := range rl.Items {
		switch {
		case IsGenerated(item) && rendered[generatedFrom(item)]:
			// replaced by this render, or no longer generated: either way not kept
			if r := replacedResult(item, regenerated); r != nil {
				results = append(results, r)
			}
		case IsGenerated(item):
			results = append(results, orphanResult(item))
			out = append(out, item)
		case isLLSD(item) && seen[key(item)] != nil:
			results = append(results, duplicateResult(seen[key(item)], item))
		case isOptionsGroup(item):
			results = append(results, p.checkOptionsItem(item)...)
			if kept := p.keptOptions(item); kept != nil {
				out = append(out, kept)
			}
		case isLLSD(item):
			seen[key(item)] = item
			r := renders[item]
			results = append(results, r.results...)
			objs := r.objects
			if !p.Standalone {
				objs = files.place(item, objs)
			}
			out = append(out, objs...)
		case strings.HasPrefix(item.GetAPIVersion(), v1alpha2.GroupVersion.Group+"/"):
			results = append(results, unknownKindResult(item))
		default:
			out = append(out, item)
		}
	}
	// Generator mode: the LLSD is the function config. kustomize also passes it as an item;
	// render it once.
	if llsdConfig != nil && seen[key(llsdConfig)] == nil {
		r := renders[llsdConfig]
		results = append(results, r.results...)
		out = append(out, r.objects...)
	}
	rl.Results = append(rl.Results, results...)
	if results.ExitCode() != 0 {
		return false, nil
	}
	rl.Items = out
	return true, nil
}

// itemFile is the file an item came from: kpt names it by its package's directory
// (internal.config.kubernetes.io/package-path) and its path in that package.
func itemFile(o *fn.KubeObject) string {
	if o.PathAnnotation() == "" {
		return ""
	}
	return filepath.Join(o.GetAnnotation(packagePathAnnotation), o.PathAnnotation())
}

// processEach renders each package of a ResourceList with its own options, and gives back
// their items and results together: all of them, or on any error none (the items unchanged).
// The RenderOptions items stay in the output as they would in one package's.
func (p Processor) processEach(rl *fn.ResourceList, pkgs []Package) (bool, error) {
	lists := make([]*fn.ResourceList, len(pkgs))
	for i, pkg := range pkgs {
		lists[i] = pkg.List
	}
	results := DuplicatesAcross(lists)
	var items fn.KubeObjects
	for _, pkg := range pkgs {
		if _, err := p.processPackage(pkg.List, pkg); err != nil {
			return false, err
		}
		results = append(results, pkg.List.Results...)
		items = append(items, pkg.List.Items...)
	}
	for _, item := range rl.Items {
		if isOptions(item) {
			if kept := p.keptOptions(item); kept != nil {
				items = append(items, kept)
			}
		}
	}
	rl.Results = results
	if results.ExitCode() != 0 {
		return false, nil
	}
	rl.Items = items
	return true, nil
}

// namespaceDefaulted are the kinds that get the default namespace when they name none: those
// llsd renders, and those it reads beside them (all namespaced).
var namespaceDefaulted = []string{"ConfigMap", "InferenceService", "LLMInferenceService", "ServingRuntime", "Gateway"}

// InNamespace gives the objects llsd renders or reads that name no namespace the namespace
// namespaceOf says ("" for none known: they keep none, and the render addresses their Services
// by short name).
func InNamespace(namespaceOf func(*fn.KubeObject) string, items []*fn.KubeObject) error {
	for _, item := range items {
		if item == nil || item.GetNamespace() != "" || !isLLSD(item) && !slices.Contains(namespaceDefaulted, item.GetKind()) {
			continue
		}
		if ns := namespaceOf(item); ns != "" {
			if err := item.SetNamespace(ns); err != nil {
				return err
			}
		}
	}
	return nil
}

// rendering is what one LLSD rendered into.
type rendering struct {
	objects fn.KubeObjects
	results fn.Results
}

// toRender lists the LLSDs Process renders: each first of its namespace and name, and the
// function config of generator mode when no item is the same LLSD.
func toRender(items fn.KubeObjects, llsdConfig *fn.KubeObject) []*fn.KubeObject {
	var out []*fn.KubeObject
	seen := map[string]bool{}
	for _, item := range items {
		if isLLSD(item) && !seen[key(item)] {
			seen[key(item)] = true
			out = append(out, item)
		}
	}
	if llsdConfig != nil && !seen[key(llsdConfig)] {
		out = append(out, llsdConfig)
	}
	return out
}

// Prepare starts, in the background, the one-time work of a process's first render that
// needs no input: the decoder's reflection over the LLSD types, and building the JSON encoders
// of the kinds of objects written. A single render (what kustomize and kpt run per call) would
// otherwise do it on one core after its config; call it first thing, before reading the input.
func Prepare() {
	go api.PrepareDecode()
	go func() {
		for _, kind := range render.Kinds() {
			_, _ = json.Marshal(kind)
		}
	}()
}

// prepare starts, in the background, the one-time work of the first render that depends
// only on what the LLSDs name: the profile and base config of each distribution. It reads the
// items here, before it returns: the writers move their nodes while the background work runs.
func prepare(items []*fn.KubeObject) {
	var specs []v1alpha2.DistributionSpec
	seen := map[v1alpha2.DistributionSpec]bool{}
	for _, item := range items {
		var spec v1alpha2.DistributionSpec
		spec.Name, _, _ = item.NestedString("spec", "distribution", "name")
		spec.ServerVersion, _, _ = item.NestedString("spec", "distribution", "serverVersion")
		if !seen[spec] {
			seen[spec] = true
			specs = append(specs, spec)
		}
	}
	if len(specs) == 0 {
		return
	}
	go func() {
		for _, spec := range specs {
			distribution.Prepare(spec)
		}
	}()
}

// renderAll renders independent LLSDs concurrently, one worker per CPU; each touches only
// its own item, and the output order is Process's, not the workers'.
func (p Processor) renderAll(items []*fn.KubeObject, opts pipeline.Options) map[*fn.KubeObject]rendering {
	out := make([]rendering, len(items))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(items)) {
		wg.Go(func() {
			for i := range next {
				out[i].objects, out[i].results = p.renderItem(items[i], opts)
			}
		})
	}
	for i := range items {
		next <- i
	}
	close(next)
	wg.Wait()
	byItem := make(map[*fn.KubeObject]rendering, len(items))
	for i, item := range items {
		byItem[item] = out[i]
	}
	return byItem
}

// DecodeItem decodes an LLSD or OGXServer item from the node the function holds (api.DecodeNode),
// not from its text written out and parsed again.
func DecodeItem(item *fn.KubeObject) (*api.Decoded, field.ErrorList) {
	return api.DecodeNode(item.CopyToResourceNode().YNode(), func() []byte { return []byte(item.String()) })
}

// renderItem renders one LLSD into its canonical form and objects, or error results.
func (p Processor) renderItem(item *fn.KubeObject, opts pipeline.Options) (fn.KubeObjects, fn.Results) {
	decoded, errs := DecodeItem(item)
	if len(errs) > 0 {
		results := fieldResults(item, errs, nil) // decoding reports the fields as the user wrote them
		// The rest of the object, without the values decoding refused, is rendered for the
		// errors of its other fields: every problem in one run.
		salvaged, hidden := api.Salvage([]byte(item.String()), errs)
		results = append(results, fieldResults(item, hidden, nil)...)
		if salvaged != nil {
			if _, more := pipeline.RenderDecoded(salvaged, opts); len(more) > 0 {
				results = append(results, ObjectResults(item, salvaged, pipeline.AlsoWrong(more, append(errs, hidden...), salvaged.WrittenPath), nil)...)
			}
		}
		return nil, results
	}
	res, errs := pipeline.RenderDecoded(decoded, opts)
	if len(errs) > 0 {
		return nil, ObjectResults(item, decoded, errs, nil)
	}
	results := ObjectResults(item, decoded, nil, res.Warnings)
	objs := make(fn.KubeObjects, 0, len(res.Objects)+1)
	if p.keepsSource(item) {
		if err := keepSource(item, decoded, res.LLSD.Annotations); err != nil {
			return nil, fn.Results{fn.ErrorConfigObjectResult(err, item)}
		}
		objs = append(objs, item)
	}
	for i, o := range append([]render.Object{res.LLSD}, res.Objects...) {
		if i == 0 && (p.keepsSource(item) || decoded.Consumed) {
			continue
		}
		ko, err := toKubeObject(o)
		if err != nil {
			return nil, fn.Results{fn.ErrorConfigObjectResult(err, item)}
		}
		if i == 0 {
			dropRunIDs(ko)
		} else {
			for _, a := range orchestratorAnnotations {
				_, _ = ko.RemoveNestedField("metadata", "annotations", a)
			}
		}
		objs = append(objs, ko)
	}
	if p.Entries != nil && item.PathAnnotation() == "" {
		for _, ko := range objs {
			if err := p.Entries.writeAhead(ko); err != nil {
				return nil, fn.Results{fn.ErrorConfigObjectResult(err, item)}
			}
		}
	}
	return objs, results
}

func countLLSDs(items fn.KubeObjects) int {
	n := 0
	for _, item := range items {
		if isLLSD(item) {
			n++
		}
	}
	return n
}

// isOptionsGroup reports whether an object is of llsd's function config group.
func isOptionsGroup(o *fn.KubeObject) bool {
	group, _, _ := strings.Cut(o.GetAPIVersion(), "/")
	return group == strings.Split(OptionsAPIVersion, "/")[0]
}

func unknownOptions(o *fn.KubeObject) error {
	return fmt.Errorf("%s %s is not a function config llsd knows: write apiVersion: %s and kind: %s (the options would be ignored)",
		o.GetAPIVersion(), o.GetKind(), OptionsAPIVersion, OptionsKind)
}

// checkOptionsItem: a misspelt kind or version of render options among the items would be
// ignored without a word.
func (p Processor) checkOptionsItem(item *fn.KubeObject) fn.Results {
	if !isOptions(item) {
		return fn.Results{{Message: unknownOptions(item).Error(), Severity: fn.Error, ResourceRef: ref(item), File: file(item)}}
	}
	return nil
}

// keptOptions is what the output keeps of render options among the items: nothing where the
// output is applied (kustomize, llsd render: no cluster has the kind), and in a kpt package, whose
// files the output writes back, the document marked local configuration, so that kpt live apply
// leaves it out.
func (p Processor) keptOptions(item *fn.KubeObject) *fn.KubeObject {
	if !p.keepsSource(item) {
		return nil
	}
	if item.GetAnnotation(localConfig) == "" {
		_ = item.SetAnnotation(localConfig, "true") // a string annotation on a mapping: no error
	}
	return item
}

// optionsSource names where render options came from, for the warnings that say what an
// option changed: "RenderOptions llsd (options.yaml)"; "" when none did.
func optionsSource(cfg *fn.KubeObject) string {
	if noFunctionConfig(cfg) || cfg.GetKind() != OptionsKind {
		return ""
	}
	source := OptionsKind + " " + cfg.GetName()
	if f := cfg.PathAnnotation(); f != "" {
		source += " (" + f + ")"
	}
	return source
}

// noFunctionConfig reports whether the orchestrator gave no function config: none, or the
// empty ConfigMap kpt passes to a function without one.
func noFunctionConfig(cfg *fn.KubeObject) bool {
	return cfg == nil || cfg.IsEmpty() || cfg.GetKind() == "ConfigMap" && len(stringMap(cfg.GetMap("data"))) == 0
}

func optionsNames(objs []*fn.KubeObject) string {
	names := make([]string, len(objs))
	for i, o := range objs {
		names[i] = o.GetName()
		if f := o.PathAnnotation(); f != "" {
			names[i] += " (" + f + ")"
		}
	}
	return strings.Join(names, ", ")
}

// keepsSource reports whether an LLSD stays as its user wrote it (comments, shorthand,
// apiVersion), with only the receipt added: when it comes from a file of a package that the
// orchestrator writes back (kpt fn render).
func (p Processor) keepsSource(item *fn.KubeObject) bool {
	return !p.Standalone && item.PathAnnotation() != ""
}

// keepSource readies the source object a package keeps in its file: an LLSD gets its receipt;
// an OGXServer, the render's input only, is marked local configuration, so that kpt live apply
// does not send it to a cluster that may have no CRD for it (or an operator that would also
// deploy it).
func keepSource(item *fn.KubeObject, decoded *api.Decoded, receipt map[string]string) error {
	if decoded.Consumed {
		return item.SetAnnotation(localConfig, "true")
	}
	return addReceipt(item, receipt)
}

// localConfig marks an object of a package that is not applied.
const localConfig = "config.kubernetes.io/local-config"

// addReceipt replaces the receipt annotations of an LLSD node with those of its render.
func addReceipt(item *fn.KubeObject, rendered map[string]string) error {
	for _, key := range api.ReceiptKeys {
		if err := item.RemoveAnnotation(key); err != nil {
			return err
		}
		if v, ok := rendered[key]; ok {
			if err := item.SetAnnotation(key, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// dropRunIDs removes kyaml's per-run ids from the canonical LLSD. It is decoded from the
// input item, so it carries the orchestrator's other annotations (path, index, local-config,
// kustomize's resource id) already. The ids make kyaml copy comments and field order from the
// input item onto it, and its walker fails when shorthand changed shape in the canonical
// form (inference: {...} -> inference: [{...}]).
func dropRunIDs(o *fn.KubeObject) {
	for _, id := range []string{
		"internal.config.kubernetes.io/id", "config.k8s.io/id",
		"internal.config.kubernetes.io/annotations-migration-resource-id", // kyaml restores the ids from it
	} {
		_, _ = o.RemoveNestedField("metadata", "annotations", id)
	}
}

// unknownKindResult refuses an object of llsd's API group whose kind llsd does not know: a
// misspelt LlamaStackDistribution would otherwise pass through unrendered, without a word.
func unknownKindResult(o *fn.KubeObject) *fn.Result {
	return &fn.Result{Message: fmt.Sprintf("kind %s is not a kind of %s%s: llsd renders %s",
		o.GetKind(), v1alpha2.GroupVersion.Group, suggest.DidYouMean(o.GetKind(), []string{v1alpha2.Kind}), v1alpha2.Kind),
		Severity: fn.Error, ResourceRef: ref(o), File: file(o)}
}

// duplicateResult rejects a second LLSD (or OGXServer) of the same namespace and name: both
// would generate the same objects.
func duplicateResult(first, again *fn.KubeObject) *fn.Result {
	where := ""
	if first.PathAnnotation() != "" && again.PathAnnotation() != "" {
		where = fmt.Sprintf(" (%s and %s)", first.PathAnnotation(), again.PathAnnotation())
	}
	name := strings.TrimPrefix(key(again), "/")
	what := fmt.Sprintf("%s %s appears twice%s", again.GetKind(), name, where)
	if first.GetKind() != again.GetKind() {
		what = fmt.Sprintf("%s %s and %s %s have one namespace and name%s", first.GetKind(), name, again.GetKind(), name, where)
	}
	return &fn.Result{
		Message:  what + ": both would generate the same objects; give one another name or namespace",
		Severity: fn.Error, ResourceRef: ref(again), File: file(again),
	}
}

// ObjectResults are what was found about one decoded object, as its author wrote it: its
// errors, or else the warnings of its decoding and those found after (paths and messages of the
// object's canonical form turned back into the author's).
func ObjectResults(item *fn.KubeObject, decoded *api.Decoded, errs field.ErrorList, warnings []config.Warning) fn.Results {
	if len(errs) > 0 {
		return fieldResults(item, errs, decoded)
	}
	results := make(fn.Results, 0, len(decoded.Warnings)+len(warnings))
	for _, w := range decoded.Warnings { // about the fields as the user wrote them
		results = append(results, &fn.Result{Message: w.Message, Severity: fn.Warning,
			ResourceRef: ref(item), Field: &fn.Field{Path: w.Field}, File: file(item)})
	}
	for _, w := range warnings {
		results = append(results, &fn.Result{Message: w.Message, Severity: fn.Warning,
			ResourceRef: ref(item), Field: &fn.Field{Path: decoded.WrittenPath(w.Field)}, File: file(item)})
	}
	return results
}

// ConfigMaps are the data of the ConfigMaps among items that the LlamaStackDistributions and
// OGXServers among them reference, as a render reads them.
func ConfigMaps(items fn.KubeObjects) map[string]map[string]string { return configMaps(items, nil) }

// fieldResults are the error results of an item; converted says the errors are about its
// v1alpha2 conversion, whose paths and messages are turned back into those the user wrote.
func fieldResults(item *fn.KubeObject, errs field.ErrorList, converted *api.Decoded) fn.Results {
	results := make(fn.Results, 0, len(errs))
	for _, e := range errs {
		message, path := redact.Error(e).ErrorBody(), e.Field
		if converted != nil {
			path = converted.WrittenPath(path)
		}
		results = append(results, &fn.Result{
			Message:     message,
			Severity:    fn.Error,
			ResourceRef: ref(item),
			Field:       &fn.Field{Path: path},
			File:        file(item),
		})
	}
	return results
}

func ref(o *fn.KubeObject) *fn.ResourceRef {
	return &fn.ResourceRef{APIVersion: o.GetAPIVersion(), Kind: o.GetKind(), Name: o.GetName(), Namespace: o.GetNamespace()}
}

func file(o *fn.KubeObject) *fn.File {
	if o.PathAnnotation() == "" {
		return nil
	}
	return &fn.File{Path: o.PathAnnotation(), Index: o.IndexAnnotation()}
}

// isLLSD matches what llsd renders (a LlamaStackDistribution, an OGXServer) by kind alone, so
// an object with a misspelled group (llamastack.ai) gets the decoder's error naming the right
// one instead of passing through unrendered.
func isLLSD(o *fn.KubeObject) bool { return api.IsRenderable(o.GetKind()) }

// IsGenerated reports whether an object is one llsd generated before, by the annotation that
// names its LlamaStackDistribution (a common label such as managed-by would also match the
// user's own objects).
func IsGenerated(o *fn.KubeObject) bool {
	return !isLLSD(o) && o.GetAnnotation(api.AnnotationGeneratedFrom) != ""
}

// generatedFrom is the namespace/name of the LlamaStackDistribution an object was generated from.
func generatedFrom(o *fn.KubeObject) string {
	return o.GetNamespace() + "/" + o.GetAnnotation(api.AnnotationGeneratedFrom)
}

// renderedLLSDs are the LlamaStackDistributions this render renders, by namespace/name: their
// objects of an earlier render are replaced.
func renderedLLSDs(items fn.KubeObjects, generator *fn.KubeObject) map[string]bool {
	out := map[string]bool{}
	for _, item := range append(items, generator) {
		if item != nil && isLLSD(item) {
			out[key(item)] = true
		}
	}
	return out
}

// regeneratedObjects are the kind/namespace/name of every object this render generated.
func regeneratedObjects(renders map[*fn.KubeObject]rendering) map[string]bool {
	out := map[string]bool{}
	for _, r := range renders {
		for _, o := range r.objects {
			out[o.GetKind()+"/"+key(o)] = true
		}
	}
	return out
}

// replacedResult checks an object of an earlier render that this render replaces: it must be
// one the LlamaStackDistribution it names generates (anyone can write the annotation on an
// object of their own, which would then vanish from the output), and one no longer
// generated is reported as removed. A ConfigMap of an older config is replaced silently:
// each config change leaves one.
func replacedResult(o *fn.KubeObject, regenerated map[string]bool) *fn.Result {
	from := o.GetAnnotation(api.AnnotationGeneratedFrom)
	switch {
	case !api.NamesOf(from).Generates(o.GetAPIVersion(), o.GetKind(), o.GetName()):
		return &fn.Result{Message: fmt.Sprintf("%s %s carries %s: %s, which llsd writes only on the objects it renders "+
			"from that LlamaStackDistribution, and this is not one of them: remove the annotation, or the object would be "+
			"dropped as llsd's own", o.GetKind(), o.GetName(), api.AnnotationGeneratedFrom, from),
			Severity: fn.Error, ResourceRef: ref(o), File: file(o)}
	case regenerated[o.GetKind()+"/"+key(o)] || o.GetKind() == "ConfigMap":
		return nil
	}
	return &fn.Result{Message: fmt.Sprintf("%s %s was generated from LlamaStackDistribution %s, which no longer asks for it: "+
		"it is removed from the output (your GitOps tool prunes it from the cluster)", o.GetKind(), o.GetName(), from),
		Severity: fn.Warning, ResourceRef: ref(o), File: file(o)}
}

// orphanResult warns about an object generated from an LLSD that is not among the inputs: it
// stays, as llsd cannot tell a removed LLSD from one rendered elsewhere.
func orphanResult(o *fn.KubeObject) *fn.Result {
	return &fn.Result{Message: fmt.Sprintf("%s %s was generated from LlamaStackDistribution %s, which is not among the inputs: "+
		"it is kept as it is; delete it (or its generated file) if that LlamaStackDistribution is gone",
		o.GetKind(), o.GetName(), generatedFrom(o)), Severity: fn.Warning, ResourceRef: ref(o), File: file(o)}
}

func key(o *fn.KubeObject) string { return o.GetNamespace() + "/" + o.GetName() }

// KServeObjects are the InferenceServices, LLMInferenceServices, ServingRuntimes and Gateways
// among items, decoded, by namespace/name: the providers that name a KServe model are derived
// from them.
func KServeObjects(items fn.KubeObjects) pipeline.KServe {
	k := pipeline.KServe{InferenceServices: map[string]map[string]any{}, LLMInferenceServices: map[string]map[string]any{},
		ServingRuntimes: map[string]map[string]any{}, Gateways: map[string]map[string]any{}}
	for _, item := range items {
		var into map[string]map[string]any
		switch kind, version := item.GetKind(), item.GetAPIVersion(); {
		case kind == v1alpha2.KindInferenceService && version == "serving.kserve.io/v1beta1":
			into = k.InferenceServices
		case kind == v1alpha2.KindLLMInferenceService && (version == "serving.kserve.io/v1alpha1" || version == "serving.kserve.io/v1alpha2"):
			into = k.LLMInferenceServices
		case kind == "ServingRuntime" && version == "serving.kserve.io/v1alpha1":
			into = k.ServingRuntimes
		case kind == "Gateway" && (version == "gateway.networking.k8s.io/v1" || version == "gateway.networking.k8s.io/v1beta1"):
			into = k.Gateways
		default:
			continue
		}
		var m map[string]any
		if sigsyaml.Unmarshal([]byte(item.String()), &m) == nil {
			into[key(item)] = m
		}
	}
	return k
}

// namesAnInferenceService reports whether an LLSD has a provider that names an InferenceService
// or LLMInferenceService (spec.providers.inference a list, or one provider in shorthand): only
// then are the items' KServe objects decoded (KServeObjects).
func namesAnInferenceService(o *fn.KubeObject) bool {
	if o == nil || !isLLSD(o) {
		return false
	}
	if list, found, err := o.NestedSlice("spec", "providers", "inference"); found && err == nil {
		return slices.ContainsFunc(list, func(p *fn.SubObject) bool { return p.GetMap("inferenceService") != nil })
	}
	_, found, _ := o.NestedSubObject("spec", "providers", "inference", "inferenceService")
	return found
}

// configMaps are the data of the user's ConfigMaps among the items that an LLSD references
// (its override config, base config or CA bundle), by namespace/name. Only those are read, each once and
// in one pass: decoding every input ConfigMap into a map costs yaml.v3's duplicate-key check,
// quadratic in its keys.
func configMaps(items fn.KubeObjects, generator *fn.KubeObject) map[string]map[string]string {
	referenced := map[string]bool{}
	for _, item := range append(items, generator) {
		if item == nil || !isLLSD(item) {
			continue
		}
		for _, path := range configMapReferences {
			if name, _, _ := item.NestedString(path...); name != "" {
				referenced[item.GetNamespace()+"/"+name] = true
			}
		}
	}
	out := map[string]map[string]string{}
	for _, item := range items {
		if item.GetKind() != "ConfigMap" || item.GetAPIVersion() != "v1" || !referenced[key(item)] || IsGenerated(item) {
			continue
		}
		out[key(item)] = stringMap(item.GetMap("data"))
	}
	return out
}

// configMapReferences are where an LLSD of either version names a ConfigMap of its namespace.
var configMapReferences = [][]string{
	{"spec", "overrideConfig", "configMapName"},
	{"spec", "distribution", "baseConfig", "configMapName"},
	{"spec", "networking", "tls", "caBundle", "configMapName"},
	{"spec", "server", "userConfig", "configMapName"},
	{"spec", "server", "tlsConfig", "caBundle", "configMapName"},
	{"spec", "overrideConfig", "name"}, // an OGXServer's
	{"spec", "baseConfig", "name"},
}

// stringMap reads a mapping of strings in one pass over its YAML node (nil: none).
func stringMap(o *fn.SubObject) map[string]string {
	if o == nil {
		return nil
	}
	node, err := yaml.Parse(o.String())
	if err != nil || node.YNode().Kind != yaml.MappingNode {
		return nil
	}
	content := node.YNode().Content
	out := make(map[string]string, len(content)/2)
	for i := 0; i+1 < len(content); i += 2 {
		out[content[i].Value] = content[i+1].Value
	}
	return out
}

// DuplicatesAcross reports each LlamaStackDistribution that appears in more than one of lists
// (packages rendered each with its own options, where Process sees one list at a time); a
// duplicate within one list is Process's to report.
func DuplicatesAcross(lists []*fn.ResourceList) fn.Results {
	seen := map[string]*fn.KubeObject{}
	var out fn.Results
	for _, rl := range lists {
		inList := map[string]bool{}
		for _, item := range rl.Items {
			if !isLLSD(item) || IsGenerated(item) {
				continue
			}
			k := key(item)
			if first, ok := seen[k]; ok && !inList[k] {
				out = append(out, duplicateResult(first, item))
				continue
			}
			seen[k], inList[k] = item, true
		}
	}
	return out
}
