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

// dropForTest leaves out what a drop rule may name: a field of the top, a field of the second
// level, and an empty mapping there.
func dropForTest(path []string, empty bool) bool {
	return len(path) == 1 && path[0] == "status" || len(path) == 2 && (path[1] == "gone" || empty)
}

// viaEncodingJSON is what KubeObjectFromJSON replaces: the whole input read by encoding/json
// (UseNumber) into a tree, the fields dropped, the tree made into nodes.
func viaEncodingJSON(data []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree map[string]any
	if err := dec.Decode(&tree); err != nil {
		return "", err
	}
	if tree == nil || len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return "", errJSON
	}
	DropFields(tree, dropForTest)
	ko, err := KubeObject(tree)
	if err != nil {
		return "", err
	}
	return ko.String(), nil
}

func direct(data []byte) (string, error) {
	ko, err := KubeObjectFromJSON(data, dropForTest)
	if err != nil {
		return "", err
	}
	return ko.String(), nil
}

// Read straight into nodes, an object's JSON gives what encoding/json's tree gives, for what
// json.Marshal writes and for JSON it does not write (space, escapes, other characters); what
// encoding/json refuses, it refuses.
func TestKubeObjectFromJSONMatchesEncodingJSON(t *testing.T) {
	for _, data := range []string{
		`{"a":1,"b":-0.5e+3,"c":[true,false,null],"d":{},"e":[],"f":"x","status":{"x":1},"m":{"gone":1,"kept":2,"empty":{}}}`,
		`{"html":"\u003cb\u003e \u0026","quote":"a\"b","slash":"a\\b\/c","nl":"a\nb","uni":"é ☃ \ud83d\ude00"}`,
		`{"bad":"` + "\xff" + `"}`, ` { "a" : [ 1 , 2 ] } `, `{"a":1,"a":2}`, `{"big":123456789012345678901234567890}`,
		`{"lone":"\ud800 x","pair":"\ud83d\ude00","half":"\ud83d\u0041","low":"\udc00"}`, `{"bad":"\x"}`, `{"short":"\u12"}`,
		`{"ctl":"\b\f\r\t","raw":"` + "\xed\xa0\x80 \xef\xbf\xbd" + `"}`,
		`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":"b}`, `{"a":tru}`, `{"a":1,}`, `[1]`, `null`, `{"a":"` + "\t" + `"}`,
		`{"a":1} x`, `{"a"}`, `{1:2}`,
	} {
		want, wantErr := viaEncodingJSON([]byte(data))
		got, err := direct([]byte(data))
		if wantErr != nil {
			assert.Error(t, err, data)
			continue
		}
		require.NoError(t, err, data)
		assert.Equal(t, want, got, data)
	}
}

func FuzzKubeObjectFromJSON(f *testing.F) {
	for _, seed := range []string{`{"a":[1,"x",{"b":null}],"status":{}}`, `{"s":"\u00e9\n","m":{"gone":1}}`, `{"n":[1e5,-0,true]}`, `""}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := viaEncodingJSON(data)
		got, err := direct(data)
		if wantErr != nil {
			assert.Error(t, err)
			return
		}
		require.NoError(t, err)
		assert.Equal(t, want, got)
	})
}

// BenchmarkKubeObjectFromJSON: a ConfigMap's JSON as json.Marshal writes it (a config.yaml of
// many lines in one escaped string) made into a KubeObject straight and through encoding/json.
func BenchmarkKubeObjectFromJSON(b *testing.B) {
	var config bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&config, "  key_%d: ${env.VALUE_%d:=} # <a & b>\n", i, i)
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "c", "labels": map[string]any{"app": "x"}}, "data": map[string]any{"config.yaml": config.String()}})
	require.NoError(b, err)
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := direct(data); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding/json", func(b *testing.B) {
		for b.Loop() {
			if _, err := viaEncodingJSON(data); err != nil {
				b.Fatal(err)
			}
		}
	})
}
