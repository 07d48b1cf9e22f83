// SPDX-License-Identifier: Apache-2.0

package servercheck_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/testsupport/servercheck"
)

func TestSubstituteLikeTheServer(t *testing.T) {
	env := map[string]string{"SET": "value", "PORT": "5432", "FLAG": "True", "EMPTY": "", "RATIO": "0.5"}
	getenv := func(name string) string { return env[name] }
	for _, tc := range []struct {
		reason string
		in     any
		want   any
	}{
		{reason: "a set variable", in: "${env.SET}", want: "value"},
		{reason: "default when unset", in: "${env.UNSET:=fallback}", want: "fallback"},
		{reason: "an empty variable counts as unset", in: "${env.EMPTY:=fallback}", want: "fallback"},
		{reason: "conditional value when set", in: "${env.SET:+id}", want: "id"},
		{reason: "conditional empty when unset becomes null", in: "${env.UNSET:+id}", want: nil},
		{reason: "numbers are converted", in: "${env.PORT}", want: int64(5432)},
		{reason: "booleans in any case", in: "${env.FLAG}", want: true},
		{reason: "floats", in: "${env.RATIO}", want: 0.5},
		{reason: "literal strings are never converted", in: "5432", want: "5432"},
		{reason: "several placeholders in one string", in: "${env.SET}-${env.UNSET:=x}", want: "value-x"},
		{reason: "~ is expanded in replacements", in: "${env.UNSET:=~/.llama}/db", want: os.Getenv("HOME") + "/.llama/db"},
		{reason: "a disabled provider is dropped", in: []any{
			map[string]any{"provider_id": "${env.UNSET:=__disabled__}", "config": map[string]any{"x": "${env.UNSET}"}},
			map[string]any{"provider_id": "kept"}},
			want: []any{map[string]any{"provider_id": "kept"}}},
		{reason: "a model whose id resolves empty is dropped", in: []any{map[string]any{"model_id": "${env.UNSET:=}"}}, want: []any{}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got, err := servercheck.Substitute(tc.in, getenv)
			require.NoError(t, err, tc.reason)
			assert.Equal(t, tc.want, got, tc.reason)
		})
	}
	_, err := servercheck.Substitute(map[string]any{"a": []any{"${env.UNSET}"}}, getenv)
	assert.EqualError(t, err, "environment variable 'UNSET' not set or empty at a[0]")
}

// The oracle itself: every upstream config passes its own version's strict schema (without
// the dead vector_dbs key) and fails another version's, and the traps the reference names
// are caught.
func TestSchemasJudgeUpstreamConfigs(t *testing.T) {
	getenv := servercheck.FixtureEnv(map[string]string{"INFERENCE_MODEL": "m"})
	load := func(file string) map[string]any {
		cfg, err := servercheck.UpstreamConfig(file)
		require.NoError(t, err)
		delete(cfg["registered_resources"].(map[string]any), "vector_dbs")
		return cfg
	}
	for file, version := range map[string]string{
		"v0.6.0/starter_config": "0.6", "v0.7.1/starter_config": "0.7", "v0.8.0/starter_config": "0.8",
		"v0.6.0/postgres-demo_config": "0.6", "v0.7.1/postgres-demo_config": "0.7",
	} {
		assert.NoError(t, servercheck.ValidateStrict(version, load(file), getenv), file)
	}
	assert.Error(t, servercheck.ValidateStrict("0.6", load("v0.7.1/starter_config"), getenv), "0.7 starter on 0.6")
	assert.Error(t, servercheck.ValidateStrict("0.7", load("v0.8.0/starter_config"), getenv), "0.8 starter on 0.7")

	cfg := load("v0.7.1/starter_config")
	backends := cfg["storage"].(map[string]any)["backends"].(map[string]any)
	backends["sql_default"] = map[string]any{"type": "sql_postgres", "connection_string": "postgresql://u:p@h/db"}
	assert.ErrorContains(t, servercheck.ValidateStrict("0.7", cfg, getenv), "connection_string", "a connection string is not a server field")
	backends["sql_default"] = map[string]any{"type": "sql_postgres", "user": "u", "password": "${env.PW}"}
	numeric := servercheck.FixtureEnv(map[string]string{"PW": "123456"})
	assert.Error(t, servercheck.ValidateStrict("0.7", cfg, numeric), "an all-digit password becomes a number")
}
