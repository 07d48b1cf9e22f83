// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/llamastack/llsd/internal/testsupport/golden"
)

// stackFile is a LlamaStackDistribution ai/chat with spec.
func stackFile(spec string) string {
	return "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: chat, namespace: ai}\nspec:\n" + spec
}

const reviewBase = `  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: 'http://vllm.models:8000/v1'}
  resources:
    models: [granite, llama]
`

type finding struct {
	Stack, Level, Field, Message string
}

// diffJSON runs llsd diff on two packages and returns its findings (JSON) and exit code.
func diffJSON(t *testing.T, before, after map[string]string, flags ...string) ([]finding, int) {
	t.Helper()
	dirs := [2]string{t.TempDir(), t.TempDir()}
	for i, files := range []map[string]string{before, after} {
		for name, content := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dirs[i], name), []byte(content), 0o600))
		}
	}
	var stdout, stderr bytes.Buffer
	code := Main(append(append([]string{"diff", "--format", "json"}, flags...), dirs[0], dirs[1]), nil, &stdout, &stderr)
	var out struct{ Findings []finding }
	if code == 0 || code == 3 {
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), "%s\n%s", stdout.String(), stderr.String())
	}
	return out.Findings, code
}

// Each finding class on a change a team makes: the level, the field of the spec and what it says.
func TestDiffFindings(t *testing.T) {
	for _, tc := range []struct {
		reason        string
		before, after string
		want          []finding // Stack is ai/chat unless set; Message is a part of it
	}{
		{reason: "nothing changes", before: reviewBase, after: reviewBase},
		{reason: "authentication turned off",
			before: reviewBase + "  authentication: {kubernetes: {}}\n", after: reviewBase,
			want: []finding{{Level: "security", Field: "spec.authentication", Message: "authentication is off (it was kubernetes)"},
				{Level: "restart", Message: "config.yaml changed"}}},
		{reason: "SQLite to Postgres: the stores start empty",
			before: reviewBase, after: reviewBase + "  storage:\n    sql:\n      type: postgres\n      connectionString:\n        secretKeyRef: {name: pg, key: url}\n",
			want: []finding{{Level: "data at risk", Field: "spec.storage", Message: "moves from sql_sqlite to sql_postgres, which starts empty"},
				{Level: "restart", Message: "config.yaml changed"}}},
		{reason: "a model removed",
			before: reviewBase, after: strings.Replace(reviewBase, "[granite, llama]", "[granite]", 1),
			want: []finding{{Level: "breaking", Field: "spec.resources.models", Message: "models are removed: llama"},
				{Level: "restart", Message: "config.yaml changed"}}},
		{reason: "egress widened",
			before: reviewBase + "  networking:\n    egress: {cidrs: [10.20.0.0/16]}\n", after: reviewBase + "  networking:\n    egress: {cidrs: [0.0.0.0/0]}\n",
			want: []finding{{Level: "security", Field: "spec.networking.egress", Message: "where the server may connect changes"}}},
		{reason: "the server version moved (an unpinned stack when llsd moves its catalog; here the pinned image goes)",
			before: strings.Replace(reviewBase, "{name: starter}", "{image: 'docker.io/ogxai/distribution-starter:1.2.2'}", 1), after: reviewBase,
			want: []finding{{Level: "breaking", Field: "spec.distribution", Message: "the server moves from 1.2 to 1.3 (docker.io/ogxai/distribution-starter:1.3.0): read llsd's upgrade guide, 1.2 to 1.3"},
				{Level: "restart", Message: "config.yaml changed, the image changed"},
				{Level: "info", Field: "spec.providers", Message: "providers are added: inference/meta"}}},
		{reason: "the server moved back to an older version",
			before: reviewBase, after: strings.Replace(reviewBase, "{name: starter}", "{image: 'docker.io/ogxai/distribution-starter:1.2.2'}", 1),
			want: []finding{{Level: "breaking", Field: "spec.providers", Message: "providers are removed: inference/meta"},
				{Level: "data at risk", Field: "spec.distribution", Message: "the server moves back from 1.3 to 1.2"},
				{Level: "restart", Message: "config.yaml changed, the image changed"}}},
		{reason: "exposed outside the cluster",
			before: reviewBase + "  authentication: {kubernetes: {}}\n",
			after:  reviewBase + "  authentication: {kubernetes: {}}\n  networking:\n    expose: {hostname: chat.example.com}\n",
			want:   []finding{{Level: "security", Field: "spec.networking.expose", Message: "exposed outside the cluster (Ingress chat.example.com)"}}},
		{reason: "the model server moved: the provider's requests and credential go to another host",
			before: reviewBase, after: strings.Replace(reviewBase, "vllm.models:8000", "vllm.elsewhere.example:8000", 1),
			want: []finding{{Level: "security", Field: "spec.providers", Message: "inference/vllm connects to vllm.elsewhere.example:8000 instead of vllm.models:8000"},
				{Level: "restart", Message: "config.yaml changed"}}},
		{reason: "a provider added names its host",
			before: reviewBase, after: strings.Replace(reviewBase, "  resources:", "    vectorIo: {id: docs, provider: qdrant, endpoint: 'http://qdrant.data:6333'}\n  resources:", 1),
			want: []finding{{Level: "restart", Message: "config.yaml changed"},
				{Level: "info", Field: "spec.providers", Message: "providers are added: vector_io/docs (qdrant.data:6333)"}}},
		{reason: "the vector stores moved from faiss in the pod to a Qdrant service",
			before: strings.Replace(reviewBase, "  resources:", "    vectorIo: {id: vectors, provider: faiss}\n  resources:", 1),
			after:  strings.Replace(reviewBase, "  resources:", "    vectorIo: {id: vectors, provider: qdrant, endpoint: 'http://qdrant.data:6333'}\n  resources:", 1),
			want: []finding{{Level: "data at risk", Field: "spec.providers.vectorIo", Message: "the vector store provider vectors moves from inline::faiss to remote::qdrant, which starts empty"},
				{Level: "restart", Message: "config.yaml changed"}}},
		{reason: "the PVC shrunk", before: reviewBase + "  workload:\n    storage: {size: 10Gi}\n", after: reviewBase + "  workload:\n    storage: {size: 5Gi}\n",
			want: []finding{{Level: "breaking", Field: "spec.workload.storage.size", Message: "the PVC shrinks from 10Gi to 5Gi"}}},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			got, code := diffJSON(t, map[string]string{"llsd.yaml": stackFile(tc.before)}, map[string]string{"llsd.yaml": stackFile(tc.after)})
			require.Equal(t, 0, code)
			require.Len(t, got, len(tc.want), "%v", got)
			for i, want := range tc.want {
				assert.Equal(t, "ai/chat", got[i].Stack)
				assert.Equal(t, want.Level, got[i].Level, got[i].Message)
				assert.Equal(t, want.Field, got[i].Field, got[i].Message)
				assert.Contains(t, got[i].Message, want.Message)
			}
		})
	}
}

