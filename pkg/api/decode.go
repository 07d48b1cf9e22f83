// SPDX-License-Identifier: Apache-2.0

package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/lazyre"
	"github.com/llamastack/llsd/internal/suggest"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/llamastack/llsd/pkg/api/wording"
)

// Group is the API group of LlamaStackDistribution.
const Group = "llamastack.io"

// Decode reads one LlamaStackDistribution (YAML or JSON) of either version, in canonical
// or shorthand form, and returns it as defaulted canonical v1alpha2. It does not run
// v1alpha2.Validate; callers do, so they can tell decoding from validation errors.
func Decode(data []byte) (*v1alpha2.LlamaStackDistribution, field.ErrorList) {
	obj, _, errs := DecodeWithWarnings(data)
	return obj, errs
}

// Warning is something a decoded object does that its author may not see in it.
type Warning struct {
	Field, Message string
}

func (w Warning) String() string { return w.Field + ": " + w.Message }

// DecodeWithWarnings is Decode, and says what a v1alpha1 object's V1alpha2FieldsAnnotation
// adds beyond its own fields: anyone who may write the object may write the annotation, and
// its reviewer sees only the v1alpha1 fields.
func DecodeWithWarnings(data []byte) (*v1alpha2.LlamaStackDistribution, []Warning, field.ErrorList) {
	d, errs := DecodeObject(data)
	if len(errs) > 0 {
		return nil, nil, errs
	}
	return d.Object, d.Warnings, nil
}

// Decoded is an object read for rendering: its canonical v1alpha2 form, and how to say
// things about it in the terms its author wrote it in.
type Decoded struct {
	Object   *v1alpha2.LlamaStackDistribution
	Warnings []Warning
	// Consumed is true for an OGXServer: the render's input, which its output leaves out (the
	// objects it renders apply where neither the successor's CRD nor llsd's is installed).
	Consumed bool
	// PraxisPeer is what of the Praxis gateway's peer an OGXServer in Praxis mode left to the
	// defaults (nil: nothing, or no Praxis mode): the platform's options set them (SetPraxisPeer).
	PraxisPeer *PraxisPeerDefaults
	spoke      bool     // a v1alpha1 object
	restored   bool     // ... with a v1alpha2-fields annotation
	paths      *pathMap // an OGXServer's
}

// WrittenPath is a field path of Object as its author wrote the object: a v1alpha1 object's
// paths are v1alpha1's, an OGXServer's its own.
func (d *Decoded) WrittenPath(path string) string {
	switch {
	case d.spoke:
		return v1alpha1.SpokePathOf(path, d.restored)
	case d.paths != nil:
		return d.paths.written(path)
	}
	return path
}

// WrittenText is a message about Object as its author wrote the object: the fields, APIs and
// fixes it refers to (pkg/api/wording) in the author's terms.
func (d *Decoded) WrittenText(message string) string {
	switch {
	case d.spoke:
		return v1alpha1.SpokeText(message)
	case d.paths != nil:
		return wording.Format(message, d.paths)
	}
	return wording.Plain(message)
}

// IsRenderable reports whether objects of this kind are rendered: LlamaStackDistributions of
// any version, and OGXServers.
func IsRenderable(kind string) bool { return kind == v1alpha2.Kind || kind == ogx.Kind }

// DecodeObject reads one LlamaStackDistribution (either version, canonical or shorthand) or
// OGXServer, as Decode does.
func DecodeObject(data []byte) (*Decoded, field.ErrorList) {
	// Strict: a key written twice is an error, not "the last one wins".
	jsonDoc, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath(""), field.OmitValueType{}, "not a YAML object without repeated keys: "+
			strings.TrimPrefix(err.Error(), "error converting YAML to JSON: "))}
	}
	var doc map[string]any
	if err := json.Unmarshal(jsonDoc, &doc); err != nil || doc == nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath(""), field.OmitValueType{}, "not a YAML object")}
	}
	return decodeDocument(doc)
}

