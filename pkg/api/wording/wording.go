// SPDX-License-Identifier: Apache-2.0

// Package wording lets a message name the fields, APIs and fixes of the object it is about
// without knowing how that object was written. A LlamaStackDistribution is read in three
// author APIs (llsd.io v1alpha2, its v1alpha1, and the successor's OGXServer); checks run on
// the canonical v1alpha2 form, so a message is made in v1alpha2 terms, but its reader wrote
// the object in one of the three. A message therefore carries references, and the edge that
// shows it (a KRM result, an error of pkg/api) words them once, in the reader's API:
//
//	"set " + wording.Field("spec.telemetry") + ": {endpoint: http://collector:4318}"
//
// reads "set spec.telemetry: ..." to a v1alpha2 author (Plain) and names the field its
// author wrote to one of the others (Format with that API's Words). A fix that names fields
// some API does not have is marked with Fix, so that API words it its own way, by the fix's
// identifier rather than by its text.
//
// Nothing rewrites a message's text after it is made: Format only replaces the references
// it was made with.
package wording

import "strings"

// The marks around a reference: characters no field, API or fix is named with.
const (
	open     = "⟦"
	shut     = "⟧"
	apiMark  = "api:"
	fixMark  = "fix:"
	fixClose = open + "/fix" + shut
)

// Field refers to a field of the object a message is about by its v1alpha2 path
// (spec.workload.storage).
func Field(path string) string { return open + path + shut }

// API refers to one of the server's APIs by its v1alpha2 name (vectorIo).
func API(name string) string { return open + apiMark + name + shut }

// Fix marks text (which may refer to fields) as the fix named id: an author API whose
// Words know id says it in its own words instead.
func Fix(id FixID, text string) string { return open + fixMark + string(id) + shut + text + fixClose }

// FixID names a fix that an author API says otherwise.
type FixID string

// The fixes an author API words otherwise: each fix names fields, or a way to set a value,
// that some author API does not have.
const (
	// FixSharedVolume: a volume of access mode ReadWriteMany for replicas on several nodes.
	FixSharedVolume FixID = "shared-volume"
	// FixNoMonitoring: turn the Prometheus metrics port off (spec.monitoring).
	FixNoMonitoring FixID = "no-monitoring"
	// FixAuthenticate: give the server an authentication provider (spec.authentication).
	FixAuthenticate FixID = "authenticate"
)

// FixAddProvider is the fix "add a provider of type remote::provider to the server API api,
// with its endpoint", which each author API writes in its own fields.
func FixAddProvider(api, provider string) FixID { return FixID(addProviderMark + api + ":" + provider) }

// AddProviderOf reads the API and provider of a FixAddProvider id.
func AddProviderOf(id FixID) (api, provider string, ok bool) {
	rest, ok := strings.CutPrefix(string(id), addProviderMark)
	if !ok {
		return "", "", false
	}
	api, provider, ok = strings.Cut(rest, ":")
	return api, provider, ok
}

const addProviderMark = "add-provider:"

// Words says references in the terms of one author API.
type Words interface {
	// Field is the field written where the v1alpha2 path is.
	Field(path string) string
	// API is the API's name.
	API(name string) string
	// Fix is the API's own wording of a fix, or false to keep the message's.
	Fix(id FixID) (string, bool)
}

// Format is message with each reference worded by words.
func Format(message string, words Words) string {
	if !strings.Contains(message, open) {
		return message
	}
	var b strings.Builder
	b.Grow(len(message))
	rest := message
	for {
		start := strings.Index(rest, open)
		if start < 0 {
			b.WriteString(rest)
			return b.String()
		}
		end := strings.Index(rest[start:], shut)
		if end < 0 { // not a reference: an unpaired mark is text
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:start])
		ref := rest[start+len(open) : start+end]
		rest = rest[start+end+len(shut):]
		switch {
		case strings.HasPrefix(ref, apiMark):
			b.WriteString(words.API(strings.TrimPrefix(ref, apiMark)))
		case strings.HasPrefix(ref, fixMark):
			text, after, _ := strings.Cut(rest, fixClose)
			rest = after
			if own, ok := words.Fix(FixID(strings.TrimPrefix(ref, fixMark))); ok {
				text = own
			}
			b.WriteString(Format(text, words))
		default:
			b.WriteString(words.Field(ref))
		}
	}
}

// Plain is message in llsd's own terms, those of v1alpha2: the reading of every message that
// is not about an object written in another API.
func Plain(message string) string { return Format(message, v1alpha2Words{}) }

// Marked reports whether message still holds a reference, for tests that every edge words
// what it shows.
func Marked(message string) bool {
	start := strings.Index(message, open)
	return start >= 0 && strings.Contains(message[start:], shut)
}

// v1alpha2Words are the terms the references are made in.
type v1alpha2Words struct{}

func (v1alpha2Words) Field(path string) string { return path }
func (v1alpha2Words) API(name string) string   { return name }
func (v1alpha2Words) Fix(FixID) (string, bool) { return "", false }
