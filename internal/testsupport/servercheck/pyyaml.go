// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
)

// tagFunction turns what yaml.safe_load reads into JSON in which ints and floats are tagged,
// so that 60 and 60.0 (and dates, which JSON cannot hold) stay distinguishable.
const tagFunction = `
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
`

// MissingPyYAML explains why python3 with PyYAML cannot run, or is empty. It is asked once.
var MissingPyYAML = sync.OnceValue(func() string {
	if err := exec.Command("python3", "-c", "import yaml").Run(); err != nil {
		return "python3 with PyYAML is not available (apt-get install python3-yaml): " + err.Error()
	}
	return ""
})

// workerScript reads documents, each after a line with its length in bytes, and answers each
// with one JSON line: {"ok": the tagged tree} or {"error": why safe_load refused it}.
const workerScript = tagFunction + `
inp = sys.stdin.buffer
while True:
    line = inp.readline()
    if not line:
        break
    data = inp.read(int(line))
    try:
        answer = {"ok": tag(yaml.safe_load(data))}
    except Exception as e:
        answer = {"error": "%s: %s" % (type(e).__name__, e)}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
`

// pyYAML is one python3 that reads every document of a test process, in turn: starting one per
// document cost minutes over the goldens. It ends when the test process closes its stdin.
type pyYAML struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
	err error
}

var worker = sync.OnceValue(func() *pyYAML {
	w := &pyYAML{}
	cmd := exec.Command("python3", "-c", workerScript)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err == nil {
		var out io.ReadCloser
		if out, err = cmd.StdoutPipe(); err == nil {
			w.in, w.out = in, bufio.NewReader(out)
			err = cmd.Start()
		}
	}
	w.err = err
	return w
})

// PyYAMLRead returns what PyYAML's safe_load (the server's parser) reads from data, in the
// tagged form of Tagged.
func PyYAMLRead(data []byte) (any, error) {
	w := worker()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return nil, fmt.Errorf("python3 yaml.safe_load: %w", w.err)
	}
	if _, err := fmt.Fprintf(w.in, "%d\n%s", len(data), data); err != nil {
		w.err = err
		return nil, fmt.Errorf("python3 yaml.safe_load: %w", err)
	}
	line, err := w.out.ReadBytes('\n')
	if err != nil {
		w.err = err
		return nil, fmt.Errorf("python3 yaml.safe_load: %w", err)
	}
	var answer struct {
		OK    any    `json:"ok"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(line, &answer); err != nil {
		return nil, err
	}
	if answer.Error != "" {
		return nil, fmt.Errorf("python3 yaml.safe_load: %s", answer.Error)
	}
	return answer.OK, nil
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
