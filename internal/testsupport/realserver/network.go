// SPDX-License-Identifier: Apache-2.0

package realserver

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Network is a network namespace with nothing but its loopback: the server runs in it, and so do
// the test's stand-ins of the services a config names (an OpenAI-compatible endpoint, an OIDC
// issuer's keys). The server's port is 127.0.0.1's of this namespace only, so servers of several
// tests listen on their real port side by side and reach nothing outside.
type Network struct {
	// Path is the namespace's file, for nsenter --net.
	Path   string
	holder *exec.Cmd
}

// NewNetwork makes a network namespace, held by a process that the test's cleanup ends.
func NewNetwork(t testing.TB) *Network {
	t.Helper()
	holder := exec.Command("unshare", "--net", "--fork", "--kill-child", "/bin/sh", "-c",
		"ip link set lo up && echo up && exec sleep 86400")
	holder.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	holder.Stderr = os.Stderr
	if err := holder.Start(); err != nil {
		t.Fatalf("making a network namespace: %v", err)
	}
	t.Cleanup(func() {
		_ = syscall.Kill(-holder.Process.Pid, syscall.SIGKILL)
		_ = holder.Wait()
	})
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "up\n" {
		t.Fatalf("making a network namespace: its loopback did not come up (%q, %v)", line, err)
	}
	// unshare, the holder's first process, made the namespace for itself before it forked.
	return &Network{Path: "/proc/" + strconv.Itoa(holder.Process.Pid) + "/ns/net", holder: holder}
}

// inside runs f on an OS thread that has entered the namespace; the thread is not returned to
// the Go scheduler (its goroutine ends locked), so nothing else runs in the namespace by mistake.
// A socket made by f stays in the namespace whichever thread uses it afterwards.
func (n *Network) inside(f func() error) error {
	errs := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		ns, err := os.Open(n.Path)
		if err != nil {
			errs <- err
			return
		}
		defer ns.Close()
		if err := unix.Setns(int(ns.Fd()), unix.CLONE_NEWNET); err != nil {
			errs <- fmt.Errorf("entering the network namespace: %w", err)
			return
		}
		errs <- f()
	}()
	return <-errs
}

// Listen listens on 127.0.0.1 of the namespace, on a free port.
func (n *Network) Listen(t testing.TB) net.Listener {
	t.Helper()
	var l net.Listener
	err := n.inside(func() (err error) {
		l, err = net.Listen("tcp", "127.0.0.1:0")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	return l
}

// Client is an HTTP client whose connections are made in the namespace.
func (n *Network) Client() *http.Client {
	dialer := &net.Dialer{Timeout: 5 * time.Second}
	transport := &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (conn net.Conn, err error) {
			err = n.inside(func() (err error) {
				conn, err = dialer.DialContext(ctx, network, addr)
				return err
			})
			return conn, err
		},
		DisableKeepAlives: true,
	}
	return &http.Client{Transport: transport, Timeout: 30 * time.Second}
}
