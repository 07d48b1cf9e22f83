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

// PodOf is the pod a container of a rendered Deployment gets: its variables as the kubelet
// expands them, a fixture value for each Secret variable (FixtureEnv, also for the variables
// llsd's launcher sets at start), the home its HOME names (else "/": the official images' user
// has no passwd entry) and its writable volume mounts.
func PodOf(c corev1.Container) Pod {
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
	return Pod{Getenv: FixtureEnv(values), Home: home, Writable: writable, Insecure: entrypointPassesInsecure(c) || commandPassesInsecure(c)}
}

// ogxEntrypoint is the OGX images' entrypoint (containers/Containerfile).
const ogxEntrypoint = "/usr/local/bin/ogx-entrypoint.sh"

// entrypointPassesInsecure reports whether the container starts the server through the OGX
// image's entrypoint (as its command, or after llsd's launcher) at 1.2.1 or later, whose
// entrypoint passes --insecure (containers/Containerfile:212@v1.2.1; 1.2.0's does not).
func entrypointPassesInsecure(c corev1.Container) bool {
	if len(c.Command) > 0 && !slices.Contains(c.Command, ogxEntrypoint) {
		return false
	}
	ref, _, _ := strings.Cut(c.Image, "@")
	i := strings.LastIndex(ref, ":")
	if i < strings.LastIndex(ref, "/") {
		return false
	}
	var major, minor, patch int
	if n, _ := fmt.Sscanf(strings.TrimPrefix(ref[i+1:], "v"), "%d.%d.%d", &major, &minor, &patch); n < 2 {
		return false
	}
	return major > 1 || major == 1 && (minor > 2 || minor == 2 && patch >= 1)
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
		pod := PodOf(c)
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
