// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The base configs are embedded twice: as YAML, the form people review and messages name,
// and as this JSON form, which reads about eight times faster (a KRM function starts once
// per call, and reading its base config was a tenth of it). Numbers keep their type: a
// float is written with a dot or an exponent (60.0, not 60), so that TreeFromJSON gives
// back int64 and float64 where UnmarshalMap gave them. hack/importbase writes both forms; a
// test proves them the same tree.

// TreeJSON writes a plain tree as JSON that TreeFromJSON reads back as the same tree,
// with sorted keys and one value per line of the outer mapping.
func TreeJSON(tree any) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeJSON(&buf, tree); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func writeJSON(buf *bytes.Buffer, v any) error {
	switch t := v.(type) {
	case map[string]any:
		buf.WriteByte('{')
		for i, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range t {
				if !yield(k) {
					return
				}
			}
		}) {
			if i > 0 {
				buf.WriteByte(',')
			}
			key, _ := json.Marshal(k)
			buf.Write(key)
			buf.WriteByte(':')
			if err := writeJSON(buf, t[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	case []any:
		buf.WriteByte('[')
		for i, x := range t {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeJSON(buf, x); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case string:
		s, _ := json.Marshal(t)
		buf.Write(s)
	case int64:
		buf.WriteString(strconv.FormatInt(t, 10))
	case float64:
		s := strconv.FormatFloat(t, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEnN") { // N: NaN, Inf cannot be JSON
			s += ".0"
		}
		if strings.ContainsAny(s, "nN") {
			return fmt.Errorf("%v cannot be written as JSON", t)
		}
		buf.WriteString(s)
	case bool:
		buf.WriteString(strconv.FormatBool(t))
	case nil:
		buf.WriteString("null")
	default:
		return fmt.Errorf("unsupported value %T", v)
	}
	return nil
}

// TreeFromJSON reads TreeJSON's JSON (a mapping) into a plain tree.
func TreeFromJSON(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	out, err := numbersIn(doc)
	if err != nil {
		return nil, err
	}
	return out.(map[string]any), nil
}

// numbersIn turns json.Numbers into int64 (no dot or exponent) or float64, in place.
func numbersIn(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			n, err := numbersIn(x)
			if err != nil {
				return nil, err
			}
			t[k] = n
		}
	case []any:
		for i, x := range t {
			n, err := numbersIn(x)
			if err != nil {
				return nil, err
			}
			t[i] = n
		}
	case json.Number:
		if !strings.ContainsAny(string(t), ".eE") {
			return strconv.ParseInt(string(t), 10, 64)
		}
		return strconv.ParseFloat(string(t), 64)
	}
	return v, nil
}
