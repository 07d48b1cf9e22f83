// SPDX-License-Identifier: Apache-2.0

package configyaml

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A substituted value is what _convert_string_to_proper_type makes of it: nil, a boolean, an
// integer, a decimal (Python's int() and float()), else the string as it is.
func TestSubstituted(t *testing.T) {
	for _, tc := range []struct {
		value string
		want  any
	}{
		{"", nil},
		{"True", true}, {"FALSE", false}, {" true", " true"}, // lower() == "true", without a strip
		{"123456", int64(123456)}, {" 42\n", int64(42)}, {"-7", int64(-7)}, {"1_000", int64(1000)},
		{"1.5", 1.5}, {"1e3", 1000.0}, {"Infinity", math.Inf(1)},
		{"s3cret", "s3cret"}, {"0x10", "0x10"}, {"12ab", "12ab"}, {"yes", "yes"}, {"sk-123", "sk-123"},
		{"_12", "_12"}, {"1__0", "1__0"}, {"12_", "12_"},
	} {
		assert.Equal(t, tc.want, Substituted(tc.value), "%q", tc.value)
	}
	assert.True(t, math.IsNaN(Substituted("nan").(float64)), "nan is a decimal")
}
