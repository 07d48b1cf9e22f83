// SPDX-License-Identifier: Apache-2.0

package realserver

import (
	"fmt"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Process is a server started on a pod.
type Process struct {
	server  Server
	network *Network
	cmd     *exec.Cmd
	dir     string
	exited  chan struct{}
	port    int
}

// logFile is where, in its pod, the server writes its log as Python's logging formats it
// (unwrapped, one record a line, tracebacks whole): the log-file variable of each version
// (OGX_LOG_FILE, LLAMA_STACK_LOG_FILE) names it.
const logFile = "/llsd-realserver/server.log"

// Start starts the server on the pod in the network namespace. The test's cleanup stops it.
func (s Server) Start(t testing.TB, network *Network, pod Pod) *Process {
	t.Helper()
	dir := t.TempDir()
	script, err := s.script(dir, pod)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("nsenter", "--net="+network.Path, "--",
		"unshare", "--mount", "--propagation", "private", "--fork", "--kill-child", "/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	output, err := os.Create(filepath.Join(dir, "output"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = output, output
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting server %s: %v", s.Version, err)
	}
	p := &Process{server: s, network: network, cmd: cmd, dir: dir, exited: make(chan struct{}), port: port(pod.Server)}
	go func() {
		_ = cmd.Wait()
		output.Close()
		close(p.exited)
	}()
	t.Cleanup(p.stop)
	return p
}

// port is the server's port: the CLI's variable (LLAMA_STACK_PORT, OGX_PORT), else 8321.
func port(c Container) int {
	for _, name := range []string{"OGX_PORT", "LLAMA_STACK_PORT"} {
		if p, err := strconv.Atoi(c.Env[name]); err == nil {
			return p
		}
	}
	return 8321
}

func (p *Process) stop() {
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.exited
}

// script runs the pod in the process's own mount namespace: it writes the pod's volumes, and
// for each container mounts them, as the container mounts them, on a read-only view of the
// root of its own, then runs its command there as the pod's user: the init containers each to
// its end (one that fails stops the pod), then the server.
func (s Server) script(dir string, pod Pod) (string, error) {
	lines := []string{"set -e"}
	for name, v := range pod.Volumes {
		if err := writeVolume(filepath.Join(dir, "volumes", name), v); err != nil {
			return "", err
		}
	}
	logs := filepath.Join(dir, "log")
	if err := writeVolume(logs, Volume{Writable: true}); err != nil {
		return "", err
	}
	entrypoint := filepath.Join(dir, "entrypoint")
	if err := os.WriteFile(entrypoint, s.entrypoint(pod.Server.Insecure), 0o755); err != nil {
		return "", err
	}
	containers := append(slices.Clone(pod.Init), pod.Server)
	for i, c := range containers {
		view := filepath.Join(dir, "views", strconv.Itoa(i))
		lines = append(lines, viewOf(s.Root, view)...)
		binds := []bind{{source: logs, target: path.Dir(logFile)}}
		for _, e := range Entrypoints {
			binds = append(binds, bind{source: entrypoint, target: e, file: true, readOnly: true})
		}
		for _, m := range c.Mounts {
			v, ok := pod.Volumes[m.Volume]
			if !ok {
				return "", fmt.Errorf("container %s mounts volume %s, which the pod lacks", c.Name, m.Volume)
			}
			source := filepath.Join(dir, "volumes", m.Volume, m.SubPath)
			info, err := os.Stat(source)
			binds = append(binds, bind{source: source, target: m.Path, file: err == nil && !info.IsDir(), readOnly: m.ReadOnly || !v.Writable})
		}
		// Parents before children, as a container runtime mounts them.
		slices.SortStableFunc(binds, func(a, b bind) int {
			return strings.Count(path.Clean(a.target), "/") - strings.Count(path.Clean(b.target), "/")
		})
		for i, b := range binds {
			// A path the image (or a volume mounted over it) lacks gets an empty mount point, as a
			// container runtime makes one: in the volume's directory, or in the root the harness keeps.
			at := filepath.Join(s.Root, b.target)
			for _, parent := range slices.Backward(binds[:i]) {
				if rel, err := filepath.Rel(parent.target, b.target); err == nil && !parent.file && !strings.HasPrefix(rel, "..") && rel != "." {
					at = filepath.Join(parent.source, rel)
					break
				}
			}
			if _, err := os.Stat(at); err != nil {
				if err := mkMountPoint(at, b.file); err != nil {
					return "", err
				}
			}
			target := quote(filepath.Join(view, b.target))
			lines = append(lines, "mount --bind "+quote(b.source)+" "+target)
			if b.readOnly {
				lines = append(lines, "mount -o remount,bind,ro "+target)
			}
		}
		run := strings.Join(quoteAll(s.argv(view, pod, c)), " ")
		if i < len(containers)-1 {
			lines = append(lines, run+` || { echo "init container `+c.Name+` failed: $?" >&2; exit 1; }`)
			continue
		}
		lines = append(lines, "exec "+run)
	}
	return strings.Join(lines, "\n"), nil
}

// viewOf mounts a read-only view of the root at view, with what a container runtime gives
// every container: /proc, an empty /tmp and /dev/shm (multiprocessing's locks).
func viewOf(root, view string) []string {
	return []string{
		"mkdir -p " + quote(view),
		"mount --bind " + quote(root) + " " + quote(view),
		"mount -o remount,bind,ro " + quote(view),
		"mount -t proc none " + quote(filepath.Join(view, "proc")),
		"mount -t tmpfs -o mode=1777 tmpfs " + quote(filepath.Join(view, "tmp")),
		"mount -t tmpfs -o mode=1777 tmpfs " + quote(filepath.Join(view, "dev", "shm")),
	}
}

type bind struct {
	source, target string
	file, readOnly bool
}

// argv runs a container's command in its view as the pod's user, with only its variables (and
// the image's: its PATH, the server's log file).
func (s Server) argv(view string, pod Pod, c Container) []string {
	env := make([]string, 0, 5+len(c.Env))
	env = append(env, "PATH="+s.Prefix+"/bin:/usr/local/bin:/usr/bin:/bin", "HOME=/",
		"OGX_LOG_FILE="+logFile, "LLAMA_STACK_LOG_FILE="+logFile)
	env = append(env, s.imageEnv()...)
	for _, name := range slices.Sorted(maps.Keys(c.Env)) {
		env = append(env, name+"="+c.Env[name])
	}
	user, group := pod.User, pod.Group
	if user == 0 {
		user, group = 1001, 0
	}
	argv := append([]string{"chroot", "--userspec=" + strconv.FormatInt(user, 10) + ":" + strconv.FormatInt(group, 10),
		view, "/usr/bin/env", "-i"}, env...)
	return append(argv, s.command(c)...)
}

// imageEnv are the variables the server's image sets: from 0.7 the images keep tiktoken's
// encodings in /.cache/tiktoken and say so (containers/Containerfile:141-144@v0.7.1,
// :78-81,180-183@v1.3.0).
func (s Server) imageEnv() []string {
	var major, minor int
	if _, err := fmt.Sscanf(s.Version, "%d.%d", &major, &minor); err == nil && (major > 0 || minor >= 7) {
		return []string{"TIKTOKEN_CACHE_DIR=" + TiktokenCache}
	}
	return nil
}

func quoteAll(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = quote(a)
	}
	return out
}

