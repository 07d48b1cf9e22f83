// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"fmt"
	"io"
	"slices"

	"github.com/kptdev/krm-functions-sdk/go/fn"

	"github.com/llamastack/llsd/internal/krm"
	"github.com/llamastack/llsd/internal/version"
)

var functionDoc = `llsd: render LlamaStackDistributions into the objects of a llama-stack server

Overview

llsd renders LlamaStackDistributions (llamastack.io/v1alpha1 and v1alpha2), and the successor
operator's OGXServers, into the objects that run a llama-stack server: the canonical object with
a render receipt, an immutable ConfigMap with the generated config.yaml, ServiceAccount, PVC,
Deployment, Service, Ingress or Route, NetworkPolicy, HPA, PDB, ServiceMonitor and
PrometheusRule, as the spec asks. A config the server would refuse, or objects the API server
would, are errors with the object and field path; what works but surprises is a warning.
Objects llsd generated before are replaced, so running it on its own output changes nothing.

Usage

Transformer mode: LlamaStackDistributions are items (kpt fn render, kustomize transformers:).
Generator mode: the function config is a LlamaStackDistribution (kustomize generators:).
Other items pass through; llsd reads the ConfigMaps, InferenceServices, LLMInferenceServices,
ServingRuntimes and Gateways a LlamaStackDistribution names. The exit code is 1 on an error.

  # Kptfile
  pipeline:
    mutators:
      - image: ghcr.io/llamastack/llsd:<release>   # or exec: llsd (on PATH), with --allow-exec

A release vX.Y.Z's image is also tagged vX.Y and vX, which later releases move: image:
ghcr.io/llamastack/llsd:v1 follows a major version, and a kpt that reads a function's tag:
(1.0.0-beta.61.1 and later) takes a semver constraint, tag: "~1.2".

FunctionConfig

Optional: a RenderOptions,

  apiVersion: fn.llamastack.io/v1alpha1
  kind: RenderOptions
  metadata: {name: llsd}
  spec:
    imageOverrides: {starter: registry.internal/llamastack/distribution-starter:0.7.1}
    ingress: {className: nginx, domain: apps.example.com, controllerNamespace: ingress-nginx}
    registry: {enabled: true, insecureHosts: ["registry.lab:5000"]}

or a ConfigMap whose data keys are the options (data: {platform: openshift}). The options, with
the environment variable that sets each on top and its ConfigMap key:

` + krm.OptionsHelp() + `
registry.enabled reads base configs from the distribution images' labels (written by
llsd label-image), cached by digest in $LLSD_CACHE_DIR or ~/.cache/llsd/oci. Off by default:
without it llsd never touches the network. Under kustomize's container mode the function
needs network: true in its container spec.

Examples

  apiVersion: llamastack.io/v1alpha2
  kind: LlamaStackDistribution
  metadata: {name: chat, namespace: ai}
  spec:
    distribution: {name: starter}
    providers:
      inference: {provider: vllm, endpoint: "http://vllm.models.svc:8000/v1"}
    resources: {models: [meta-llama/Llama-3.2-3B-Instruct]}

  kpt fn eval --image ghcr.io/llamastack/llsd:<release> .   # render a package once
  kpt fn render .                                            # the Kptfile's pipeline

More: https://github.com/llamastack/llsd (examples/ and docs/).
`

// kptPackagePath is the annotation kpt fn render gives every item of a package.
const kptPackagePath = "internal.config.kubernetes.io/package-path"

// krmFunction runs llsd as a KRM function. Every result, warnings too, is also printed on
// stderr, one line each naming the file and the object: kustomize drops the results of a
// function that succeeds, and shows its stderr. kpt shows the results, so under kpt they are
// not printed again.
func krmFunction(stdin io.Reader, stdout, stderr io.Writer) int {
	krm.Prepare()
	p := krm.Processor{Version: version.Get(), Entries: &krm.Entries{}}
	report := fn.ResourceListProcessorFunc(func(rl *fn.ResourceList) (bool, error) {
		underKpt := slices.ContainsFunc(rl.Items, func(o *fn.KubeObject) bool { return o.GetAnnotation(kptPackagePath) != "" })
		ok, err := p.Process(rl)
		if !underKpt { // kpt shows the results itself: on stderr too, each would be said twice
			report(rl.Results, "llsd: ", stderr)
		}
		return ok, err
	})
	// krm.Run (fn.Run with a faster writer), not fn.Execute: Execute (SDK v1.1.1) fails on a
	// ResourceList without a functionConfig ("expected exactly one object, got 0"), which kpt
	// fn render sends. krm.Run reads the input within CheckInput's bounds.
	input, err := readLimited(stdin)
	if err != nil {
		fmt.Fprintln(stderr, "llsd: reading the ResourceList:", err)
		return 1
	}
	if err := krm.Run(report, input, stdout, p.Entries); err != nil {
		if err.Error() != "error: function failure" { // the results are printed above
			fmt.Fprintln(stderr, "llsd:", err)
		}
		return 1
	}
	return 0
}
