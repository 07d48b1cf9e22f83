// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"encoding/json"
	"errors"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonReader reads the scalars of JSON as encoding/json reads them into an any with UseNumber:
// strings with their escapes decoded, numbers as json.Number, true, false and null. Objects and
// arrays are its users' (nodeReader reads them into nodes). TestKubeObjectFromJSONMatchesEncodingJSON
// and FuzzKubeObjectFromJSON hold it to encoding/json.
type jsonReader struct {
	data []byte
	at   int
}

var errJSON = errors.New("not JSON that json.Marshal writes")

// maxJSONDepth is encoding/json's own nesting limit.
const maxJSONDepth = 10000

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

// scalar reads the number, true, false or null at the reader's place (after space); a
// string is text's.
func (r *jsonReader) scalar() (any, error) {
	if c := r.data[r.at]; c == '-' || (c >= '0' && c <= '9') {
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

// text reads a string as encoding/json does: escapes decoded (a lone surrogate, and a byte
// that is no UTF-8, as U+FFFD).
func (r *jsonReader) text() (string, error) {
	start := r.at
	plain := true
	for r.at++; r.at < len(r.data); r.at++ {
		switch c := r.data[r.at]; {
		case c == '"':
			r.at++
			if plain {
				return string(r.data[start+1 : r.at-1]), nil
			}
			return unquote(r.data[start+1 : r.at-1])
		case c == '\\':
			plain = false
			r.at++ // the escaped character, which may be a quote
		case c < 0x20:
			return "", errJSON
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return "", errJSON
}

// unquote decodes the inside of a JSON string with escapes or bytes outside ASCII.
func unquote(in []byte) (string, error) {
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		plain := i
		for plain < len(in) && in[plain] != '\\' && in[plain] < utf8.RuneSelf {
			plain++
		}
		out = append(out, in[i:plain]...) // ASCII without escapes, as it is
		switch i = plain; {
		case i == len(in):
		case in[i] == '\\':
			var err error
			if out, i, err = appendEscaped(out, in, i); err != nil {
				return "", err
			}
		default:
			r, size := utf8.DecodeRune(in[i:])
			out, i = utf8.AppendRune(out, r), i+size // RuneError for a byte that is no UTF-8
		}
	}
	return string(out), nil
}

// appendEscaped appends what the escape at in[i] stands for, and returns where it ends.
func appendEscaped(out, in []byte, i int) ([]byte, int, error) {
	if i+1 >= len(in) {
		return nil, 0, errJSON
	}
	i += 2
	switch e := in[i-1]; e {
	case '"', '\\', '/':
		return append(out, e), i, nil
	case 'b':
		return append(out, '\b'), i, nil
	case 'f':
		return append(out, '\f'), i, nil
	case 'n':
		return append(out, '\n'), i, nil
	case 'r':
		return append(out, '\r'), i, nil
	case 't':
		return append(out, '\t'), i, nil
	case 'u':
		r, n, ok := escapedRune(in[i:])
		if !ok {
			return nil, 0, errJSON
		}
		return utf8.AppendRune(out, r), i + n, nil
	}
	return nil, 0, errJSON
}

// escapedRune reads the hex digits after \u, and the low half after a high surrogate, as
// encoding/json does: a surrogate without its other half is U+FFFD. n is the bytes read.
func escapedRune(in []byte) (r rune, n int, ok bool) {
	r, ok = hex4(in)
	if !ok {
		return 0, 0, false
	}
	if !utf16.IsSurrogate(r) {
		return r, 4, true
	}
	if len(in) >= 10 && in[4] == '\\' && in[5] == 'u' {
		if low, ok := hex4(in[6:]); ok {
			if both := utf16.DecodeRune(r, low); both != unicode.ReplacementChar {
				return both, 10, true
			}
		}
	}
	return unicode.ReplacementChar, 4, true
}

func hex4(in []byte) (rune, bool) {
	if len(in) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range in[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
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