// decodeDocument reads a document in JSON's values (as json.Unmarshal gives them).
func decodeDocument(doc map[string]any) (*Decoded, field.ErrorList) {
	if errs := checkTypeMeta(doc); len(errs) > 0 {
		return nil, errs
	}
	d := &Decoded{}
	var errs field.ErrorList
	switch doc["apiVersion"] {
	case v1alpha1.GroupVersion.String():
		d.spoke = true
		d.Object, d.Warnings, errs = decodeV1alpha1(doc)
		d.restored = hasAnnotation(doc, v1alpha1.V1alpha2FieldsAnnotation)
	case ogx.GroupVersion.String():
		d.Consumed = true
		d.Object, d.paths, d.Warnings, d.PraxisPeer, errs = decodeOGX(doc)
	default:
		d.Object, errs = decodeV1alpha2(doc)
	}
	if len(errs) > 0 {
		return nil, errs
	}
	hub := d.Object
	if hub.Name == "" {
		return nil, field.ErrorList{field.Required(field.NewPath("metadata", "name"), "every LlamaStackDistribution needs a name")}
	}
	v1alpha2.Default(hub)
	return d, nil
}

func checkTypeMeta(doc map[string]any) field.ErrorList {
	apiVersion, _ := doc["apiVersion"].(string)
	kind, _ := doc["kind"].(string)
	if kind == ogx.Kind {
		if apiVersion != ogx.GroupVersion.String() {
			return field.ErrorList{field.NotSupported(field.NewPath("apiVersion"), apiVersion, []string{ogx.GroupVersion.String()})}
		}
		return nil
	}
	if kind != v1alpha2.Kind {
		return field.ErrorList{field.Invalid(field.NewPath("kind"), kind, "expected kind LlamaStackDistribution")}
	}
	if group, version, _ := strings.Cut(apiVersion, "/"); group != Group {
		return field.ErrorList{field.Invalid(field.NewPath("apiVersion"), apiVersion,
			fmt.Sprintf("the API group of LlamaStackDistribution is %s: write apiVersion: %s/%s", Group, Group, servedVersion(version, doc)))}
	}
	if apiVersion != v1alpha1.GroupVersion.String() && apiVersion != v1alpha2.GroupVersion.String() {
		return field.ErrorList{field.NotSupported(field.NewPath("apiVersion"), apiVersion,
			[]string{v1alpha2.GroupVersion.String(), v1alpha1.GroupVersion.String()})}
	}
	return nil
}

// servedVersion is the version to write beside the right group: the one written when llsd
// serves it, else the one the spec's shape is written for (v1alpha1 has spec.server). Objects
// are published under groups of their authors' making (llamastack.ai, llama-stack.io,
// llamastack.rhoai.opendatahub.io), with the operators' versions or versions of their own.
func servedVersion(version string, doc map[string]any) string {
	if version == v1alpha1.GroupVersion.Version || version == v1alpha2.GroupVersion.Version {
		return version
	}
	if spec, _ := doc["spec"].(map[string]any); spec["server"] != nil {
		return v1alpha1.GroupVersion.Version
	}
	return v1alpha2.GroupVersion.Version
}

func decodeV1alpha2(doc map[string]any) (*v1alpha2.LlamaStackDistribution, field.ErrorList) {
	var written field.ErrorList
	if spec, ok := doc["spec"].(map[string]any); ok {
		written = serverShapedProviders(spec)
		expandShorthand(spec)
		written = append(written, v1alpha2.ValidateWritten(spec, field.NewPath("spec"))...)
	}
	obj := &v1alpha2.LlamaStackDistribution{}
	if errs := strictDecode(doc, obj); len(errs) > 0 {
		return nil, append(written, errs...)
	}
	if errs := v1alpha1.CheckHubAnnotations(obj); len(errs) > 0 {
		return nil, append(written, errs...)
	}
	if len(written) > 0 {
		// What the author wrote is held to the other rules too, so one run reports every
		// problem; a field the written spec already reports on is not reported twice.
		reported := map[string]bool{}
		for _, w := range written {
			reported[w.Field] = true
		}
		v1alpha2.Default(obj)
		errs := written
		for _, e := range v1alpha2.Validate(obj) {
			if !reported[e.Field] {
				errs = append(errs, e)
			}
		}
		return nil, errs
	}
	return obj, nil
}

