// SPDX-License-Identifier: Apache-2.0

package config

import _ "embed"

// launcherScript splits storage secrets at pod start; see launcher.py.
//
//go:embed launcher.py
var launcherScript []byte

// launcherNeeds records which storage secrets the launcher must split.
type launcherNeeds struct {
	postgres bool
	redis    bool
}

func (l launcherNeeds) script() []byte {
	if !l.postgres && !l.redis {
		return nil
	}
	return launcherScript
}

// StartCommand is the server container's command when the config needs the launcher: the
// image's own python3 runs the launcher, which then execs start, the command that starts the
// server as it would without the launcher (the image's entrypoint, which reads
// $RUN_CONFIG_PATH and adds opentelemetry-instrument when OTEL_* variables are set). Without
// the launcher start runs directly.
func StartCommand(launcherPath string, start []string) []string {
	return append([]string{"python3", launcherPath, "--"}, start...)
}
