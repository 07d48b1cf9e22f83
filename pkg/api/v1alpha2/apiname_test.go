// SPDX-License-Identifier: Apache-2.0

package v1alpha2_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Every API name has one server spelling and comes back from it, and the CRD's enum is the list.
func TestAPINamesAreOneVocabulary(t *testing.T) {
	for _, tc := range []struct{ spec, server string }{
		{spec: "vectorIo", server: "vector_io"}, {spec: "toolRuntime", server: "tool_runtime"}, {spec: "fileProcessors", server: "file_processors"},
		{spec: "postTraining", server: "post_training"}, {spec: "datasetio", server: "datasetio"}, {spec: "inference", server: "inference"},
	} {
		assert.Equal(t, tc.server, v1alpha2.APIName(tc.spec).ServerName())
		assert.Equal(t, v1alpha2.APIName(tc.spec), v1alpha2.APINameOf(tc.server))
	}
	for _, name := range v1alpha2.AllAPINames {
		assert.Equal(t, name, v1alpha2.APINameOf(name.ServerName()), "round trip of %s", name)
	}

	source, err := os.ReadFile("llamastackdistribution_types.go")
	require.NoError(t, err)
	m := regexp.MustCompile(`(?m)^// \+kubebuilder:validation:Enum=(.*)\ntype APIName string`).FindSubmatch(source)
	require.NotNil(t, m, "the APIName enum marker")
	var listed []string
	for _, n := range v1alpha2.AllAPINames {
		listed = append(listed, string(n))
	}
	assert.Equal(t, strings.Join(listed, ";"), string(m[1]), "the CRD's enum of APIName is AllAPINames")
}
