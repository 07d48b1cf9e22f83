// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asEncodingJSON reads data as encoding/json does into an any, with UseNumber, and refuses
// anything after the value but space (as json.Unmarshal does).
func asEncodingJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, errJSON
	}
	return v, nil
}

// readJSONTree gives what encoding/json gives, for what json.Marshal writes and for JSON it
// does not write (space, escapes, other characters); what encoding/json refuses, it refuses.
func TestReadJSONTreeMatchesEncodingJSON(t *testing.T) {
	for _, data := range []string{
		`{"a":1,"b":-0.5e+3,"c":[true,false,null],"d":{},"e":[],"f":"x"}`,
		`{"html":"\u003cb\u003e \u0026","quote":"a\"b","slash":"a\\b\/c","nl":"a\nb","uni":"é ☃ \ud83d\ude00"}`,
		`{"bad":"` + "\xff" + `"}`, ` { "a" : [ 1 , 2 ] } `, `{"a":1,"a":2}`, `{"big":123456789012345678901234567890}`,
		`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":"b}`, `{"a":tru}`, `{"a":1,}`, `[1]`, `{"a":"` + "\t" + `"}`,
		`{"a":1} x`, `{"a"}`, `{1:2}`, `{"lone":"\ud800 x","pair":"\ud83d\ude00","half":"\ud83d\u0041","low":"\udc00"}`, `{"bad":"\x"}`, `{"short":"\u12"}`,
		`{"ctl":"\b\f\r\t","raw":"` + "\xed\xa0\x80 \xef\xbf\xbd" + `"}`,
	} {
		want, wantErr := asEncodingJSON([]byte(data))
		got, err := readJSONTree([]byte(data))
		if wantErr != nil {
			assert.Error(t, err, data)
			continue
		}
		require.NoError(t, err, data)
		assert.Equal(t, want, got, data)
	}
}

func FuzzReadJSONTree(f *testing.F) {
	for _, seed := range []string{`{"a":[1,"x",{"b":null}]}`, `{"s":"\u00e9\n"}`, `[1e5,-0,true]`, `""}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := asEncodingJSON(data)
		got, err := readJSONTree(data)
		if wantErr != nil {
			assert.Error(t, err)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, want, got)
	})
}

// BenchmarkReadJSONTree: a ConfigMap's JSON as json.Marshal writes it (a config.yaml of many
// lines in one escaped string), read by readJSONTree and by encoding/json.
func BenchmarkReadJSONTree(b *testing.B) {
	var config bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&config, "  key_%d: ${env.VALUE_%d:=} # <a & b>\n", i, i)
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c", "labels": map[string]any{"app": "x"}}, "data": map[string]any{"config.yaml": config.String()}})
	require.NoError(b, err)
	b.Run("readJSONTree", func(b *testing.B) {
		for b.Loop() {
			if _, err := readJSONTree(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := asEncodingJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