// A rename (the same config under a new name) says what happens to the Service and the PVC.
func TestDiffRename(t *testing.T) {
	spec := reviewBase + "  workload:\n    storage: {size: 10Gi}\n"
	got, code := diffJSON(t, map[string]string{"llsd.yaml": stackFile(spec)},
		map[string]string{"llsd.yaml": strings.Replace(stackFile(spec), "name: chat", "name: assistant", 1)})
	require.Equal(t, 0, code)
	require.Len(t, got, 1, "%v", got)
	assert.Equal(t, finding{Stack: "ai/chat", Level: "data at risk", Field: "metadata.name", Message: got[0].Message}, got[0])
	assert.Equal(t, "the server is renamed ai/assistant: its Service chat-service becomes assistant-service, so callers of the old address "+
		"lose it; its PVC chat-pvc goes where the GitOps tool prunes, and assistant-pvc starts empty: keep the old name to keep the files "+
		"and stores on it", got[0].Message)

	// Renamed and changed: no longer the same server, so a server removed and another added.
	got, _ = diffJSON(t, map[string]string{"llsd.yaml": stackFile(spec)},
		map[string]string{"llsd.yaml": strings.Replace(strings.Replace(stackFile(spec), "name: chat", "name: assistant", 1), "granite, ", "", 1)})
	require.Len(t, got, 2, "%v", got)
	assert.Contains(t, got[0].Message, "the server is removed, and its PVC chat-pvc with it")
	assert.Equal(t, "ai/assistant", got[1].Stack)
	assert.Contains(t, got[1].Message, "a new server")
}

