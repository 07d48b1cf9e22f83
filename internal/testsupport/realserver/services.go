// SPDX-License-Identifier: Apache-2.0

package realserver

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The Postgres stand-in's user and password: ConnectionString names them.
const (
	postgresUser     = "llsd"
	postgresPassword = "fixture-password"
)

// StartPostgres runs Debian's PostgreSQL in the network namespace on 127.0.0.1:5432, its data
// in memory, with the user, password and database ConnectionString names: a stand-in of the
// database a Secret's connection string points at.
func StartPostgres(t testing.TB, root string, network *Network) {
	t.Helper()
	bins, err := filepath.Glob(filepath.Join(root, "usr", "lib", "postgresql", "*", "bin", "postgres"))
	if err != nil || len(bins) == 0 {
		t.Fatalf("the root has no PostgreSQL (%v)", err)
	}
	bin := strings.TrimPrefix(filepath.Dir(bins[0]), root)
	script := fmt.Sprintf(`set -e
echo %s > /tmp/password
%s/initdb -D /tmp/pg -U %s --pwfile=/tmp/password --auth-host=scram-sha-256 --auth-local=trust -E UTF8 >/dev/null
echo "CREATE DATABASE %s" | %s/postgres --single -D /tmp/pg postgres >/dev/null
exec %s/postgres -D /tmp/pg -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp -p 5432`,
		postgresPassword, bin, postgresUser, postgresUser, bin, bin)
	startService(t, root, network, "postgres", script, "127.0.0.1:5432")
}

// StartRedis runs Debian's Redis in the network namespace on 127.0.0.1:6379 with a password,
// in memory: a stand-in of the cache storage.kv names.
func StartRedis(t testing.TB, root string, network *Network, password string) {
	t.Helper()
	startService(t, root, network, "redis",
		"exec redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --requirepass "+quote(password), "127.0.0.1:6379")
}

// startService runs a script as a user of the root, in a view of its own in the network
// namespace, and waits until it listens at addr.
func startService(t testing.TB, root string, network *Network, user, script, addr string) {
	t.Helper()
	dir := t.TempDir()
	view := filepath.Join(dir, "root")
	lines := append(viewOf(root, view), "exec chroot --userspec="+user+":"+user+" "+quote(view)+" /bin/sh -c "+quote(script))
	cmd := exec.Command("nsenter", "--net="+network.Path, "--",
		"unshare", "--mount", "--propagation", "private", "--fork", "--kill-child", "/bin/sh", "-c", strings.Join(lines, "\n"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	output, err := os.Create(filepath.Join(dir, "output"))
	if err != nil {
		t.Fatal(err)
	}
	defer output.Close()
	cmd.Stdout, cmd.Stderr = output, output
	said := func() string { data, _ := os.ReadFile(output.Name()); return string(data) }
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", user, err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-exited })
	deadline := time.After(time.Minute)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-exited:
			t.Fatalf("%s stopped: %s", user, said())
		case <-deadline:
			t.Fatalf("%s does not listen at %s after a minute: %s", user, addr, said())
		case <-tick.C:
			err := network.inside(func() error {
				conn, err := net.DialTimeout("tcp", addr, time.Second)
				if err == nil {
					conn.Close()
				}
				return err
			})
			if err == nil {
				return
			}
		}
	}
}
