// SPDX-License-Identifier: Apache-2.0

package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// The review workflow of examples/ci, its Review step run as GitHub runs it (bash, the runner's
// variables, llsd on PATH) on a git repository with two commits: the pull request turns the
// server's authentication off and removes a model. The step renders the base commit and the
// change, writes the Markdown the next step comments, and says the change is breaking.
func TestReviewWorkflowExample(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "ci", "llsd-review.yaml"))
	require.NoError(t, err)
	var workflow struct {
		Jobs map[string]struct {
			Env   map[string]string `json:"env"`
			Steps []struct {
				Name string `json:"name"`
				Run  string `json:"run"`
			} `json:"steps"`
		} `json:"jobs"`
	}
	require.NoError(t, yaml.Unmarshal(data, &workflow))
	job := workflow.Jobs["review"]
	script := ""
	for _, step := range job.Steps {
		if step.Name == "Review" {
			script = step.Run
		}
	}
	require.NotEmpty(t, script, "the example has a Review step")

	repo, runner := t.TempDir(), t.TempDir()
	git := func(args ...string) string {
		return strings.TrimSpace(string(run(t, repo, "git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)))
	}
	stack := func(spec string) map[string]string {
		return map[string]string{"llsd.yaml": "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\n" +
			"metadata: {name: chat, namespace: ai}\nspec:\n  distribution: {name: starter}\n" +
			"  providers:\n    inference: {provider: vllm, endpoint: 'http://vllm.models:8000/v1'}\n" + spec}
	}
	git("init", "-q")
	dir := filepath.Join(repo, job.Env["STACKS"])
	require.NoError(t, os.MkdirAll(dir, 0o755))
	writeFiles(t, dir, stack("  resources:\n    models: [granite, llama]\n  authentication: {kubernetes: {}}\n"))
	git("add", "-A")
	git("commit", "-q", "-m", "base")
	base := git("rev-parse", "HEAD")
	writeFiles(t, dir, stack("  resources:\n    models: [granite]\n"))
	git("commit", "-q", "-a", "-m", "the change")

	cmd := exec.Command("bash", "-e", "-c", script)
	cmd.Dir = repo
	output := filepath.Join(runner, "output")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(llsdBinary)+":"+os.Getenv("PATH"), "RUNNER_TEMP="+runner,
		"GITHUB_OUTPUT="+output, "BASE="+base, "STACKS="+job.Env["STACKS"])
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	status, err := os.ReadFile(output)
	require.NoError(t, err)
	assert.Equal(t, "status=3\n", string(status), "a breaking finding: the last step fails the check")
	review, err := os.ReadFile(filepath.Join(runner, "review.md"))
	require.NoError(t, err)
	for _, want := range []string{"**ai/chat**", "| breaking | `spec.resources.models` | models are removed: llama",
		"| security | `spec.authentication` | authentication is off (it was kubernetes)"} {
		assert.Contains(t, string(review), want)
	}
}

// reviewStack is the LlamaStackDistribution ai/chat the live reviews change: a gateway's namespace
// admitted (a NetworkPolicy, whose ports the API server gives a protocol) and a PVC.
// With exposed, it is exposed at chat.example.com.
func reviewStack(spec string, exposed bool) string {
	expose := ""
	if exposed {
		expose = "    expose: {hostname: chat.example.com}\n"
	}
	return "apiVersion: llamastack.io/v1alpha2\nkind: LlamaStackDistribution\nmetadata: {name: chat, namespace: ai}\nspec:\n" +
		"  distribution: {name: starter}\n  providers:\n    inference: {provider: vllm, endpoint: 'http://vllm.models:8000/v1'}\n" +
		"  networking:\n    allowedFrom: {namespaces: [gateway]}\n" + expose + "  workload:\n    storage: {size: 10Gi}\n" + spec
}

// liveCluster applies the render of a stack to a real API server and returns kubectl's arguments
// for it (the kubeconfig) and kubectl.
func liveCluster(t *testing.T, stack string) (kubectl string, kubeconfig []string, rendered string) {
	kubectl = toolOnPath(t, "KUBECTL", "kubectl", "install kubectl")
	testenv.Need(t, testenv.MissingAssets())
	_, config := apiServerAsAdmin(t)
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"kubeconfig": string(config), "llsd.yaml": stack})
	kubeconfig = []string{"--kubeconfig", filepath.Join(dir, "kubeconfig")}
	rendered = filepath.Join(dir, "rendered.yaml")
	require.NoError(t, os.WriteFile(rendered, run(t, dir, llsdBinary, "render", "llsd.yaml"), 0o600))
	run(t, dir, kubectl, append(kubeconfig, "create", "namespace", "ai")...)
	run(t, dir, kubectl, append(kubeconfig, "apply", "--server-side", "-f", rendered)...)
	return kubectl, kubeconfig, rendered
}