// Entrypoints are the paths of the images' entrypoints: llama-stack's (0.6, 0.7) and OGX's.
var Entrypoints = []string{"/usr/local/bin/llama-stack-entrypoint.sh", "/usr/local/bin/ogx-entrypoint.sh"}

// entrypoint is the image's entrypoint script, as its containers/Containerfile writes it at
// each version: with any OTEL_ variable the server runs under opentelemetry-instrument; with
// $RUN_CONFIG_PATH an existing file, `<cli> stack run [--insecure] $RUN_CONFIG_PATH "$@"`
// (--insecure from 1.2.1); else the distribution $DISTRO_NAME names.
func (s Server) entrypoint(insecure bool) []byte {
	run := s.CLI + " stack run"
	if insecure {
		run += " --insecure"
	}
	return []byte(`#!/bin/sh
set -e
prefix=
if env | grep -q '^OTEL_'; then prefix=opentelemetry-instrument; fi
if [ -n "$RUN_CONFIG_PATH" ] && [ -f "$RUN_CONFIG_PATH" ]; then
  exec $prefix ` + run + ` "$RUN_CONFIG_PATH" "$@"
fi
if [ -n "$DISTRO_NAME" ]; then
  exec $prefix ` + run + ` "$DISTRO_NAME" "$@"
fi
exec $prefix ` + run + ` "$@"
`)
}

// command is what a container runs: its own command, or the image's entrypoint.
func (s Server) command(c Container) []string {
	if !c.Entrypoint {
		return append(slices.Clone(c.Command), c.Args...)
	}
	entrypoint := Entrypoints[1]
	if s.CLI == "llama" {
		entrypoint = Entrypoints[0]
	}
	return append([]string{entrypoint}, c.Args...)
}

func writeVolume(dir string, v Volume) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if v.Writable {
		return os.Chmod(dir, 0o777) // an emptyDir: writable by the pod's user
	}
	for name, data := range v.Files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func mkMountPoint(path string, file bool) error {
	if !file {
		return os.MkdirAll(path, 0o755)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, nil, 0o644)
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Wait waits until the server answers /v1/health or exits, at most limit, and says which stage
// it reached. A server that logged a traceback and goes on without answering (uvicorn restarts
// its workers) is judged by its log ten seconds after the first.
func (p *Process) Wait(limit time.Duration) Outcome {
	client := p.network.Client()
	deadline := time.After(limit)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	sinceTraceback := 0
	for {
		select {
		case <-p.exited:
			return p.outcome(false)
		case <-deadline:
			out := p.outcome(false)
			out.Stage = StageTimedOut
			return out
		case <-tick.C:
			if p.answers(client, "/v1/health") {
				return p.outcome(true)
			}
			if sinceTraceback > 0 || strings.Contains(p.log()+p.output(), "Traceback (most recent call last):") {
				if sinceTraceback++; sinceTraceback == 50 {
					return p.outcome(false)
				}
			}
		}
	}
}

func (p *Process) answers(client *http.Client, route string) bool {
	resp, err := client.Get(p.URL() + route)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// URL is the server's address in its network namespace.
func (p *Process) URL() string { return "http://127.0.0.1:" + strconv.Itoa(p.port) }

// Client is an HTTP client that reaches the server.
func (p *Process) Client() *http.Client { return p.network.Client() }

func (p *Process) outcome(serving bool) Outcome {
	out := Judge(p.log(), p.output())
	if serving {
		out.Stage = StageServing
	}
	return out
}

func (p *Process) log() string {
	log, _ := os.ReadFile(filepath.Join(p.dir, "log", path.Base(logFile)))
	return string(log)
}

func (p *Process) output() string {
	output, _ := os.ReadFile(filepath.Join(p.dir, "output"))
	return string(output)
}

// Log is the end of the server's log and output so far, for a test's message.
func (p *Process) Log() string { return tail(p.log()+"\n--- output ---\n"+p.output(), 6000) }
