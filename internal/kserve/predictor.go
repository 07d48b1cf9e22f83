// SPDX-License-Identifier: Apache-2.0

// Package kserve derives, from a KServe InferenceService and its ServingRuntime, what a
// llama-stack vllm provider needs to call it: the URL of its OpenAI API, the model it serves
// and its context length, and whether OpenShift AI's proxy asks for a token. Each fact names
// the field it came from. The rules follow KServe's and OpenShift AI's controllers:
//
//   - the predictor's Service is <isvc>-predictor (<isvc>-<predictor name>-predictor when
//     the predictor is named, <isvc>-transformer when a transformer is the entry point):
//     constants.PredictorServiceName and getRawServiceHost (kserve/kserve, opendatahub-io/kserve);
//   - the deployment mode is the serving.kserve.io/deploymentMode annotation, Standard
//     (RawDeployment) when unset (constants.DefaultDeployment); its Service answers on port 80
//     (constants.CommonDefaultHttpPort), Knative's through the local gateway on 80 too;
//   - with security.opendatahub.io/enable-auth: "true" in Standard mode, OpenShift AI puts
//     kube-rbac-proxy in front on https port 8443 (constants.OauthProxyPort) with a certificate
//     of the OpenShift service CA, and admits a token allowed to get the InferenceService
//     (the SubjectAccessReview of the <isvc>-kube-rbac-proxy-sar-config ConfigMap);
//   - OpenShift AI's vLLM runtimes run vllm.entrypoints.openai.api_server with
//     --served-model-name={{.Name}} (the InferenceService's name), their OpenAI API under /v1
//     (odh-model-controller config/runtimes/vllm); KServe's Hugging Face runtime serves
//     --model_name={{.Name}} with its OpenAI API under /openai/v1 (config/runtimes/
//     kserve-huggingfaceserver.yaml, python/kserve/.../openai/endpoints.py).
package kserve

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Annotations and values of KServe and OpenShift AI.
const (
	DeploymentModeAnnotation = "serving.kserve.io/deploymentMode"
	EnableAuthAnnotation     = "security.opendatahub.io/enable-auth"
	// ProxyPort is OpenShift AI's kube-rbac-proxy port before a token-protected predictor.
	ProxyPort = 8443

	inferenceServices = "inferenceservices"
)

// Predictor is what a vllm provider needs to call an InferenceService.
type Predictor struct {
	// BaseURL is the provider's base_url: the OpenAI API of the entry point.
	BaseURL string
	// Knative is true for a predictor of Knative (Serverless) mode, false for Standard.
	Knative bool
	// TokenProtected is true when OpenShift AI admits only a token allowed to get the model
	// (its proxy before an InferenceService, its gateway's AuthPolicy before an
	// LLMInferenceService); Resource is the model's resource the token must be allowed to get.
	TokenProtected bool
	Resource       string
	// ServiceCA is true when the entry point's certificate comes from OpenShift's service CA.
	ServiceCA bool
	// ModelName is the model the runtime serves, by the name requests give; Aliases are other
	// names it answers to.
	ModelName string
	Aliases   []string
	// ContextLength is the runtime's --max-model-len, 0 when it sets none.
	ContextLength int32
	// Embedding is true when the runtime serves an embedding (pooling) model.
	Embedding bool
	// Facts say where each of the above came from, for messages and docs.
	Facts []Fact
	// Assumed are what llsd could not read and took KServe's default for.
	Assumed []string
}

// Fact is one derived value and the field it came from.
type Fact struct{ What, From string }

// Runtimes finds a ServingRuntime of a namespace by name, nil when it is not among the inputs.
type Runtimes func(namespace, name string) map[string]any

