// SPDX-License-Identifier: Apache-2.0

package api_test

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	utilruntime "k8s.io/apimachinery/pkg/util/runtime"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"
	"sigs.k8s.io/yaml"

	"github.com/llamastack/llsd/internal/testsupport/testenv"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
	"github.com/stretchr/testify/assert"
)

// The parity suite: for every fixture, the real kube-apiserver (with the generated CRD and
// the conversion webhook) and llsd's own decoder + validator must agree on the verdict, the
// field path and the message. That is what lets `kustomize build` fail exactly where
// `kubectl apply` would.

var k8sClient client.Client

func TestMain(m *testing.M) {
	testenv.Main(m, "the API server parity suite", func() int { return runWithAPIServer(m) })
}

func runWithAPIServer(m *testing.M) int {
	scheme := runtime.NewScheme()
	utilruntime.Must(v1alpha1.AddToScheme(scheme))
	utilruntime.Must(v1alpha2.AddToScheme(scheme))
	env, cfg, err := testenv.StartWithConversion(scheme)
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the API server:", err)
		return 1
	}
	defer func() { _ = env.Stop() }()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	wio := &env.WebhookInstallOptions
	server := webhook.NewServer(webhook.Options{Host: wio.LocalServingHost, Port: wio.LocalServingPort, CertDir: wio.LocalServingCertDir})
	server.Register("/convert", conversion.NewWebhookHandler(scheme))
	go func() { _ = server.Start(ctx) }()
	if err := testenv.WaitForTLS(net.JoinHostPort(wio.LocalServingHost, fmt.Sprint(wio.LocalServingPort))); err != nil {
		fmt.Fprintln(os.Stderr, "conversion webhook:", err)
		return 1
	}

	k8sClient, err = client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return m.Run()
}

func requireAPIServer(t *testing.T) {
	t.Helper()
	if k8sClient == nil {
		testenv.Need(t, cmp.Or(testenv.MissingAssets(), "the API server suite did not start"))
	}
}

// fixture is one file of testdata/: a header of "# key: value" lines, then the object.
type fixture struct {
	name, reason, field, error string
	data                       []byte
}

func loadFixtures(t *testing.T, dir string) []fixture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures in testdata/%s: %v", dir, err)
	}
	var out []fixture
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fx := fixture{name: strings.TrimSuffix(filepath.Base(f), ".yaml"), data: data}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			key, value, ok := strings.Cut(strings.TrimPrefix(sc.Text(), "# "), ": ")
			if !strings.HasPrefix(sc.Text(), "# ") || !ok {
				break
			}
			switch key {
			case "reason":
				fx.reason = value
			case "field":
				fx.field = value
			case "error":
				fx.error = value
			}
		}
		out = append(out, fx)
	}
	return out
}

func apiServerCreate(t *testing.T, data []byte) (*unstructured.Unstructured, error) {
	t.Helper()
	obj := &unstructured.Unstructured{}
	if err := yaml.Unmarshal(data, &obj.Object); err != nil {
		t.Fatal(err)
	}
	obj.SetNamespace("default")
	err := k8sClient.Create(context.Background(), obj, client.DryRunAll)
	return obj, err
}

func goVerdict(data []byte) (*v1alpha2.LlamaStackDistribution, field.ErrorList) {
	obj, errs := api.Decode(data)
	if len(errs) > 0 {
		return nil, errs
	}
	return obj, v1alpha2.Validate(obj)
}

func TestParityValidFixtures(t *testing.T) {
	requireAPIServer(t)
	for _, fx := range loadFixtures(t, "valid") {
		t.Run(fx.name, func(t *testing.T) {
			created, err := apiServerCreate(t, fx.data)
			if err != nil {
				t.Fatalf("%s: the API server rejected a valid object: %v", fx.reason, err)
			}
			hub, errs := goVerdict(fx.data)
			if len(errs) > 0 {
				t.Fatalf("%s: llsd rejected a valid object: %v", fx.reason, errs.ToAggregate())
			}
			if created.GetAPIVersion() == v1alpha2.GroupVersion.String() {
				assertSameSpec(t, created, hub)
			}
		})
	}
}

// assertSameSpec checks that llsd defaults exactly as the API server does.
func assertSameSpec(t *testing.T, fromServer *unstructured.Unstructured, fromGo *v1alpha2.LlamaStackDistribution) {
	t.Helper()
	server, err := yaml.Marshal(fromServer.Object["spec"])
	if err != nil {
		t.Fatal(err)
	}
	var serverSpec v1alpha2.LlamaStackDistributionSpec
	if err := yaml.UnmarshalStrict(server, &serverSpec); err != nil {
		t.Fatal(err)
	}
	want, _ := yaml.Marshal(serverSpec)
	got, _ := yaml.Marshal(fromGo.Spec)
	if !bytes.Equal(want, got) {
		t.Errorf("defaulted spec differs\nAPI server:\n%s\nllsd:\n%s", want, got)
	}
}

