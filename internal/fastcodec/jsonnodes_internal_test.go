// SPDX-License-Identifier: Apache-2.0

package fastcodec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"unicode/utf8"

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

// The strings of a field given beside an object's JSON make the nodes the whole object's JSON
// makes: in the field's place among the keys, its keys in order, each value's style, a byte that
// is no UTF-8 as U+FFFD, the fields drop names left out; a key that is no UTF-8 takes the JSON way.
func TestKubeObjectFromJSONWithStrings(t *testing.T) {
	config := "version: 2\nimage_name: starter\n  indented: <a & b> \u2028 é\n\ttab\ntrailing  \n" + "\xff bad\n"
	for _, tc := range []struct {
		reason, object, field string
		values                map[string]string
	}{
		{"a ConfigMap's data", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`, "data",
			map[string]string{"config.yaml": config, "a10": "", "a9": "yes", "b": "1", "c": "x: y"}},
		{"the first key", `{"b":1,"c":{}}`, "a", map[string]string{"k": "v"}},
		{"the last key", `{"b":1}`, "zz", map[string]string{"k": "v"}},
		{"an empty object", `{}`, "data", map[string]string{"k": "v"}},
		{"a field drop names", `{"a":1}`, "status", map[string]string{"k": "v"}},
		{"a key drop names", `{"a":1}`, "m", map[string]string{"gone": "v", "kept": "w"}},
		{"every key dropped", `{"a":1}`, "m", map[string]string{"gone": "v"}},
		{"keys that are no UTF-8", `{"a":1}`, "m", map[string]string{"\xff": "1", "\xfe": "2", "k": "3"}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			var whole map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.object), &whole))
			whole[tc.field] = tc.values
			wholeJSON, err := json.Marshal(whole)
			require.NoError(t, err)
			want, err := direct(wholeJSON)
			require.NoError(t, err)
			ko, err := KubeObjectFromJSONWithStrings([]byte(tc.object), dropForTest, tc.field, tc.values)
			require.NoError(t, err)
			assert.Equal(t, want, ko.String(), tc.reason)
		})
	}
}

func FuzzKubeObjectFromJSONWithStrings(f *testing.F) {
	f.Add("config.yaml", "a: b\n<c> \u2028\n", "data")
	f.Add("\xff", "x", "a")
	f.Fuzz(func(t *testing.T, key, value, field string) {
		if field == "apiVersion" || field == "kind" || !utf8.ValidString(field) {
			t.Skip("the field is one the object's JSON leaves out, named by the caller")
		}
		values := map[string]string{key: value, "other": value + "\n"}
		object := map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}
		objectJSON, err := json.Marshal(object)
		require.NoError(t, err)
		object[field] = values
		wholeJSON, err := json.Marshal(object)
		require.NoError(t, err)
		want, err := direct(wholeJSON)
		require.NoError(t, err)
		ko, err := KubeObjectFromJSONWithStrings(objectJSON, dropForTest, field, values)
		require.NoError(t, err)
		assert.Equal(t, want, ko.String())
	})
}