// --fail-on gates CI: exit 3 when a finding reaches the level, 0 below it; a change that does
// not render is an error.
func TestDiffFailOn(t *testing.T) {
	before := map[string]string{"llsd.yaml": stackFile(reviewBase + "  authentication: {kubernetes: {}}\n")}
	after := map[string]string{"llsd.yaml": stackFile(reviewBase)}
	_, code := diffJSON(t, before, after, "--fail-on", "security")
	assert.Equal(t, 3, code)
	_, code = diffJSON(t, before, after, "--fail-on", "breaking")
	assert.Equal(t, 0, code)
	_, code = diffJSON(t, before, map[string]string{"llsd.yaml": stackFile("  distribution: {name: no-such-distribution}\n")})
	assert.Equal(t, 1, code)

	var stdout, stderr bytes.Buffer
	assert.Equal(t, 2, Main([]string{"diff", "--fail-on", "urgent", "a", "b"}, nil, &stdout, &stderr))
	assert.Contains(t, stderr.String(), `"urgent" is no level`)
}

// The Markdown for a pull request's comment: a table per server and the server before and after
// as a Mermaid diagram (golden: testdata/diff/review.md, reviewed).
func TestDiffMarkdown(t *testing.T) {
	dirs := [2]string{t.TempDir(), t.TempDir()}
	require.NoError(t, os.WriteFile(filepath.Join(dirs[0], "llsd.yaml"), []byte(stackFile(reviewBase+"  authentication: {kubernetes: {}}\n")), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dirs[1], "llsd.yaml"), []byte(stackFile(strings.Replace(reviewBase, "[granite, llama]", "[granite]", 1)+
		"  networking:\n    expose: {hostname: chat.example.com}\n  authentication: {kubernetes: {}}\n  storage:\n    sql:\n      type: postgres\n"+
		"      connectionString:\n        secretKeyRef: {name: pg, key: url}\n")), 0o600))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main([]string{"diff", "--format", "markdown", dirs[0], dirs[1]}, nil, &stdout, &stderr), stderr.String())
	golden.Check(t, filepath.Join("testdata", "diff", "review.md"), stdout.Bytes())
}

// --since-receipt: a rendered package (as kpt fn render leaves it) against what this llsd
// renders of it now. Freshly rendered, nothing moves; rendered by an older llsd (here: its
// receipt says server 1.2, its config registered one model less), the review says what an
// llsd upgrade would do to the running server.
func TestDiffSinceReceipt(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "llsd.yaml"), []byte(stackFile(reviewBase)), 0o600))
	var rendered, stderr bytes.Buffer
	require.Equal(t, 0, Main([]string{"render", dir}, nil, &rendered, &stderr), stderr.String())
	pkg := t.TempDir()
	write := func(content string) {
		require.NoError(t, os.WriteFile(filepath.Join(pkg, "rendered.yaml"), []byte(content), 0o600))
	}
	since := func() ([]finding, int) {
		var stdout, stderr bytes.Buffer
		code := Main([]string{"diff", "--format", "json", "--since-receipt", pkg}, nil, &stdout, &stderr)
		var out struct{ Findings []finding }
		if code == 0 {
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &out), "%s", stderr.String())
		}
		return out.Findings, code
	}
	write(rendered.String())
	got, code := since()
	require.Equal(t, 0, code)
	assert.Empty(t, got, "a package this llsd rendered does not move")
	var stdout bytes.Buffer
	stderr.Reset()
	require.Equal(t, 0, Main([]string{"diff", "--since-receipt", "-"}, strings.NewReader(rendered.String()), &stdout, &stderr), stderr.String())
	assert.Equal(t, "no change to any server\n", stdout.String(), "standard input is read once, for both sides")

	older := strings.Replace(rendered.String(), `llamastack.io/server-version: "1.3"`, `llamastack.io/server-version: "1.2"`, 1)
	older = strings.Replace(older, "llamastack.io/config-hash: ", "llamastack.io/config-hash: 0", 1)
	older = strings.Replace(older, "model_id: llama", "model_id: llama-old", 1)
	require.NotEqual(t, rendered.String(), older)
	write(older)
	got, code = since()
	require.Equal(t, 0, code)
	var levels []string
	for _, f := range got {
		levels = append(levels, f.Level+": "+f.Message)
	}
	assert.Contains(t, strings.Join(levels, "\n"), "breaking: the server moves from 1.2 to 1.3")
	assert.Contains(t, strings.Join(levels, "\n"), "breaking: models are removed: llama-old")
	assert.Contains(t, strings.Join(levels, "\n"), "info: models are added: llama")

	write(stackFile(reviewBase))
	_, code = since()
	assert.Equal(t, 1, code, "an author's package holds no receipt")
}