func TestParityInvalidFixtures(t *testing.T) {
	requireAPIServer(t)
	fixtures := loadFixtures(t, "invalid")
	if len(fixtures) < 30 {
		t.Fatalf("want at least 30 invalid fixtures (one per rule), have %d", len(fixtures))
	}
	for _, fx := range fixtures {
		t.Run(fx.name, func(t *testing.T) {
			if fx.field == "" {
				t.Fatal("fixture has no '# field:' line")
			}
			_, err := apiServerCreate(t, fx.data)
			serverMsg, ok := causeFor(err, fx.field)
			if !ok {
				t.Fatalf("%s: the API server did not reject %s; it said: %v", fx.reason, fx.field, err)
			}
			if !strings.Contains(serverMsg, fx.error) {
				t.Errorf("%s: the API server's message for %s is %q, want it to contain %q", fx.reason, fx.field, serverMsg, fx.error)
			}

			_, errs := goVerdict(fx.data)
			goMsg, ok := goErrorFor(errs, fx.field)
			if !ok {
				t.Fatalf("%s: llsd did not reject %s; it said: %v", fx.reason, fx.field, errs.ToAggregate())
			}
			if !strings.Contains(goMsg, fx.error) {
				t.Errorf("%s: llsd's message for %s is %q, want it to contain %q", fx.reason, fx.field, goMsg, fx.error)
			}
			// Word for word, value included, except metadata.name: there llsd shows the name
			// where the API server shows only its type ("string").
			if fx.field != "metadata.name" && goMsg != serverMsg {
				t.Errorf("%s: llsd says of %s\n  %s\nthe API server says\n  %s", fx.reason, fx.field, goMsg, serverMsg)
			}
		})
	}
}

func causeFor(err error, path string) (string, bool) {
	status, ok := err.(apierrors.APIStatus)
	if !ok || status.Status().Details == nil {
		return "", false
	}
	for _, c := range status.Status().Details.Causes {
		if c.Field == path {
			return c.Message, true
		}
	}
	return "", false
}

func goErrorFor(errs field.ErrorList, path string) (string, bool) {
	for _, e := range errs {
		if e.Field == path {
			return e.ErrorBody(), true
		}
	}
	return "", false
}

// The v1alpha1 CRD has the bounds of v1alpha2 where the fields mean the same: every invalid
// fixture that v1alpha1 can express (its conversion to v1alpha2 is still invalid) is refused
// by the API server as a v1alpha1 create too, and by llsd. Otherwise a v1alpha1 write would
// store what a v1alpha2 create refuses.
func TestV1alpha1HasTheBoundsOfV1alpha2(t *testing.T) {
	requireAPIServer(t)
	expressible := 0
	for _, fx := range loadFixtures(t, "invalid") {
		var hub v1alpha2.LlamaStackDistribution
		if err := yaml.Unmarshal(fx.data, &hub); err != nil || hub.APIVersion != v1alpha2.GroupVersion.String() {
			continue
		}
		spoke := &v1alpha1.LlamaStackDistribution{}
		if err := spoke.ConvertFrom(&hub); err != nil {
			t.Fatalf("%s: %v", fx.name, err)
		}
		spoke.Annotations = nil
		back := &v1alpha2.LlamaStackDistribution{}
		if err := spoke.DeepCopy().ConvertTo(back); err != nil {
			t.Fatalf("%s: %v", fx.name, err)
		}
		if len(v1alpha2.ValidateSpec(&back.Spec, field.NewPath("spec"))) == 0 {
			continue // what is invalid is a field only v1alpha2 has
		}
		expressible++
		t.Run(fx.name, func(t *testing.T) {
			spoke.APIVersion, spoke.Kind = v1alpha1.GroupVersion.String(), v1alpha2.Kind
			data, err := yaml.Marshal(spoke)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := apiServerCreate(t, data); err == nil {
				t.Errorf("%s: the API server stored as v1alpha1 what a v1alpha2 create refuses:\n%s", fx.reason, data)
			}
			if _, errs := goVerdict(data); len(errs) == 0 {
				t.Errorf("%s: llsd accepted as v1alpha1 what it refuses as v1alpha2:\n%s", fx.reason, data)
			}
		})
	}
	if expressible < 12 {
		t.Fatalf("only %d invalid fixtures are expressible in v1alpha1; the test checks too little", expressible)
	}
}

// Every rule of the schema's types has an invalid fixture that breaks it, so the parity suite
// holds its Go check to its CEL on the API server.
func TestEveryRuleHasAFixture(t *testing.T) {
	fixtures := loadFixtures(t, "invalid")
	for _, rule := range v1alpha2.Rules() {
		covered := false
		for _, fx := range fixtures {
			covered = covered || (fx.error != "" && breaks(rule, fx.error))
		}
		assert.True(t, covered, "no invalid fixture breaks the rule on %v: %q", rule.On, rule.Message)
	}
}

// breaks reports whether a fixture's error is the rule's message. A message written as an
// expression ('provider id "' + ... + '" is used by ...') is matched by its last literal.
func breaks(rule v1alpha2.Rule, fixtureError string) bool {
	if rule.MessageExpression == "" {
		return strings.Contains(rule.Message, fixtureError)
	}
	last := strings.TrimSuffix(rule.MessageExpression[strings.LastIndex(rule.MessageExpression, "+ '")+len("+ '"):], "'")
	_, tail, ok := strings.Cut(fixtureError, `" `)
	return ok && strings.HasPrefix(last, `" `+tail)
}
