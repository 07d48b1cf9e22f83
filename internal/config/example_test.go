// SPDX-License-Identifier: Apache-2.0

package config_test

import (
	"fmt"
	"strings"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/internal/configyaml"
	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/pkg/api"
)

// Generate writes the config.yaml of a LlamaStackDistribution on its distribution's base
// config: the secret stays in its Secret, the config names the variable that carries it.
func ExampleGenerate() {
	obj, _ := api.Decode([]byte(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat}
spec:
  distribution: {name: starter}
  providers:
    inference:
      provider: vllm
      endpoint: http://vllm:8000/v1
      apiKey: {secretKeyRef: {name: vllm, key: token}}
  resources:
    models: [llama3]
`))
	dist, ferr := distribution.Resolve(obj.Spec.Distribution, distribution.Options{})
	if ferr != nil {
		fmt.Println(ferr)
		return
	}
	res, errs := config.Generate(obj, dist)
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	cfg, _ := configyaml.UnmarshalMap(res.Config)
	for _, p := range cfg["providers"].(map[string]any)["inference"].([]any) {
		if p := p.(map[string]any); p["provider_id"] == "vllm" {
			c := p["config"].(map[string]any)
			fmt.Println(p["provider_type"], c["base_url"], c["api_token"])
		}
	}
	for _, e := range res.Env {
		if strings.HasPrefix(e.Name, "LLSD_") {
			fmt.Println(e.Name, "from Secret", e.ValueFrom.SecretKeyRef.Name)
		}
	}
	fmt.Println(dist.Profile)
	// Output:
	// remote::vllm http://vllm:8000/v1 ${env.LLSD_VLLM_API_KEY}
	// LLSD_VLLM_API_KEY from Secret vllm
	// OGX 1.3
}