// renderTo writes llsd's render of a stack to a file of dir.
func renderTo(t *testing.T, dir, stack string) string {
	writeFiles(t, dir, map[string]string{"after-llsd.yaml": stack})
	path := filepath.Join(dir, "after.yaml")
	require.NoError(t, os.WriteFile(path, run(t, dir, llsdBinary, "render", "after-llsd.yaml"), 0o600))
	return path
}

// What a running server would undergo, reviewed against the cluster where Argo CD shows a diff:
// the live objects of a real API server (kubectl get -o yaml, as argocd app manifests --source
// live prints them: status, the fields the server defaults) against what llsd renders of the
// change. The same render reviews as no change at all, whatever the server added; the change
// (authentication off, a model removed, exposed) reviews as it does between two packages.
func TestReviewAgainstTheLiveObjects(t *testing.T) {
	before := reviewStack("  resources:\n    models: [granite, llama]\n  authentication: {kubernetes: {}}\n", false)
	kubectl, kubeconfig, rendered := liveCluster(t, before)
	dir := t.TempDir()
	live := filepath.Join(dir, "live.yaml")
	require.NoError(t, os.WriteFile(live, run(t, dir, kubectl, append(kubeconfig, "get", "-o", "yaml", "-f", rendered)...), 0o600))

	out, code := runCode(t, dir, llsdBinary, "diff", "--objects", live, rendered)
	assert.Equal(t, "no change to any server\n", out, "the server's defaults and status are no change")
	assert.Equal(t, 0, code)

	after := renderTo(t, dir, reviewStack("  resources:\n    models: [granite]\n", true))
	out, code = runCode(t, dir, llsdBinary, "diff", "--objects", live, after)
	assert.Equal(t, 1, code, "findings: kubectl's and Argo CD's exit code for differences")
	assert.Equal(t, []string{
		"ai/chat: breaking spec.resources.models: models are removed: llama; their callers get 404",
		"ai/chat: security spec.networking.expose: the server is exposed outside the cluster (Ingress chat.example.com): callers from anywhere the Ingress admits reach it",
		"ai/chat: security spec.networking.allowedFrom: who may call the server changes: review the NetworkPolicy's new peers",
		"ai/chat: security spec.authentication: authentication is off (it was kubernetes): the server answers every caller that reaches it",
		"ai/chat: restart: the pods restart: config.yaml changed",
	}, strings.Split(strings.TrimSpace(out), "\n"))
}

// kubectl diff with llsd as its external diff, against a real API server: kubectl hands it the
// live objects and the server's dry run of the change, directories of one object per file. The
// change exposes the server and turns authentication off; kubectl sends only the objects of the
// change, so the ConfigMap the new config replaces is not there, and the review says so instead
// of guessing.
func TestKubectlDiffWithTheReview(t *testing.T) {
	before := reviewStack("  resources:\n    models: [granite, llama]\n  authentication: {kubernetes: {}}\n", false)
	kubectl, kubeconfig, _ := liveCluster(t, before)
	dir := t.TempDir()
	after := renderTo(t, dir, reviewStack("  resources:\n    models: [granite, llama]\n", true))

	cmd := exec.Command(kubectl, append(kubeconfig, "diff", "--server-side", "-f", after)...)
	cmd.Env = append(os.Environ(), "KUBECTL_EXTERNAL_DIFF="+llsdBinary+" diff --objects")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "kubectl diff says there are differences: %s", stderr.String())
	assert.Equal(t, 1, exit.ExitCode(), stderr.String())
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	assert.Equal(t, []string{
		"ai/chat: security spec.networking.expose: the server is exposed outside the cluster (Ingress chat.example.com): callers from anywhere the Ingress admits reach it",
		"ai/chat: security spec.networking.allowedFrom: who may call the server changes: review the NetworkPolicy's new peers",
		"ai/chat: restart: the pods restart: config.yaml changed",
	}, lines[:min(3, len(lines))])
	require.Len(t, lines, 4)
	assert.Regexp(t, `^ai/chat: info: config.yaml changes, but the ConfigMap chat-config-[0-9a-f]+ is not among the objects compared`, lines[3])
}

