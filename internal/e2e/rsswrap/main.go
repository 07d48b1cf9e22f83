// SPDX-License-Identifier: Apache-2.0

// Command rsswrap runs a command with its standard streams and reports the command's peak
// resident memory: rsswrap FILE COMMAND [ARGS...] writes the peak in KB to FILE and exits
// with the command's code. A benchmark cannot read it from its own children: Go starts them
// with vfork, so the kernel counts the parent's memory in theirs. This process is small (a
// few MB), below any function measured.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: rsswrap FILE COMMAND [ARGS...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "rsswrap:", err)
		os.Exit(2)
	}
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if err := os.WriteFile(os.Args[1], []byte(fmt.Sprint(peak)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "rsswrap:", err)
		os.Exit(2)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
