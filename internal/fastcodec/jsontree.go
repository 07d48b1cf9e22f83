// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"encoding/json"
	"errors"
	"unicode/utf8"
)

// readJSONTree reads JSON as encoding/json reads it into an any with UseNumber: objects as
// map[string]any (the last of a repeated key wins), arrays as []any, numbers as json.Number.
// It is the part of the nodes path that reads what json.Marshal wrote: encoding/json's
// reflective decoder was half of turning a rendered object into nodes. A string with an
// escape or a byte outside ASCII is read by encoding/json itself, so every string means what
// it means there; TestReadJSONTreeMatchesEncodingJSON and FuzzReadJSONTree hold the rest to it.
func readJSONTree(data []byte) (any, error) {
	r := jsonReader{data: data}
	v, err := r.value(0)
	if err != nil {
		return nil, err
	}
	r.space()
	if r.at < len(r.data) {
		return nil, errJSON
	}
	return v, nil
}

var errJSON = errors.New("not JSON that json.Marshal writes")

// maxJSONDepth is encoding/json's own nesting limit.
const maxJSONDepth = 10000

type jsonReader struct {
	data []byte
	at   int
}

func (r *jsonReader) space() {
	for r.at < len(r.data) {
		switch r.data[r.at] {
		case ' ', '\t', '\n', '\r':
			r.at++
		default:
			return
		}
	}
}

func (r *jsonReader) value(depth int) (any, error) {
	if depth > maxJSONDepth {
		return nil, errJSON
	}
	r.space()
	if r.at >= len(r.data) {
		return nil, errJSON
	}
	switch c := r.data[r.at]; {
	case c == '{':
		return r.object(depth)
	case c == '[':
		return r.array(depth)
	case c == '"':
		return r.string()
	case c == '-' || (c >= '0' && c <= '9'):
		return r.number()
	}
	for _, word := range []struct {
		text  string
		value any
	}{{"true", true}, {"false", false}, {"null", nil}} {
		if len(r.data)-r.at >= len(word.text) && string(r.data[r.at:r.at+len(word.text)]) == word.text {
			r.at += len(word.text)
			return word.value, nil
		}
	}
	return nil, errJSON
}

func (r *jsonReader) object(depth int) (any, error) {
	r.at++ // {
	m := map[string]any{}
	r.space()
	if r.at < len(r.data) && r.data[r.at] == '}' {
		r.at++
		return m, nil
	}
	for {
		r.space()
		if r.at >= len(r.data) || r.data[r.at] != '"' {
			return nil, errJSON
		}
		key, err := r.string()
		if err != nil {
			return nil, err
		}
		r.space()
		if r.at >= len(r.data) || r.data[r.at] != ':' {
			return nil, errJSON
		}
		r.at++
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		m[key.(string)] = v
		if done, err := r.next('}'); err != nil || done {
			return m, err
		}
	}
}

func (r *jsonReader) array(depth int) (any, error) {
	r.at++ // [
	list := []any{}
	r.space()
	if r.at < len(r.data) && r.data[r.at] == ']' {
		r.at++
		return list, nil
	}
	for {
		v, err := r.value(depth + 1)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		if done, err := r.next(']'); err != nil || done {
			return list, err
		}
	}
}

// next reads the comma between two members, or the end of their object or array.
func (r *jsonReader) next(end byte) (bool, error) {
	r.space()
	if r.at >= len(r.data) {
		return false, errJSON
	}
	switch r.data[r.at] {
	case ',':
		r.at++
		return false, nil
	case end:
		r.at++
		return true, nil
	}
	return false, errJSON
}

// string reads a string: plain ASCII without escapes directly, any other through
// encoding/json.
func (r *jsonReader) string() (any, error) {
	start := r.at
	plain := true
	for r.at++; r.at < len(r.data); r.at++ {
		switch c := r.data[r.at]; {
		case c == '"':
			r.at++
			if plain {
				return string(r.data[start+1 : r.at-1]), nil
			}
			var s string
			if err := json.Unmarshal(r.data[start:r.at], &s); err != nil {
				return nil, err
			}
			return s, nil
		case c == '\\':
			plain = false
			r.at++ // the escaped character, which may be a quote
		case c < 0x20:
			return nil, errJSON
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return nil, errJSON
}

// number reads a number as JSON writes one (-0.5e3), as a json.Number of its text.
func (r *jsonReader) number() (any, error) {
	start := r.at
	if r.data[r.at] == '-' {
		r.at++
	}
	switch {
	case r.at < len(r.data) && r.data[r.at] == '0':
		r.at++
	case r.digits() == 0:
		return nil, errJSON
	}
	if r.at < len(r.data) && r.data[r.at] == '.' {
		r.at++
		if r.digits() == 0 {
			return nil, errJSON
		}
	}
	if r.at < len(r.data) && (r.data[r.at] == 'e' || r.data[r.at] == 'E') {
		r.at++
		if r.at < len(r.data) && (r.data[r.at] == '+' || r.data[r.at] == '-') {
			r.at++
		}
		if r.digits() == 0 {
			return nil, errJSON
		}
	}
	return json.Number(r.data[start:r.at]), nil
}

func (r *jsonReader) digits() int {
	n := 0
	for r.at < len(r.data) && r.data[r.at] >= '0' && r.data[r.at] <= '9' {
		r.at++
		n++
	}
	return n
}