func decodeV1alpha1(doc map[string]any) (*v1alpha2.LlamaStackDistribution, []Warning, field.ErrorList) {
	spoke := &v1alpha1.LlamaStackDistribution{}
	if errs := strictDecode(doc, spoke); len(errs) > 0 {
		return nil, nil, errs
	}
	return convertV1alpha1(spoke)
}

// convertV1alpha1 converts a decoded v1alpha1 object to v1alpha2.
func convertV1alpha1(spoke *v1alpha1.LlamaStackDistribution) (*v1alpha2.LlamaStackDistribution, []Warning, field.ErrorList) {
	v1alpha1.Default(spoke)
	annotation := field.NewPath("metadata", "annotations").Key(v1alpha1.V1alpha2FieldsAnnotation)
	if _, ok := spoke.Annotations[v1alpha1.V1alpha1FieldsAnnotation]; ok {
		return nil, nil, field.ErrorList{field.Forbidden(field.NewPath("metadata", "annotations").Key(v1alpha1.V1alpha1FieldsAnnotation),
			"the conversion webhook writes it on v1alpha2 objects; a v1alpha1 object says its fields itself: remove the annotation")}
	}
	hub := &v1alpha2.LlamaStackDistribution{}
	if err := spoke.ConvertTo(hub); err != nil {
		return nil, nil, field.ErrorList{field.Invalid(annotation, field.OmitValueType{}, err.Error())}
	}
	hub.APIVersion = v1alpha2.GroupVersion.String()
	var warnings []Warning
	if added := v1alpha1.AnnotationRestores(spoke); len(added) > 0 {
		warnings = append(warnings, Warning{Field: annotation.String(), Message: RestoresMessage(added)})
	}
	return hub, warnings, nil
}

// RestoresMessage says what v1alpha1.AnnotationRestores found, and what to do about it.
func RestoresMessage(added []string) string {
	return fmt.Sprintf("sets %s, which the v1alpha1 fields of this object do not show: anyone who may write the object may write "+
		"the annotation, so review what it holds (a provider image is code the server imports), or write the object as %s, "+
		"where every field shows", strings.Join(added, ", "), v1alpha2.GroupVersion)
}

// decodeOGX reads an OGXServer strictly, holds it to the successor's own rules, and converts it.
func decodeOGX(doc map[string]any) (*v1alpha2.LlamaStackDistribution, *pathMap, []Warning, *PraxisPeerDefaults, field.ErrorList) {
	if errs := boundOGXLists(doc["spec"], field.NewPath("spec")); len(errs) > 0 {
		return nil, nil, nil, nil, errs
	}
	var shaped field.ErrorList
	if spec, ok := doc["spec"].(map[string]any); ok {
		shaped = ogxServerShapedProviders(spec)
	}
	o := &ogx.OGXServer{}
	if errs := strictDecode(doc, o); len(errs) > 0 || len(shaped) > 0 {
		return nil, nil, nil, nil, append(shaped, errs...)
	}
	if errs := ogx.Validate(o); len(errs) > 0 {
		return nil, nil, nil, nil, errs
	}
	c := ogxToLLSD(o)
	if len(c.errs) > 0 {
		// What converted is held to llsd's rules too, so one run reports every problem.
		for _, e := range v1alpha2.Check(c.obj) {
			written := *e
			written.Field, written.Detail = c.paths.written(e.Field), wording.Format(e.Detail, c.paths)
			c.errs = append(c.errs, &written)
		}
		return nil, nil, nil, nil, c.errs
	}
	return c.obj, c.paths, c.warnings, c.praxisPeer, nil
}

