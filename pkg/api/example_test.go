// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"fmt"

	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"

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

// DecodeObject reads any object llsd renders, an OGXServer too, into the canonical v1alpha2 form,
// and says what decoding found that its author may not see in it.
func ExampleDecodeObject() {
	d, errs := api.DecodeObject([]byte(`
apiVersion: ogx.io/v1beta1
kind: OGXServer
metadata: {name: chat, namespace: ai}
spec:
  distribution: {name: starter}
  network:
    policy: {egress: [{to: [{ipBlock: {cidr: 10.1.0.0/16}}]}]}
    externalAccess: {hostname: chat.example.com}
`))
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	fmt.Println(d.Object.Kind, d.Object.Name, d.Object.Spec.Networking.Egress.CIDRs)
	for _, w := range d.Warnings {
		fmt.Println(w.Field)
	}
	// Output:
	// LlamaStackDistribution chat [10.1.0.0/16]
	// spec.network.externalAccess.enabled
}

// A render's receipt travels as annotations of the LlamaStackDistribution; ReadReceipt reads
// it back, and says when an object was not rendered by llsd.
func ExampleReadReceipt() {
	receipt := api.Receipt{ConfigMap: "chat-config-0123456789", ConfigHash: "0123456789abcdef", ServerVersion: "1.3",
		ConfigSource: api.ConfigSourceEmbedded, ProviderCount: 12, ResourceCount: 3}
	read, ok := api.ReadReceipt(receipt.Annotations())
	fmt.Println(ok, read.ConfigMap, read.ServerVersion, read.ProviderCount)
	_, ok = api.ReadReceipt(map[string]string{"team": "ai"})
	fmt.Println(ok)
	// Output:
	// true chat-config-0123456789 1.3 12
	// false
}

// NamesOf names the objects a render of one LlamaStackDistribution writes, and Generates tells
// one of them from an object of the same name in another API group.
func ExampleNamesOf() {
	n := api.NamesOf("chat")
	fmt.Println(n.Deployment(), n.Service(), n.ServiceAccount(), n.NetworkPolicy())
	fmt.Println(n.Generates("v1", "Service", "chat-service"), n.Generates("serving.knative.dev/v1", "Service", "chat-service"))
	// Output:
	// chat chat-service chat-sa chat-network-policy
	// true false
}

// DecodeNode reads a document from the node a KRM function already holds (kyaml's), with the
// values kubectl reads from its text: an unquoted yes is true, as sigs.k8s.io/yaml has it.
func ExampleDecodeNode() {
	rn, err := kyaml.Parse(`
apiVersion: llamastack.io/v1alpha2
kind: LlamaStackDistribution
metadata: {name: chat}
spec:
  distribution: {name: starter}
  networking: {expose: {enabled: yes}}
`)
	if err != nil {
		fmt.Println(err)
		return
	}
	d, errs := api.DecodeNode(rn.YNode(), func() []byte { return []byte(rn.MustString()) })
	if len(errs) > 0 {
		fmt.Println(errs)
		return
	}
	fmt.Println(*d.Object.Spec.Networking.Expose.Enabled)
	// Output:
	// true
}
