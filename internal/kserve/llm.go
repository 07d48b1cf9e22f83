// SPDX-License-Identifier: Apache-2.0

package kserve

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// An LLMInferenceService (llm-d on KServe) is reached two ways, as KServe's controller
// (opendatahub-io/kserve pkg/controller/v1alpha2/llmisvc) sets them up:
//
//   - with spec.router.route (the route KServe writes, config-llm-router-route.yaml), through
//     the Gateway, under /<namespace>/<name>/v1, where llm-d's scheduler picks the replica;
//     the Gateway is spec.router.gateway.refs[0], else the cluster's ingress gateway
//     (inferenceservice-config's kserveIngressGateway: openshift-ingress/openshift-ai-inference
//     on OpenShift AI). Istio, OpenShift's gateway controller too, names a Gateway's Service
//     <gateway>-<gatewayClassName>.
//   - otherwise by its workload Service <name>-kserve-workload-svc on port 8000 (workload.go),
//     the address KServe writes in its status (router.go updateRoutingStatus), https when the
//     cluster enables enableLLMInferenceServiceTLS, as OpenShift AI does, with a certificate
//     its service CA signs (workload_tls_cert_odh.go).
//
// On OpenShift AI the route is token-protected unless security.opendatahub.io/enable-auth is
// "false": an AuthPolicy on the HTTPRoute reviews the token and asks whether it may get the
// llminferenceservice named by the path (odh-model-controller
// authpolicy_llm_isvc_userdefined.yaml, authpolicy.go Detect). vLLM serves spec.model.name,
// defaulted to the object's name (llm_inference_service_defaults.go), and
// publishers/<namespace>/models/<model name> (config-llm-template.yaml), and each LoRA adapter
// of spec.model.lora by its name (--lora-modules, workload_lora.go).

const (
	workloadPort         = 8000
	llmInferenceServices = "llminferenceservices"
)

// The ingress gateways KServe routes through when spec.router.gateway names none.
var (
	openShiftAIGateway = gatewayRef{namespace: "openshift-ingress", name: "openshift-ai-inference", class: "openshift-default"}
	kserveGateway      = gatewayRef{namespace: "kserve", name: "kserve-ingress-gateway"}
)

type gatewayRef struct{ namespace, name, class string }

// Gateways finds a Gateway (gateway.networking.k8s.io) of a namespace by name, nil when it is
// not among the inputs.
type Gateways func(namespace, name string) map[string]any

// Cluster is what llsd knows of the cluster the model runs on.
type Cluster struct {
	// OpenShiftAI is true when OpenShift AI's (or Open Data Hub's) controllers serve it.
	OpenShiftAI bool
	Gateways    Gateways
}

// DeriveLLM reads an LLMInferenceService (as decoded YAML).
func DeriveLLM(llm map[string]any, cluster Cluster) (Predictor, error) {
	u := unstructured.Unstructured{Object: llm}
	name, namespace := u.GetName(), u.GetNamespace()
	if err := dnsLabels("metadata.name", name, "metadata.namespace", namespace); err != nil {
		return Predictor{}, err
	}
	auth, annotated := u.GetAnnotations()[EnableAuthAnnotation]
	openShiftAI := cluster.OpenShiftAI || annotated
	var p Predictor
	model, _, _ := unstructured.NestedString(llm, "spec", "model", "name")
	p.ModelName = cmp.Or(model, name)
	p.Aliases = []string{"publishers/" + namespace + "/models/" + p.ModelName}
	p.Aliases = append(p.Aliases, loraAdapters(llm)...)
	if model != "" {
		p.fact("the model name "+model, "spec.model.name")
	} else {
		p.fact("the model name "+name, "metadata.name (spec.model.name unset)")
	}
	gateway, ok, err := p.gateway(llm, cluster, openShiftAI)
	if err != nil {
		return Predictor{}, err
	}
	if ok && namespace == "" {
		return Predictor{}, fmt.Errorf("%w: its gateway routes it by its namespace and name", ErrNoNamespace)
	}
	if ok {
		p.BaseURL = gateway + "/" + namespace + "/" + name + "/v1"
		if openShiftAI && !strings.EqualFold(strings.TrimSpace(auth), "false") {
			p.TokenProtected, p.Resource = true, llmInferenceServices
			p.fact("a token allowed to get the LLMInferenceService", "OpenShift AI's AuthPolicy on the route (metadata.annotations["+
				EnableAuthAnnotation+"] is not \"false\")")
		}
	} else {
		host := serviceHost(name+"-kserve-workload-svc", namespace) + ":" + strconv.Itoa(workloadPort)
		scheme := "http"
		if openShiftAI && namespace == "" {
			return Predictor{}, fmt.Errorf("%w: its workload Service serves https with a certificate that names it with its namespace", ErrNoNamespace)
		}
		if openShiftAI {
			scheme, p.ServiceCA = "https", true
			p.fact("https with the service CA's certificate", "OpenShift AI: enableLLMInferenceServiceTLS")
		}
		p.BaseURL = scheme + "://" + host + "/v1"
		p.fact("the workload Service "+host, "metadata.name")
	}
	p.servingArgs(mainArgs(llm), "spec.template's")
	return p, nil
}

