// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"strings"

	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/pkg/api"
)

// Render turns one LlamaStackDistribution into its objects and its receipt: what the KRM
// function and `llsd render` write.
func ExampleRender() {
	obj, _ := api.Decode([]byte(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter, serverVersion: "0.8"}
  providers:
    inference: {provider: vllm, endpoint: http://vllm:8000/v1}
  resources:
    models: [llama3]
  networking:
    expose: {hostname: chat.example.com}
`))
	res, errs := pipeline.Render(obj, pipeline.Options{RendererVersion: "example"})
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	for _, o := range res.Objects {
		name := o.GetName()
		if prefix, _, ok := strings.Cut(name, "-config-"); ok {
			name = prefix + "-config-<10 hex of the config's sha256>"
		}
		fmt.Printf("%T %s\n", o, name)
	}
	receipt, _ := api.ReadReceipt(res.LLSD.Annotations)
	fmt.Println(receipt.Image, receipt.ServerVersion, receipt.ConfigSource)
	// Output:
	// *v1.ConfigMap chat-config-<10 hex of the config's sha256>
	// *v1.ServiceAccount chat-sa
	// *v1.Deployment chat
	// *v1.Service chat-service
	// *v1.Ingress chat-ingress
	// docker.io/ogxai/distribution-starter:0.8.0 0.8 embedded
}
