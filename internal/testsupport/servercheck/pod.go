// SPDX-License-Identifier: Apache-2.0

package servercheck

import (
	"fmt"
	"slices"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/configyaml"
)

// PodOf is the pod a container of a rendered Deployment of a server version gets: its variables
// as the kubelet expands them, a fixture value for each Secret variable (FixtureEnv) and for
// each variable llsd's launcher sets at start from them, the home its HOME names (else "/": the
// official images' user has no passwd entry) and its writable volume mounts. A variable the pod
// does not set is unset, also one named LLSD_*: the real server showed an earlier oracle wrong
// that gave every LLSD_*_PORT a number (TestTheRealServerRefusesABrokenConfig).
func PodOf(version string, c corev1.Container) Pod {
	fixture := FixtureEnv(nil)
	values := KubeletEnv(c, func(name string) string {
		if v := fixture(name); v != "" {
			return v
		}
		return "fixture-secret"
	})
	var writable []string
	for _, m := range c.VolumeMounts {
		if !m.ReadOnly {
			writable = append(writable, m.MountPath)
		}
	}
	home := values["HOME"]
	if home == "" {
		home = "/"
	}
	for input, outputs := range launcherVariables {
		if _, ok := values[input]; ok {
			for _, name := range outputs {
				values[name] = fixture(name)
			}
		}
	}
	getenv := func(name string) string { return values[name] }
	return Pod{Getenv: getenv, Home: home, Writable: writable, Insecure: EntrypointPassesInsecure(version, c) || commandPassesInsecure(c)}
}

// launcherVariables are the variables llsd's launcher (internal/config/launcher.py) sets from
// each of its inputs before it starts the server.
var launcherVariables = map[string][]string{
	"LLSD_STORAGE_SQL_CONNECTION_STRING": {
		"LLSD_STORAGE_SQL_HOST", "LLSD_STORAGE_SQL_PORT", "LLSD_STORAGE_SQL_DB", "LLSD_STORAGE_SQL_USER", "LLSD_STORAGE_SQL_PASSWORD",
		"LLSD_STORAGE_PG_HOST", "LLSD_STORAGE_PG_PORT", "LLSD_STORAGE_PG_DB", "LLSD_STORAGE_PG_USER", "LLSD_STORAGE_PG_PASSWORD",
	},
	"LLSD_STORAGE_KV_PASSWORD": {"LLSD_STORAGE_KV_HOST"},
}

// ogxEntrypoint is the OGX images' entrypoint (containers/Containerfile).
const ogxEntrypoint = "/usr/local/bin/ogx-entrypoint.sh"

// EntrypointPassesInsecure reports whether the container starts the server through the OGX
// image's entrypoint (as its command, or after llsd's launcher) of a version whose entrypoint
// passes --insecure: every 1.3 image's and later, and 1.2's from 1.2.1
// (containers/Containerfile:212@v1.2.1; 1.2.0's does not). The server version decides which
// entrypoint the image has; the tag tells 1.2.1 from 1.2.0 only where it is a version (a
// mirror's date tag is not: it is taken for the stricter 1.2.0). The real server showed the
// tag alone misleads: a 0.7 mirror tagged 2026.04 read as a 2026 entrypoint, and 0.7's
// command line refuses --insecure.
func EntrypointPassesInsecure(version string, c corev1.Container) bool {
	if len(c.Command) > 0 && !slices.Contains(c.Command, ogxEntrypoint) {
		return false
	}
	var vMajor, vMinor int
	if _, err := fmt.Sscanf(version, "%d.%d", &vMajor, &vMinor); err != nil || vMajor < 1 || vMajor == 1 && vMinor < 2 {
		return false
	}
	if vMajor > 1 || vMinor > 2 {
		return true
	}
	ref, _, _ := strings.Cut(c.Image, "@")
	i := strings.LastIndex(ref, ":")
	if i < strings.LastIndex(ref, "/") {
		return false
	}
	var major, minor, patch int
	if n, _ := fmt.Sscanf(strings.TrimPrefix(ref[i+1:], "v"), "%d.%d.%d", &major, &minor, &patch); n < 3 || major != 1 || minor != 2 {
		return false
	}
	return patch >= 1
}

// commandPassesInsecure reports whether the container's own command runs the server with
// --insecure (OpenShift AI's OGX images are started so).
func commandPassesInsecure(c corev1.Container) bool {
	return slices.Contains(c.Command, "--insecure") || slices.Contains(c.Args, "--insecure")
}

// CheckDeployment checks a rendered server as it starts: config.yaml (the content of the
// generated ConfigMap) read by the server container of dep, against the strict schema of the
// server version and its start-up rules.
func CheckDeployment(version string, config []byte, dep *appsv1.Deployment, container string) ([]Problem, error) {
	cfg, err := configyaml.UnmarshalMap(config)
	if err != nil {
		return nil, err
	}
	for _, c := range dep.Spec.Template.Spec.Containers {
		if c.Name != container {
			continue
		}
		pod := PodOf(version, c)
		expanded, err := readAsServer(version, cfg, pod.Getenv, pod.Home)
		if err == nil {
			err = validateExpanded(version, expanded)
		}
		if err != nil { // the server's verdict, a problem of the config: not a failure of the check
			return []Problem{{Rule: "schema", Message: err.Error()}}, nil //nolint:nilerr // the error is the result
		}
		return Startup(version, cfg, pod), nil
	}
	return nil, fmt.Errorf("the Deployment %s has no container %s", dep.Name, container)
}