// gateway is the scheme and host of the Gateway a routed LLMInferenceService is reached
// through, false when it has no route KServe writes, or llsd cannot name the Gateway's
// Service (then the workload Service serves, and Assumed says what that skips); an error when
// the Gateway's names are no DNS labels.
func (p *Predictor) gateway(llm map[string]any, cluster Cluster, openShiftAI bool) (string, bool, error) {
	if !hasKey(llm, "spec", "router", "route") {
		return "", false, nil
	}
	if refs, _, _ := unstructured.NestedSlice(llm, "spec", "router", "route", "http", "refs"); len(refs) > 0 {
		p.Assumed = append(p.Assumed, "the workload Service, as spec.router.route.http.refs names HTTPRoutes of your own, "+
			"which llsd does not follow (set endpoint to the URL they give to go through them)")
		return "", false, nil
	}
	if hasKey(llm, "spec", "router", "route", "http", "spec") {
		p.Assumed = append(p.Assumed, "the workload Service, as spec.router.route.http.spec writes the route's rules, "+
			"whose paths llsd does not follow (set endpoint to the URL they give to go through the gateway)")
		return "", false, nil
	}
	ref, from := gatewayOf(llm, openShiftAI)
	var gw map[string]any
	if cluster.Gateways != nil {
		gw = cluster.Gateways(ref.namespace, ref.name)
	}
	if gw != nil {
		ref.class, _, _ = unstructured.NestedString(gw, "spec", "gatewayClassName")
		if err := dnsLabels(from+".name", ref.name, from+".namespace", ref.namespace, "its Gateway's spec.gatewayClassName", ref.class); err != nil {
			return "", false, err
		}
		scheme, port := listener(gw)
		host := serviceHost(ref.name+"-"+ref.class, ref.namespace) + port
		p.fact("the Gateway's Service "+host, from+" and its spec.gatewayClassName, as Istio names the Service of a Gateway")
		if ref.class != "istio" && ref.class != openShiftAIGateway.class {
			p.Assumed = append(p.Assumed, "that GatewayClass "+ref.class+" names its Services as Istio does ("+host+")")
		}
		if scheme == "https" {
			p.Assumed = append(p.Assumed, "that the server trusts the certificate of the Gateway's https listener (networking.tls.caBundle)")
		}
		return scheme + "://" + host, true, nil
	}
	if ref.namespace == openShiftAIGateway.namespace && ref.name == openShiftAIGateway.name {
		host := ref.name + "-" + openShiftAIGateway.class + "." + ref.namespace + ".svc.cluster.local"
		p.fact("OpenShift AI's ingress gateway, by its Service "+host+" on http port 80", from)
		return "http://" + host, true, nil
	}
	p.Assumed = append(p.Assumed, "the workload Service, bypassing llm-d's scheduler: Gateway "+ref.namespace+"/"+ref.name+" ("+from+
		") is not among the inputs, so llsd cannot name its Service (add it to the package, or set endpoint to its URL)")
	return "", false, nil
}

// gatewayOf is the Gateway the route KServe writes attaches to, and where that came from.
func gatewayOf(llm map[string]any, openShiftAI bool) (gatewayRef, string) {
	refs, _, _ := unstructured.NestedSlice(llm, "spec", "router", "gateway", "refs")
	if len(refs) > 0 {
		ref, _ := refs[0].(map[string]any)
		name, _, _ := unstructured.NestedString(ref, "name")
		namespace, _, _ := unstructured.NestedString(ref, "namespace")
		u := unstructured.Unstructured{Object: llm}
		return gatewayRef{name: name, namespace: cmp.Or(namespace, u.GetNamespace())}, "spec.router.gateway.refs[0]"
	}
	if openShiftAI {
		return openShiftAIGateway, "OpenShift AI's kserveIngressGateway"
	}
	return kserveGateway, "KServe's kserveIngressGateway"
}

// listener is the scheme and port suffix of the Gateway's first HTTP listener, else its
// first HTTPS one, as KServe prefers the http URL scheme (urlScheme) for its own address.
func listener(gw map[string]any) (scheme, port string) {
	listeners, _, _ := unstructured.NestedSlice(gw, "spec", "listeners")
	for _, want := range []string{"HTTP", "HTTPS"} {
		for _, l := range listeners {
			m, _ := l.(map[string]any)
			if protocol, _, _ := unstructured.NestedString(m, "protocol"); protocol != want {
				continue
			}
			number := portOf(m)
			scheme = strings.ToLower(want)
			if (scheme == "http" && number != 80) || (scheme == "https" && number != 443) {
				port = ":" + strconv.FormatInt(number, 10)
			}
			return scheme, port
		}
	}
	return "http", ""
}

// portOf is a listener's port, decoded from JSON or YAML (float64) or set in Go (int64).
func portOf(listener map[string]any) int64 {
	switch n := listener["port"].(type) {
	case float64:
		return int64(n)
	case int64:
		return n
	}
	return 0
}

// loraAdapters are the names of spec.model.lora's adapters, which vLLM serves beside the model
// (--lora-modules, workload_lora.go).
func loraAdapters(llm map[string]any) []string {
	adapters, _, _ := unstructured.NestedSlice(llm, "spec", "model", "lora", "adapters")
	var names []string
	for _, a := range adapters {
		m, _ := a.(map[string]any)
		if name, _, _ := unstructured.NestedString(m, "name"); name != "" {
			names = append(names, name)
		}
	}
	return names
}

// mainArgs are the arguments of spec.template's main container, which KServe's template
// passes on to vllm serve.
func mainArgs(llm map[string]any) []string {
	containers, _, _ := unstructured.NestedSlice(llm, "spec", "template", "containers")
	for _, c := range containers {
		m, _ := c.(map[string]any)
		if name, _, _ := unstructured.NestedString(m, "name"); name == "main" {
			args, _, _ := unstructured.NestedStringSlice(m, "args")
			return args
		}
	}
	return nil
}