// maxOGXListItems is the most items a list of an OGXServer may have: four times what the
// longest list of a LlamaStackDistribution takes (64 models), and room for a long env.
const maxOGXListItems = 256

// boundOGXLists refuses a list of an OGXServer's spec longer than maxOGXListItems before
// anything converts it: thousands of providers would only convert into as many errors.
// Provider settings are not walked: their bound is their size (spec.limits).
func boundOGXLists(v any, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	switch t := v.(type) {
	case []any:
		if len(t) > maxOGXListItems {
			return field.ErrorList{field.TooMany(path, len(t), maxOGXListItems)}
		}
		for i, item := range t {
			errs = append(errs, boundOGXLists(item, path.Index(i))...)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if k != "settings" {
				errs = append(errs, boundOGXLists(t[k], path.Child(k))...)
			}
		}
	}
	return errs
}

func hasAnnotation(doc map[string]any, key string) bool {
	annotations, _ := mapValue(doc, "metadata", "annotations")
	_, has := annotations[key]
	return has
}

// expandShorthand rewrites the authoring shorthand into the canonical form, in place.
func expandShorthand(spec map[string]any) {
	if providers, ok := spec["providers"].(map[string]any); ok {
		for api, list := range providers {
			if single, ok := list.(map[string]any); ok {
				providers[api] = []any{single}
			}
		}
	}
	if resources, ok := spec["resources"].(map[string]any); ok {
		if models, ok := resources["models"].([]any); ok {
			for i, m := range models {
				if name, ok := m.(string); ok {
					models[i] = map[string]any{"name": name}
				}
			}
		}
	}
	if networking, ok := spec["networking"].(map[string]any); ok {
		if enabled, ok := networking["expose"].(bool); ok {
			networking["expose"] = map[string]any{"enabled": enabled}
		}
	}
}

var (
	unknownField       = lazyre.New(`^unknown field "(.*)"$`)
	providerEntryField = lazyre.New(`^spec\.providers\.[a-zA-Z]+\[\d+\]\.[^.]+$`)
	// ogxProviderGroupField is an unknown provider in an OGXServer's remote or inline group.
	ogxProviderGroupField = lazyre.New(`^spec\.providers\.[a-zA-Z]+\.(remote|inline)\.([a-zA-Z0-9-]+)$`)
)

// PrepareDecode does ahead what a process's first decode of a v1alpha2 LlamaStackDistribution
// starts with: sigs.k8s.io/json reflecting over the type and every type it reaches (the corev1
// types of the workload among them) before it reads a field. A short-lived process that
// decodes one object (the KRM function under kustomize or kpt) runs it in the background while
// it reads its input, which takes about 6% off it.
func PrepareDecode() {
	_, _ = sigsjson.UnmarshalStrict([]byte(`{}`), &v1alpha2.LlamaStackDistribution{})
}

// strictDecode decodes doc into obj, reporting unknown and duplicate fields and type
// mismatches with their paths.
func strictDecode(doc map[string]any, obj any) field.ErrorList {
	data, err := json.Marshal(doc)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	strictErrs, err := sigsjson.UnmarshalStrict(data, obj, sigsjson.DisallowDuplicateFields, sigsjson.DisallowUnknownFields)
	if err != nil {
		if errs := valueErrors(doc, reflect.TypeOf(obj), nil); len(errs) > 0 {
			return errs
		}
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			return field.ErrorList{field.Invalid(fieldString(typeErr.Field), fmt.Sprint(typeErr.Value),
				fmt.Sprintf("must be of type %s", jsonType(typeErr.Type.Kind().String())))}
		}
		return field.ErrorList{field.Invalid(field.NewPath(""), "", err.Error())}
	}
	var errs field.ErrorList
	for _, se := range strictErrs {
		if m := unknownField().FindStringSubmatch(se.Error()); m != nil {
			errs = append(errs, &field.Error{Type: field.ErrorTypeNotSupported, Field: m[1], BadValue: field.OmitValueType{},
				Detail: unknownFieldHint(m[1], obj, doc)})
			continue
		}
		errs = append(errs, field.Invalid(field.NewPath(""), "", se.Error()))
	}
	return errs
}

