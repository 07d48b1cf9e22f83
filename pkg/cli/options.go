// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/llamastack/llsd/pkg/krm"
)

// Environment variables that set render options for `llsd render`. Argo CD passes a
// plugin's env to it with the ARGOCD_ENV_ prefix, which is accepted too.
const (
	envImageOverrides      = "LLSD_IMAGE_OVERRIDES" // starter=registry/image:tag,postgres-demo=...
	envIngressClass        = "LLSD_INGRESS_CLASS"
	envIngressDomain       = "LLSD_INGRESS_DOMAIN"
	envIngressControllerNS = "LLSD_INGRESS_CONTROLLER_NAMESPACE"
	envRegistryEnabled     = "LLSD_REGISTRY_ENABLED"        // true: read base configs from image labels
	envRegistryInsecure    = "LLSD_REGISTRY_INSECURE_HOSTS" // host:port,...
)

func getenv(name string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return os.Getenv("ARGOCD_ENV_" + name)
}

// renderOptions are the RenderOptions document among the inputs (at most one), with the
// environment's settings on top.
func renderOptions(docs []document) (krm.RenderOptions, error) {
	var opts krm.RenderOptions
	found := ""
	for _, d := range docs {
		if !d.isRenderOptions() {
			continue
		}
		if found != "" {
			return opts, fmt.Errorf("two %s documents (%s and %s): keep one", krm.OptionsKind, found, d.file)
		}
		found = d.file
		o, err := krm.ParseOptions(d.raw)
		if err != nil {
			return opts, fmt.Errorf("%s: %v", d.file, err)
		}
		opts = o
	}
	if v := getenv(envImageOverrides); v != "" {
		if opts.Spec.ImageOverrides == nil {
			opts.Spec.ImageOverrides = map[string]string{}
		}
		for _, pair := range strings.Split(v, ",") {
			name, image, ok := strings.Cut(strings.TrimSpace(pair), "=")
			if !ok || name == "" || image == "" {
				return opts, fmt.Errorf("%s: %q is not name=image", envImageOverrides, pair)
			}
			opts.Spec.ImageOverrides[name] = image
		}
	}
	if v := getenv(envRegistryEnabled); v != "" {
		enabled, err := strconv.ParseBool(v)
		if err != nil {
			return opts, fmt.Errorf("%s: %q is not true or false", envRegistryEnabled, v)
		}
		opts.Spec.Registry.Enabled = enabled
	}
	if v := getenv(envRegistryInsecure); v != "" {
		for _, host := range strings.Split(v, ",") {
			opts.Spec.Registry.InsecureHosts = append(opts.Spec.Registry.InsecureHosts, strings.TrimSpace(host))
		}
	}
	for env, field := range map[string]*string{
		envIngressClass: &opts.Spec.Ingress.ClassName, envIngressDomain: &opts.Spec.Ingress.Domain,
		envIngressControllerNS: &opts.Spec.Ingress.ControllerNamespace,
	} {
		if v := getenv(env); v != "" {
			*field = v
		}
	}
	return opts, opts.Validate()
}
