// SPDX-License-Identifier: Apache-2.0

package wording_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/llamastack/llsd/pkg/api/wording"
)

// otherAPI words references as an API with other field names, other API names and its own
// fix for the shared volume would.
type otherAPI struct{}

func (otherAPI) Field(path string) string {
	return strings.Replace(path, "spec.workload", "spec.server", 1)
}
func (otherAPI) API(name string) string { return strings.ToUpper(name) }
func (otherAPI) Fix(id wording.FixID) (string, bool) {
	if id == wording.FixSharedVolume {
		return "ask for a shared volume (" + wording.Field("spec.workload.storage") + ")", true
	}
	return "", false
}

func TestFormat(t *testing.T) {
	for _, tc := range []struct{ reason, message, plain, other string }{
		{reason: "a field", message: "set " + wording.Field("spec.workload.replicas") + ": 1",
			plain: "set spec.workload.replicas: 1", other: "set spec.server.replicas: 1"},
		{reason: "an API", message: "keep " + wording.API("vectorIo"), plain: "keep vectorIo", other: "keep VECTORIO"},
		{reason: "a fix the API words its own way, its words referring too",
			message: "run one replica, or " + wording.Fix(wording.FixSharedVolume, "set "+wording.Field("spec.workload.storage.accessModes")+": [ReadWriteMany]"),
			plain:   "run one replica, or set spec.workload.storage.accessModes: [ReadWriteMany]",
			other:   "run one replica, or ask for a shared volume (spec.server.storage)"},
		{reason: "a fix the API keeps: its text is worded",
			message: wording.Fix(wording.FixNoMonitoring, "remove "+wording.Field("spec.workload.monitoring")),
			plain:   "remove spec.workload.monitoring", other: "remove spec.server.monitoring"},
		{reason: "a path that is no reference is text (another object's field)",
			message: "raise RenderOptions spec.workload.limits", plain: "raise RenderOptions spec.workload.limits",
			other: "raise RenderOptions spec.workload.limits"},
		{reason: "an unpaired mark is text", message: "a ⟦ b", plain: "a ⟦ b", other: "a ⟦ b"},
		{reason: "a fix without its end runs to the end", message: "⟦fix:shared-volume⟧x " + wording.Field("spec.workload"),
			plain: "x spec.workload", other: "ask for a shared volume (spec.server.storage)"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			assert.Equal(t, tc.plain, wording.Plain(tc.message), "in v1alpha2's words")
			assert.Equal(t, tc.other, wording.Format(tc.message, otherAPI{}), "in another API's words")
			assert.False(t, wording.Marked(wording.Plain(tc.message)), "nothing left to word")
		})
	}
}

func TestMarked(t *testing.T) {
	assert.True(t, wording.Marked("set "+wording.Field("spec.telemetry")))
	assert.True(t, wording.Marked(wording.API("files")))
	assert.False(t, wording.Marked("set spec.telemetry"))
	assert.False(t, wording.Marked("a ⟦ alone"))
	assert.False(t, wording.Marked("⟧ before ⟦"))
}

// A check makes its message in references; the edge that shows it words them for the reader.
func ExampleFormat() {
	message := "set " + wording.Field("spec.workload.storage.accessModes") + " or keep " + wording.API("vectorIo")
	fmt.Println(wording.Plain(message))
	fmt.Println(wording.Format(message, otherAPI{}))
	// Output:
	// set spec.workload.storage.accessModes or keep vectorIo
	// set spec.server.storage.accessModes or keep VECTORIO
}