// REV:PATH reads a directory at a git revision: the pull request's base against the working tree.
func TestDiffGitRevision(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s", out)
	}
	git("init", "-q")
	require.NoError(t, os.MkdirAll(filepath.Join(repo, "stacks"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(repo, "stacks", "llsd.yaml"), []byte(stackFile(reviewBase)), 0o600))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	require.NoError(t, os.WriteFile(filepath.Join(repo, "stacks", "llsd.yaml"), []byte(stackFile(strings.Replace(reviewBase, "[granite, llama]", "[granite]", 1))), 0o600))
	t.Chdir(repo)
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main([]string{"diff", "HEAD:stacks", "stacks"}, nil, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "ai/chat: breaking spec.resources.models: models are removed: llama")
	assert.Equal(t, 1, Main([]string{"diff", "HEAD:nothing-here", "stacks"}, nil, &stdout, &stderr))
}

// --objects compares objects as they are, as kubectl diff and argocd app diff hand them to their
// external diff: kubectl's order (its two directories, then the variable's words) is taken; the
// exit codes are theirs (1 for findings, 2 for an error); a side that is not YAML names its file.
func TestDiffObjects(t *testing.T) {
	dir := t.TempDir()
	var rendered, stderr bytes.Buffer
	require.NoError(t, os.WriteFile(filepath.Join(dir, "llsd.yaml"), []byte(stackFile(reviewBase)), 0o600))
	require.Equal(t, 0, Main([]string{"render", filepath.Join(dir, "llsd.yaml")}, nil, &rendered, &stderr), stderr.String())
	live, target := filepath.Join(dir, "LIVE"), filepath.Join(dir, "MERGED")
	require.NoError(t, os.Mkdir(live, 0o700))
	require.NoError(t, os.Mkdir(target, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(target, "llamastack.io.v1alpha2.LlamaStackDistribution.ai.chat"), rendered.Bytes(), 0o600))
	empty := filepath.Join(dir, "empty")
	require.NoError(t, os.WriteFile(empty, nil, 0o600))

	for _, tc := range []struct {
		reason string
		args   []string
		code   int
		out    string
	}{
		{reason: "the same objects", args: []string{"diff", "--objects", target, target}, code: 0, out: "no change to any server\n"},
		{reason: "a new server, as Argo CD orders the words", args: []string{"diff", "--objects", live, target}, code: 1,
			out: "ai/chat: info: a new server: docker.io/ogxai/distribution-starter:1.3.0 (server 1.3)\n"},
		{reason: "as kubectl diff orders them", args: []string{live, target, "diff", "--objects"}, code: 1, out: "a new server"},
		{reason: "below --fail-on: no difference that counts", args: []string{"diff", "--objects", "--fail-on", "restart", live, target}, code: 0, out: "a new server"},
		{reason: "an empty file is no object", args: []string{"diff", "--objects", empty, empty}, code: 0, out: "no change to any server\n"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tc.code, Main(tc.args, nil, &stdout, &stderr), stderr.String())
			assert.Contains(t, stdout.String(), tc.out)
		})
	}

	require.NoError(t, os.WriteFile(filepath.Join(dir, "broken"), []byte("kind: [\n"), 0o600))
	for _, tc := range []struct {
		reason, want string
		args         []string
	}{
		{reason: "not YAML", args: []string{"diff", "--objects", empty, filepath.Join(dir, "broken")}, want: "broken: not YAML"},
		{reason: "no such file", args: []string{"diff", "--objects", empty, filepath.Join(dir, "absent")}, want: "absent: no such file"},
		{reason: "with --since-receipt", args: []string{"diff", "--objects", "--since-receipt", empty, empty}, want: "choose one"},
		{reason: "one side", args: []string{"diff", "--objects", empty}, want: "name both"},
	} {
		t.Run(tc.reason, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, Main(tc.args, nil, &stdout, &stderr))
			assert.Contains(t, stderr.String(), tc.want)
			assert.Empty(t, stdout.String())
		})
	}
}

