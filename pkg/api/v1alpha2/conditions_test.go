// SPDX-License-Identifier: Apache-2.0

package v1alpha2

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// docs/controller.md is where a user reads what a condition's reason means: every condition
// type and reason the controller can write is named there.
func TestTheControllerGuideNamesEveryCondition(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "controller.md"))
	require.NoError(t, err)
	file, err := parser.ParseFile(token.NewFileSet(), "conditions.go", nil, 0)
	require.NoError(t, err)
	named := 0
	ast.Inspect(file, func(n ast.Node) bool {
		spec, ok := n.(*ast.ValueSpec)
		if !ok || len(spec.Names) != 1 || len(spec.Values) != 1 {
			return true
		}
		name := spec.Names[0].Name
		lit, ok := spec.Values[0].(*ast.BasicLit)
		if !ok || !strings.HasPrefix(name, "Reason") && !strings.HasPrefix(name, "Condition") {
			return true
		}
		value, err := strconv.Unquote(lit.Value)
		require.NoError(t, err)
		named++
		assert.Contains(t, string(doc), "`"+value+"`", "docs/controller.md does not say what %s (%s) means", value, name)
		return true
	})
	assert.Greater(t, named, 25, "conditions.go's condition types and reasons were read")
}
