// SPDX-License-Identifier: Apache-2.0

package realserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// frames writes a traceback as Python's logging writes it into the log file.
func frames(lines ...string) string {
	out := "2026-12-07 04:15:45,817 ogx.core.server.server:160 server: Traceback (most recent call last):\n"
	for _, l := range lines {
		out += l + "\n"
	}
	return out
}

const site = "/opt/llsd/server-1.3.0-x/lib/python3.14/site-packages/"

// Judge tells the stage from the frames of the last traceback, not from the messages.
func TestJudge(t *testing.T) {
	for _, tc := range []struct {
		reason, log, output string
		want                Outcome
	}{
		{reason: "an SDK Debian lacks, imported while a provider is made",
			log: frames(`  File "`+site+`ogx/core/stack.py", line 806, in initialize`,
				`  File "`+site+`ogx/core/resolver.py", line 469, in instantiate_provider`,
				`  File "`+site+`ogx/providers/remote/inference/together/__init__.py", line 19, in get_adapter_impl`,
				`ModuleNotFoundError: No module named 'together'`),
			want: Outcome{Stage: StageProviders, Where: "ogx/providers/remote/inference/together/__init__:get_adapter_impl",
				Provider: "providers/remote/inference/together", Missing: "together", Exception: "ModuleNotFoundError: No module named 'together'"}},
		{reason: "a store that is not there, before the providers",
			log: frames(`  File "`+site+`ogx/core/stack.py", line 790, in initialize`,
				`  File "`+site+`ogx/core/storage/kvstore/postgres/postgres.py", line 70, in _acquire`,
				`RuntimeError: Could not connect to PostgreSQL database server`),
			want: Outcome{Stage: StageStorage, Where: "ogx/core/storage/kvstore/postgres/postgres:_acquire", Exception: "RuntimeError: Could not connect to PostgreSQL database server"}},
		{reason: "a vector store's default model, checked after the providers",
			log: frames(`  File "`+site+`ogx/core/stack.py", line 818, in initialize`,
				`  File "`+site+`ogx/core/stack.py", line 512, in _validate_embedding_model`,
				`ValueError: Embedding model 'x' not found.`),
			want: Outcome{Stage: StageStack, Where: "ogx/core/stack:_validate_embedding_model", Exception: "ValueError: Embedding model 'x' not found."}},
		{reason: "the config refused as it is read",
			output: "Traceback (most recent call last):\n" +
				`  File "` + site + `ogx/core/configure.py", line 140, in parse_and_maybe_upgrade_config` + "\n" +
				"pydantic_core._pydantic_core.ValidationError: 1 validation error for StackConfig\n",
			want: Outcome{Stage: StageConfig, Where: "ogx/core/configure:parse_and_maybe_upgrade_config",
				Exception: "pydantic_core._pydantic_core.ValidationError: 1 validation error for StackConfig"}},
		{reason: "no traceback: stopped before the server logged one (the command line, llsd's launcher)",
			output: "llsd-launcher: the connection string is neither a postgresql:// URL nor key=value pairs\n",
			want:   Outcome{Stage: StageConfig}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got := Judge(tc.log, tc.output)
			got.Log = ""
			assert.Equal(t, tc.want, got)
		})
	}
}