// A server version moved a step, on the upgrade guide's own stack (internal/config/testdata's
// upgrade cases): the guide's entries that apply to the stack are findings of their own, and the
// stores the new server keeps elsewhere are data at risk.
func TestDiffUpgradeNotes(t *testing.T) {
	for _, tc := range []struct {
		from, to string
		want     []finding
	}{
		{from: "0.7", to: "0.8", want: []finding{{Level: "breaking", Field: "spec.resources.models",
			Message: "Model identifiers change for clients: clients name the models all/claude-haiku-4-5-20251001"}}},
		{from: "0.8", to: "1.0", want: []finding{
			{Level: "data at risk", Field: "spec.storage", Message: "the prompts store moves from the backend kv_default to sql_default"},
			{Level: "data at risk", Field: "spec.storage", Message: "the connectors store moves from the backend kv_default to sql_default"},
			{Level: "restart", Field: "spec.storage.sql", Message: "SQL stores are opened when the server starts: an unreachable Postgres stops the start from 1.0"}}},
	} {
		t.Run(tc.from+" to "+tc.to, func(t *testing.T) {
			read := func(version string) map[string]string {
				data, err := os.ReadFile(filepath.Join("..", "config", "testdata", "upgrade-"+version, "llsd.yaml"))
				require.NoError(t, err)
				return map[string]string{"llsd.yaml": string(data)}
			}
			got, code := diffJSON(t, read(tc.from), read(tc.to))
			require.Equal(t, 0, code)
			for _, want := range tc.want {
				assert.True(t, slices.ContainsFunc(got, func(f finding) bool {
					return f.Level == want.Level && f.Field == want.Field && strings.Contains(f.Message, want.Message)
				}), "%+v in %+v", want, got)
			}
		})
	}
}

// A side may be a stream (-): a package piped in, as kustomize build prints it.
func TestDiffStandardInput(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "llsd.yaml"), []byte(stackFile(strings.Replace(reviewBase, "[granite, llama]", "[granite]", 1))), 0o600))
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, Main([]string{"diff", "-", dir}, strings.NewReader(stackFile(reviewBase)), &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "ai/chat: breaking spec.resources.models: models are removed: llama")
}

// No Secret value reaches a review, in any format: the Secrets beside the stacks (here a
// connection string changing with the change) are never read.
func TestDiffPrintsNoSecretValue(t *testing.T) {
	secret := func(password string) string {
		return "---\napiVersion: v1\nkind: Secret\nmetadata: {name: pg, namespace: ai}\nstringData:\n  url: postgres://llsd:" + password + "@db.data:5432/llsd\n"
	}
	postgres := reviewBase + "  storage:\n    sql:\n      type: postgres\n      connectionString:\n        secretKeyRef: {name: pg, key: url}\n"
	for _, format := range []string{"text", "markdown", "json"} {
		for _, flags := range [][]string{nil, {"--objects"}} {
			dirs := [2]string{t.TempDir(), t.TempDir()}
			for i, content := range []string{stackFile(reviewBase) + secret("first-hunter2"), stackFile(postgres) + secret("second-hunter2")} {
				require.NoError(t, os.WriteFile(filepath.Join(dirs[i], "llsd.yaml"), []byte(content), 0o600))
				if flags != nil { // the objects as rendered
					var out, stderr bytes.Buffer
					require.Equal(t, 0, Main([]string{"render", dirs[i]}, nil, &out, &stderr), stderr.String())
					require.NoError(t, os.WriteFile(filepath.Join(dirs[i], "llsd.yaml"), out.Bytes(), 0o600))
				}
			}
			var stdout, stderr bytes.Buffer
			code := Main(append(append([]string{"diff", "--format", format}, flags...), dirs[0], dirs[1]), nil, &stdout, &stderr)
			assert.Contains(t, []int{0, 1}, code, stderr.String())
			assert.Contains(t, stdout.String(), "sql_postgres", "the change is reviewed")
			assert.NotContains(t, stdout.String()+stderr.String(), "hunter2", "%s %v", format, flags)
		}
	}
}
