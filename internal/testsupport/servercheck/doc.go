// SPDX-License-Identifier: Apache-2.0

// Package servercheck is the tests' oracle for the server: it checks generated config.yaml
// files the way the server reads them and starts with them: PyYAML parsing, the server's
// ${env...} substitution (ported from replace_env_vars in core/stack.py), the JSON schemas
// exported from the server's own pydantic models (testdata/server, by hack/serverdata), and the
// start-up rules of its source (Startup, CheckDeployment).
//
// It restates the server's facts in its own tables and never reads internal/profile or the
// generator's tables: a wrong profile then fails a test instead of agreeing with itself.
package servercheck
