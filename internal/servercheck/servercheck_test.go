// SPDX-License-Identifier: Apache-2.0

package servercheck_test

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/servercheck"
)

func TestSubstituteLikeTheServer(t *testing.T) {
	env := map[string]string{"SET": "value", "PORT": "5432", "FLAG": "True", "EMPTY": "", "RATIO": "0.5"}
	getenv := func(name string) string { return env[name] }
	for _, tc := range []struct {
		reason string
		in     any
		want   any
	}{
		{"a set variable", "${env.SET}", "value"},
		{"default when unset", "${env.UNSET:=fallback}", "fallback"},
		{"an empty variable counts as unset", "${env.EMPTY:=fallback}", "fallback"},
		{"conditional value when set", "${env.SET:+id}", "id"},
		{"conditional empty when unset becomes null", "${env.UNSET:+id}", nil},
		{"numbers are converted", "${env.PORT}", int64(5432)},
		{"booleans in any case", "${env.FLAG}", true},
		{"floats", "${env.RATIO}", 0.5},
		{"literal strings are never converted", "5432", "5432"},
		{"several placeholders in one string", "${env.SET}-${env.UNSET:=x}", "value-x"},
		{"~ is expanded in replacements", "${env.UNSET:=~/.llama}/db", os.Getenv("HOME") + "/.llama/db"},
		{"a disabled provider is dropped", []any{
			map[string]any{"provider_id": "${env.UNSET:=__disabled__}", "config": map[string]any{"x": "${env.UNSET}"}},
			map[string]any{"provider_id": "kept"}},
			[]any{map[string]any{"provider_id": "kept"}}},
		{"a model whose id resolves empty is dropped", []any{map[string]any{"model_id": "${env.UNSET:=}"}}, []any{}},
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
		data, err := os.ReadFile(servercheck.UpstreamConfig(file))
		require.NoError(t, err)
		cfg, err := configyaml.UnmarshalMap(data)
		require.NoError(t, err)
		delete(cfg["registered_resources"].(map[string]any), "vector_dbs")
		return cfg
	}
	for file, version := range map[string]string{
		"v0.6.0/starter_config.yaml": "0.6", "v0.7.1/starter_config.yaml": "0.7", "v0.8.0/starter_config.yaml": "0.8",
		"v0.6.0/postgres-demo_config.yaml": "0.6", "v0.7.1/postgres-demo_config.yaml": "0.7",
	} {
		assert.NoError(t, servercheck.ValidateStrict(version, load(file), getenv), file)
	}
	assert.Error(t, servercheck.ValidateStrict("0.6", load("v0.7.1/starter_config.yaml"), getenv), "0.7 starter on 0.6")
	assert.Error(t, servercheck.ValidateStrict("0.7", load("v0.8.0/starter_config.yaml"), getenv), "0.8 starter on 0.7")

	cfg := load("v0.7.1/starter_config.yaml")
	backends := cfg["storage"].(map[string]any)["backends"].(map[string]any)
	backends["sql_default"] = map[string]any{"type": "sql_postgres", "connection_string": "postgresql://u:p@h/db"}
	assert.ErrorContains(t, servercheck.ValidateStrict("0.7", cfg, getenv), "connection_string", "a connection string is not a server field")
	backends["sql_default"] = map[string]any{"type": "sql_postgres", "user": "u", "password": "${env.PW}"}
	numeric := servercheck.FixtureEnv(map[string]string{"PW": "123456"})
	assert.Error(t, servercheck.ValidateStrict("0.7", cfg, numeric), "an all-digit password becomes a number")
}