// Derive reads an InferenceService (as decoded YAML) and its ServingRuntime.
func Derive(isvc map[string]any, runtimes Runtimes) (Predictor, error) {
	u := unstructured.Unstructured{Object: isvc}
	name, namespace := u.GetName(), u.GetNamespace()
	var p Predictor
	predictorName, _, _ := unstructured.NestedString(isvc, "spec", "predictor", "name")
	if err := dnsLabels("metadata.name", name, "metadata.namespace", namespace, "spec.predictor.name", predictorName); err != nil {
		return p, err
	}
	mode, err := deploymentMode(u.GetAnnotations()[DeploymentModeAnnotation])
	if err != nil {
		return p, err
	}
	p.Knative = mode == "Knative"
	if _, ok := u.GetAnnotations()[DeploymentModeAnnotation]; ok {
		p.fact("the deployment mode ("+mode+")", "metadata.annotations["+DeploymentModeAnnotation+"]")
	} else {
		p.Assumed = append(p.Assumed, "the deployment mode Standard (KServe's default; the cluster's inferenceservice-config may say otherwise: "+
			"set the annotation "+DeploymentModeAnnotation+")")
	}
	entry, from := entryService(isvc, name)
	host := serviceHost(entry, namespace)
	p.fact("the host "+host, from)
	authOn := strings.EqualFold(u.GetAnnotations()[EnableAuthAnnotation], "true")
	transformer := hasKey(isvc, "spec", "transformer")
	scheme, port := "http", ""
	switch {
	case authOn && !p.Knative && !transformer && namespace == "":
		return p, fmt.Errorf("%w: its proxy serves https with a certificate that names the Service %s with its namespace", ErrNoNamespace, entry)
	case authOn && !p.Knative && !transformer:
		scheme, port = "https", ":"+strconv.Itoa(ProxyPort)
		p.TokenProtected, p.ServiceCA, p.Resource = true, true, inferenceServices
		p.fact("https on port 8443 with a token, the service CA's certificate", "metadata.annotations["+EnableAuthAnnotation+"]")
	case authOn:
		p.TokenProtected, p.Resource = true, inferenceServices
		p.fact("a token", "metadata.annotations["+EnableAuthAnnotation+"]")
	}
	server := p.server(isvc, runtimes)
	p.BaseURL = scheme + "://" + host + port + p.apiPath(server)
	p.modelName(server, name)
	p.servingArgs(server.args, "the runtime's")
	return p, nil
}

// servingArgs reads vLLM's arguments for the context length and an embedding model.
func (p *Predictor) servingArgs(args []string, whose string) {
	if v := flagValue(args, "--max-model-len", "--max_model_len"); v != "" {
		if n, err := strconv.ParseInt(v, 10, 32); err == nil && n > 0 {
			p.ContextLength = int32(n)
			p.fact("the context length "+v, whose+" --max-model-len")
		}
	}
	if task := flagValue(args, "--task", "--runner", "--convert"); task == "embed" || task == "embedding" || task == "pooling" {
		p.Embedding = true
		p.fact("an embedding model", whose+" "+task)
	}
}

// Serves reports whether the model server answers to name.
func (p Predictor) Serves(name string) bool {
	return name == p.ModelName || slices.Contains(p.Aliases, name)
}

func (p *Predictor) fact(what, from string) { p.Facts = append(p.Facts, Fact{What: what, From: from}) }

// deploymentMode normalizes the annotation as KServe's ParseDeploymentMode does.
func deploymentMode(annotation string) (string, error) {
	switch annotation {
	case "", "Standard", "RawDeployment":
		return "Standard", nil
	case "Knative", "Serverless":
		return "Knative", nil
	}
	return "", fmt.Errorf("deployment mode %q serves no OpenAI API llsd can call (Standard, RawDeployment, Knative or Serverless do)", annotation)
}

// entryService is the Service requests enter by, and the field that says so.
func entryService(isvc map[string]any, name string) (service, from string) {
	if hasKey(isvc, "spec", "transformer") {
		return name + "-transformer", "spec.transformer"
	}
	if predictor, _, _ := unstructured.NestedString(isvc, "spec", "predictor", "name"); predictor != "" {
		return name + "-" + predictor + "-predictor", "spec.predictor.name"
	}
	return name + "-predictor", "metadata.name"
}

// server is the predictor's model server as its runtime runs it.
type server struct {
	// args are its command and arguments, KServe's placeholders filled, then the
	// InferenceService's own.
	args []string
	// image is the runtime container's image.
	image string
	// known is false when the runtime is not among the inputs.
	known bool
}

// server reads the predictor's container (its own, or its ServingRuntime's).
func (p *Predictor) server(isvc map[string]any, runtimes Runtimes) server {
	u := unstructured.Unstructured{Object: isvc}
	own, _, _ := unstructured.NestedStringSlice(isvc, "spec", "predictor", "model", "args")
	if containers, ok, _ := unstructured.NestedSlice(isvc, "spec", "predictor", "containers"); ok && len(containers) > 0 {
		return containerServer(containers[0], u, nil)
	}
	runtimeName, _, _ := unstructured.NestedString(isvc, "spec", "predictor", "model", "runtime")
	var runtime map[string]any
	if runtimeName != "" && runtimes != nil {
		runtime = runtimes(u.GetNamespace(), runtimeName)
	}
	containers, _, _ := unstructured.NestedSlice(runtime, "spec", "containers")
	if len(containers) == 0 {
		what := "the runtime"
		if runtimeName != "" {
			what = "ServingRuntime " + runtimeName
		}
		p.Assumed = append(p.Assumed, what+" (not among the inputs): OpenShift AI's vLLM runtime, serving the InferenceService's name under /v1")
		return server{args: own}
	}
	return containerServer(containers[0], u, own)
}

