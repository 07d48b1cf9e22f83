// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"fmt"

	"github.com/llamastack/llsd/pkg/api"
)

// Decode reads what a user writes, shorthand included, into the canonical v1alpha2 object;
// a mistake is an error with its field path and the fix.
func ExampleDecode() {
	obj, errs := api.Decode([]byte(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpoint: http://vllm:8000/v1}
  resources:
    models: [llama3]
`))
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	p := obj.Spec.Providers.Inference[0]
	fmt.Println(p.Provider, p.Endpoint)
	fmt.Println(obj.Spec.Resources.Models[0].Name)

	_, errs = api.Decode([]byte(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat}
spec:
  distribution: {name: starter}
  providers:
    inference: {provider: vllm, endpont: http://vllm:8000/v1}
`))
	fmt.Println(errs)
	// Output:
	// vllm http://vllm:8000/v1
	// llama3
	// [spec.providers.inference[0].endpont: Unsupported value: unknown field "endpont" (did you mean endpoint?): a provider has id, provider, endpoint, apiKey, secretRefs and settings; put other config keys under settings and credentials under secretRefs]
}