// v1alpha1Fields are the spec fields of v1alpha1 that a v1alpha2 object may carry by mistake,
// and where v1alpha2 keeps what they held.
var v1alpha1Fields = map[string]string{
	"spec.server":   "spec.distribution, spec.networking and spec.workload",
	"spec.replicas": "spec.workload.replicas",
	"spec.network":  "spec.networking",
}

// unknownFieldHint explains an unknown field: the field meant, when one is close; the v1alpha2
// place of a v1alpha1 field; where provider config keys go.
func unknownFieldHint(path string, obj any, doc map[string]any) string {
	parent, name := splitFieldPath(path)
	valid := fieldNames(reflect.TypeOf(obj), parent)
	// The field of that very name a level or more down is what was meant before a field here of
	// a similar name: secretRefs: {user: {name, key}} lacks secretKeyRef, it is no typo of it.
	if deeper := deeperField(reflect.TypeOf(obj), parent, name); deeper != "" {
		// written with the path's own indexes: spec.providers.vectorIo[0].secretRefs.user.secretKeyRef.key
		if at := strings.LastIndex(path, "."); at >= 0 {
			deeper = path[:at] + strings.TrimPrefix(deeper, strings.Join(parent, "."))
		}
		return "unknown field " + strconv.Quote(name) + " (did you mean " + deeper + "?)"
	}
	meant := suggest.DidYouMean(name, valid)
	hint := "unknown field " + strconv.Quote(name) + meant
	if where, ok := v1alpha1Fields[path]; ok && doc["apiVersion"] == v1alpha2.GroupVersion.String() {
		hint += fmt.Sprintf(": %s is a field of llamastack.io/v1alpha1; in v1alpha2 its content is in %s", path, where)
		if server, ok := mapValue(doc, "spec", "server"); ok {
			var keep []string
			for _, k := range slices.Sorted(maps.Keys(server)) {
				if slices.Contains(fieldNames(reflect.TypeOf(obj), []string{"spec"}), k) {
					keep = append(keep, "spec."+k)
				}
			}
			if len(keep) > 0 {
				hint += fmt.Sprintf(" (write %s: one level up)", strings.Join(keep, ", "))
			}
		}
		return hint
	}
	if doc["apiVersion"] == v1alpha1.GroupVersion.String() && len(parent) == 1 &&
		slices.Contains(fieldNames(reflect.TypeFor[v1alpha2.LlamaStackDistribution](), parent), name) {
		return hint + fmt.Sprintf(": %s is a field of llamastack.io/v1alpha2, not v1alpha1: to use it, write the object in v1alpha2 "+
			"(llsd render prints a v1alpha1 object's v1alpha2 form)", name)
	}
	if hubPath := deeperField(reflect.TypeFor[v1alpha2.LlamaStackDistribution](), parent, name); hubPath != "" && doc["apiVersion"] == v1alpha1.GroupVersion.String() {
		return hint + fmt.Sprintf(": llamastack.io/v1alpha2 has it, at %s; v1alpha1 does not: to use it, write the object in v1alpha2 "+
			"(llsd render prints a v1alpha1 object's v1alpha2 form)", hubPath)
	}
	if m := ogxProviderGroupField().FindStringSubmatch(path); m != nil && doc["apiVersion"] == ogx.GroupVersion.String() && meant == "" {
		return hint + fmt.Sprintf(": the typed providers here are %s; any other provider type goes in %s.custom: [{type: %s::%s, settings: {...}, secretRefs: {...}}]",
			strings.Join(slices.DeleteFunc(valid, func(s string) bool { return s == "custom" }), ", "), strings.Join(parent, "."), m[1], m[2])
	}
	if providerEntryField().MatchString(path) {
		return hint + ": a provider has id, provider, endpoint, apiKey, secretRefs and settings; put other config keys under settings and credentials under secretRefs"
	}
	if len(valid) > 0 {
		return hint + ": the fields here are " + strings.Join(valid, ", ")
	}
	return hint
}

