// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
)

// tagScript prints what yaml.safe_load reads, as JSON in which ints and floats are tagged,
// so that 60 and 60.0 (and dates, which JSON cannot hold) stay distinguishable.
const tagScript = `
import json, sys, yaml
def tag(v):
    if isinstance(v, bool) or v is None or isinstance(v, str):
        return v
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, float):
        return {"float": repr(v)}
    if isinstance(v, dict):
        return {k: tag(x) for k, x in v.items()}
    if isinstance(v, list):
        return [tag(x) for x in v]
    return {"other": type(v).__name__}
json.dump(tag(yaml.safe_load(sys.stdin)), sys.stdout)
`

// MissingPyYAML explains why python3 with PyYAML cannot run, or is empty.
func MissingPyYAML() string {
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		return "python3 with PyYAML is not available (apt-get install python3-yaml): " + err.Error()
	}
	return ""
}

// PyYAMLRead returns what PyYAML's safe_load (the server's parser) reads from data, in the
// tagged form of Tagged.
func PyYAMLRead(data []byte) (any, error) {
	cmd := exec.Command("python3", "-c", tagScript)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("python3 yaml.safe_load: %w: %s", err, stderr.String())
	}
	var tree any
	if err := json.Unmarshal(out, &tree); err != nil {
		return nil, err
	}
	return tree, nil
}

// Tagged converts a plain tree to the form PyYAMLRead returns.
func Tagged(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = Tagged(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = Tagged(x)
		}
		return out
	case int64:
		return map[string]any{"int": strconv.FormatInt(t, 10)}
	case int:
		return map[string]any{"int": strconv.Itoa(t)}
	case float64:
		return map[string]any{"float": pythonRepr(t)}
	}
	return v
}

// pythonRepr is Python's repr of a float for the values configs hold.
func pythonRepr(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if _, err := strconv.ParseInt(s, 10, 64); err == nil {
		return s + ".0"
	}
	return s
}
