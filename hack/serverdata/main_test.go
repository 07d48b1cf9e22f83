// SPDX-License-Identifier: Apache-2.0

package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The exporter loads server source written for Python 3.12 on an older Python: the rewritten
// PEP 695 forms compile and mean the same (generic classes subscript, generic functions run,
// type aliases name their type), at module and at class level.
func TestExporterReadsPython312TypeParameters(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	const source = `
from typing import Any
from pydantic import BaseModel

type JobID = str

class ExtraBodyField[T]:
    def __init__(self, value: T) -> None:
        self.value = value

def first[T: BaseModel](items: list[T]) -> T:
    return items[0]

class Outer:
    async def run[U](self, item: U) -> U:
        return item
`
	program := `
import sys, types
sys.path.insert(0, "hack/serverdata")
import export
module = types.ModuleType("m")
exec(compile(export.rewrite_pep695(sys.stdin.read()), "m.py", "exec"), module.__dict__)
assert module.JobID is str
assert module.ExtraBodyField[int](3).value == 3
assert module.first([1, 2]) == 1
import asyncio
assert asyncio.run(module.Outer().run("x")) == "x"
print("ok")
`
	cmd := exec.Command(python, "-c", program)
	cmd.Dir = "../.."
	cmd.Stdin = strings.NewReader(source)
	out, err := cmd.CombinedOutput()
	if strings.Contains(string(out), "No module named 'pydantic'") {
		t.Skip("python3 has no pydantic")
	}
	require.NoError(t, err, string(out))
	assert.Equal(t, "ok\n", string(out))
}

func TestRunConfigsAreTheServersConfigFiles(t *testing.T) {
	for name, want := range map[string]bool{
		"config.yaml": true, "run.yaml": true, "run-with-postgres-store.yaml": true,
		"build.yaml": false, "doc_template.md": false, "__init__.py": false,
	} {
		assert.Equal(t, want, isRunConfig(name), name)
	}
}