// runCode runs a command and returns its standard output and exit code.
func runCode(t *testing.T, dir, name string, args ...string) (string, int) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	if exit != nil {
		return string(out), exit.ExitCode()
	}
	return string(out), 0
}

// argocd app diff hands its external diff one object at a time, its live state and its predicted
// one (a server-side dry run), an empty file for the side where it is absent. Each object's review
// says what that object does; the config, in a ConfigMap named for its content, is a new object,
// so the server's own object says its change was not compared.
func TestReviewOneObjectAtATime(t *testing.T) {
	kubectl, kubeconfig, rendered := liveCluster(t, reviewStack("  resources:\n    models: [granite, llama]\n  authentication: {kubernetes: {}}\n", false))
	dir := t.TempDir()
	after := renderTo(t, dir, reviewStack("  resources:\n    models: [granite]\n", true))
	live := listedObjects(t, run(t, dir, kubectl, append(kubeconfig, "get", "-o", "yaml", "-f", rendered)...))
	predicted := listedObjects(t, run(t, dir, kubectl, append(kubeconfig, "apply", "--server-side", "--dry-run=server", "-o", "yaml", "-f", after)...))

	reviews := map[string]string{}
	for key := range union(live, predicted) {
		name := strings.ReplaceAll(key, "/", "_")
		writeFiles(t, dir, map[string]string{name + "-live.yaml": live[key], name: predicted[key]})
		out, code := runCode(t, dir, llsdBinary, "diff", "--objects", name+"-live.yaml", name)
		assert.Contains(t, []int{0, 1}, code, out)
		reviews[key] = strings.TrimSpace(out)
	}
	assert.Equal(t, "ai/chat: restart: the pods restart: config.yaml changed", reviews["Deployment/chat"])
	assert.Contains(t, reviews["Ingress/chat-ingress"], "ai/chat: security spec.networking.expose: the server is exposed outside the cluster (Ingress chat.example.com)")
	assert.Contains(t, reviews["NetworkPolicy/chat-network-policy"], "ai/chat: security spec.networking.allowedFrom: who may call the server changes")
	assert.Regexp(t, `^ai/chat: info: config.yaml changes, but the ConfigMap chat-config-[0-9a-f]+ is not among the objects compared`, reviews["LlamaStackDistribution/chat"])
	for _, key := range []string{"Service/chat-service", "PersistentVolumeClaim/chat-pvc", "ServiceAccount/chat-sa"} {
		assert.Equal(t, "no change to any server", reviews[key], key)
	}
}

// listedObjects are the items of a v1 List, as YAML by kind/name.
func listedObjects(t *testing.T, list []byte) map[string]string {
	var parsed struct {
		Items []map[string]any `json:"items"`
	}
	require.NoError(t, yaml.Unmarshal(list, &parsed))
	out := map[string]string{}
	for _, item := range parsed.Items {
		data, err := yaml.Marshal(item)
		require.NoError(t, err)
		out[item["kind"].(string)+"/"+item["metadata"].(map[string]any)["name"].(string)] = string(data)
	}
	return out
}

// union is every key of two maps.
func union(a, b map[string]string) map[string]bool {
	all := map[string]bool{}
	for k := range a {
		all[k] = true
	}
	for k := range b {
		all[k] = true
	}
	return all
}