// deeperField is the one path below parent, at most three levels down, whose last field is
// called name: "spec.image" in a v1alpha1 object is spec.server.distribution.image. Empty when
// there is none or more than one at the nearest level.
func deeperField(t reflect.Type, parent []string, name string) string {
	t, ok := typeAt(t, parent)
	if !ok {
		return ""
	}
	type node struct {
		t    reflect.Type
		path []string
	}
	level := []node{{t, parent}}
	for range 3 {
		var next []node
		var found []string
		for _, n := range level {
			for _, child := range fieldNames(n.t, nil) {
				f, _ := jsonField(n.t, child)
				ct := elem(f.Type)
				path := append(slices.Clone(n.path), child)
				if child == name && len(n.path) > len(parent) {
					found = append(found, strings.Join(path, "."))
				}
				// not into Kubernetes' own types: a Volume's fields are not what a typo meant
				if ct.Kind() == reflect.Struct && strings.HasPrefix(ct.PkgPath(), apiPackages) {
					next = append(next, node{ct, path})
				}
			}
		}
		if len(found) == 1 {
			return found[0]
		}
		if len(found) > 1 {
			return ""
		}
		level = next
	}
	return ""
}

// apiPackages is the import path prefix of llsd's API types.
var apiPackages = path.Dir(reflect.TypeFor[v1alpha2.LlamaStackDistribution]().PkgPath())

// splitFieldPath splits "spec.networking.tls.caBundle.configMapKey" into the parent's
// segments (indexes dropped) and the last name.
func splitFieldPath(path string) ([]string, string) {
	parts := strings.Split(indexes().ReplaceAllString(path, ""), ".")
	return parts[:len(parts)-1], parts[len(parts)-1]
}

var indexes = lazyre.New(`\[[^]]*\]`)

// fieldNames lists the JSON field names of the struct at path in t, following pointers,
// slices and maps.
func fieldNames(t reflect.Type, path []string) []string {
	t, ok := typeAt(t, path)
	if !ok || t.Kind() != reflect.Struct {
		return nil
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case f.Anonymous && name == "":
			names = append(names, fieldNames(f.Type, nil)...)
		case name != "" && name != "-":
			names = append(names, name)
		}
	}
	return names
}

func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	if t.Kind() != reflect.Struct {
		return reflect.StructField{}, false
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name {
			return f, true
		}
		if f.Anonymous && tag == "" {
			if inner, ok := jsonField(elem(f.Type), name); ok {
				return inner, true
			}
		}
	}
	return reflect.StructField{}, false
}

// typeAt is the type at a decoder's field path in t (spec.storage.backends.pg.host): fields by
// JSON name, a map's key skipped, pointers, slices and maps followed.
func typeAt(t reflect.Type, path []string) (reflect.Type, bool) {
	key := isMap(t)
	t = elem(t)
	for _, seg := range path {
		if key { // the segment is a key of the map: its value has the type
			key = false
			continue
		}
		f, ok := jsonField(t, seg)
		if !ok {
			return nil, false
		}
		key, t = isMap(f.Type), elem(f.Type)
	}
	return t, true
}

// isMap reports whether t, behind pointers and slices, is a map.
func isMap(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t.Kind() == reflect.Map
}

// elem follows pointers, slices and maps to the type they hold.
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t
}

func mapValue(doc map[string]any, keys ...string) (map[string]any, bool) {
	cur := doc
	for _, k := range keys {
		next, ok := cur[k].(map[string]any)
		if !ok {
			return nil, false
		}
		cur = next
	}
	return cur, true
}

func fieldString(path string) *field.Path {
	parts := strings.Split(path, ".")
	return field.NewPath(parts[0], parts[1:]...)
}

func jsonType(goKind string) string {
	switch goKind {
	case "struct", "map":
		return "object"
	case "slice":
		return "array"
	case "int32", "int64", "int":
		return "integer"
	}
	return goKind
}