// containerServer reads a container of a runtime or a predictor, own args after its own.
func containerServer(container any, isvc unstructured.Unstructured, own []string) server {
	c, _ := container.(map[string]any)
	command, _, _ := unstructured.NestedStringSlice(c, "command")
	args, _, _ := unstructured.NestedStringSlice(c, "args")
	image, _, _ := unstructured.NestedString(c, "image")
	s := server{image: image, known: true}
	for _, a := range slices.Concat(command, args, own) {
		a = strings.ReplaceAll(a, "{{.Name}}", isvc.GetName())
		s.args = append(s.args, strings.ReplaceAll(a, "{{.Namespace}}", isvc.GetNamespace()))
	}
	return s
}

// apiPath is where the server answers the OpenAI API: /openai/v1 for KServe's Hugging Face
// server, /v1 for vLLM's.
func (p *Predictor) apiPath(s server) string {
	huggingFace := strings.Contains(s.image, "huggingfaceserver") ||
		slices.ContainsFunc(s.args, func(a string) bool { return strings.HasPrefix(a, "--model_name") })
	switch {
	case huggingFace:
		p.fact("the OpenAI API under /openai/v1", "the runtime: KServe's Hugging Face server")
		return "/openai/v1"
	case s.known:
		p.fact("the OpenAI API under /v1", "the runtime: vLLM's OpenAI server")
	}
	return "/v1"
}

// modelName is the name the server serves the model by: --served-model-name (vLLM) or
// --model_name (KServe's Hugging Face server), else vLLM's --model, else the
// InferenceService's name, which OpenShift AI's and KServe's runtimes pass as {{.Name}}.
func (p *Predictor) modelName(s server, isvcName string) {
	if v := flagValue(s.args, "--served-model-name", "--model_name"); v != "" {
		p.ModelName = strings.Fields(v)[0]
		p.fact("the model name "+p.ModelName, "the runtime's --served-model-name")
		return
	}
	if v := flagValue(s.args, "--model"); v != "" && s.known {
		p.ModelName = v // vLLM serves a model under its path when no name is given
		p.fact("the model name "+v, "the runtime's --model (no --served-model-name)")
		return
	}
	p.ModelName = isvcName
	p.fact("the model name "+isvcName, "metadata.name")
}

// flagValue is the value of the last of flags in args (--flag=value or --flag value).
func flagValue(args []string, flags ...string) string {
	value := ""
	for i, a := range args {
		for _, f := range flags {
			switch {
			case strings.HasPrefix(a, f+"="):
				value = strings.TrimPrefix(a, f+"=")
			case a == f && i+1 < len(args):
				value = args[i+1]
			}
		}
	}
	return value
}

// dnsLabels refuses a name (of field, value pairs; an empty one is unset) that goes into a
// host and is no DNS label, as Kubernetes would refuse the object. The names come from the
// package, which nothing has validated yet: one holding '#', '@' or '/' would send the server,
// and the token it sends, to another host.
func dnsLabels(fieldsAndValues ...string) error {
	for i := 0; i+1 < len(fieldsAndValues); i += 2 {
		field, value := fieldsAndValues[i], fieldsAndValues[i+1]
		if errs := validation.IsDNS1123Label(value); value != "" && len(errs) > 0 {
			return fmt.Errorf("%s %q is no DNS label, and it names a host: %s", field, value, strings.Join(errs, "; "))
		}
	}
	return nil
}

// ErrNoNamespace is a model whose address needs the namespace it runs in, which neither it nor
// the server names (a GitOps package that leaves the namespace to the tool that applies it).
var ErrNoNamespace = errors.New("it names no namespace, and its address needs one")

// serviceHost is the host of a Service: in full with its namespace, or by its short name when
// the namespace is left to the tool that applies the package (the server's own namespace,
// which its pod's DNS search path resolves).
func serviceHost(service, namespace string) string {
	if namespace == "" {
		return service
	}
	return service + "." + namespace + ".svc.cluster.local"
}

// hasKey reports whether obj has a value at path.
func hasKey(obj map[string]any, path ...string) bool {
	_, ok, _ := unstructured.NestedFieldNoCopy(obj, path...)
	return ok
}
