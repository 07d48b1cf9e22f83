// SPDX-License-Identifier: Apache-2.0

package testenv

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// MissingAssets explains why envtest cannot run, or is empty when it can.
func MissingAssets() string {
	if os.Getenv("KUBEBUILDER_ASSETS") != "" {
		return ""
	}
	return "KUBEBUILDER_ASSETS is not set: run `make test` (it builds kube-apiserver and etcd) " +
		"or `export KUBEBUILDER_ASSETS=$(make -s envtest-assets | cut -d= -f2)`"
}

// InCI reports whether a missing tool fails the tests instead of skipping them: in CI, and
// under `make test` (LLSD_STRICT=1), which builds or installs what it needs.
func InCI() bool { return os.Getenv("CI") == "true" || os.Getenv("LLSD_STRICT") == "1" }

// UnitOnly reports whether only the unit tests run (`make test-unit`, LLSD_TEST_UNIT=1): the
// suites that need a real API server or tool skip, also in CI.
func UnitOnly() bool { return os.Getenv("LLSD_TEST_UNIT") == "1" }

// CRDDir is the directory of the generated CRDs.
func CRDDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "crds")
}

// openShiftAPI is the module of OpenShift's API types and CRDs, a test dependency in go.mod.
const openShiftAPI = "github.com/openshift/api"

// RouteCRD is OpenShift's own route.openshift.io/v1 Route CRD (with its CEL rules), from the
// openshift/api module the Go module cache holds: rendered Routes are checked against the
// real schema, not a copy of it.
func RouteCRD() (string, error) {
	out, err := exec.Command("go", "mod", "download", "-json", openShiftAPI).Output()
	if err != nil {
		return "", fmt.Errorf("locating %s (go mod download): %w", openShiftAPI, err)
	}
	var module struct{ Dir string }
	if err := json.Unmarshal(out, &module); err != nil || module.Dir == "" {
		return "", fmt.Errorf("locating %s: go mod download printed no directory", openShiftAPI)
	}
	return filepath.Join(module.Dir, "route", "v1", "zz_generated.crd-manifests", "routes.crd.yaml"), nil
}

// Start starts an API server with llsd's CRDs. Stop it with env.Stop().
func Start(env *envtest.Environment) (*rest.Config, error) {
	if reason := MissingAssets(); reason != "" {
		return nil, fmt.Errorf("%s", reason)
	}
	env.CRDDirectoryPaths = append(env.CRDDirectoryPaths, CRDDir())
	env.ErrorIfCRDPathMissing = true
	return env.Start()
}

// StartBare starts an API server without llsd's CRD, as a fresh cluster is.
func StartBare(env *envtest.Environment) (*rest.Config, error) {
	if reason := MissingAssets(); reason != "" {
		return nil, fmt.Errorf("%s", reason)
	}
	return env.Start()
}

// Main is TestMain for a package whose tests need the API server: with the assets it calls
// withAPIServer (which starts the server and runs m); without them it runs the tests, which
// skip, or, in CI, fails the package.
func Main(m *testing.M, suite string, withAPIServer func() int) {
	if UnitOnly() {
		os.Exit(m.Run()) // make test-unit: the suite's tests skip themselves (Need)
	}
	if reason := MissingAssets(); reason != "" {
		if InCI() {
			fmt.Fprintf(os.Stderr, "FAIL: %s cannot run in CI: %s\n", suite, reason)
			os.Exit(1)
		}
		fmt.Fprintf(os.Stderr, "skipping %s: %s\n", suite, reason)
		os.Exit(m.Run())
	}
	os.Exit(withAPIServer())
}

// StartWithConversion starts an API server whose CRD converts v1alpha1 <-> v1alpha2 through a
// webhook the test serves: envtest points the CRD at env.WebhookInstallOptions' local
// address and certificate.
func StartWithConversion(scheme *k8sruntime.Scheme) (*envtest.Environment, *rest.Config, error) {
	env := &envtest.Environment{
		Scheme:                scheme,
		CRDInstallOptions:     envtest.CRDInstallOptions{Scheme: scheme},
		WebhookInstallOptions: envtest.WebhookInstallOptions{},
	}
	cfg, err := Start(env)
	return env, cfg, err
}

// Need skips the test when reason is not empty (a tool or data it needs is missing), and
// fails it in CI, where everything must be present.
func Need(t interface {
	Helper()
	Fatal(...any)
	Skip(...any)
}, reason string) {
	t.Helper()
	if reason == "" {
		return
	}
	if UnitOnly() {
		t.Skip("unit tests only (make test-unit): " + reason)
	}
	if InCI() {
		t.Fatal(reason)
	}
	t.Skip(reason)
}

// SharedDir is a directory of inputs others wrote, kept beside the clone and never copied into
// it: ../shared/<name>, or $LLSD_SHARED_DIR/<name>.
func SharedDir(name string) string {
	if dir := os.Getenv("LLSD_SHARED_DIR"); dir != "" {
		return filepath.Join(dir, name)
	}
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "..", "shared", name)
}

// Shared returns SharedDir(name) and skips the test, with one line naming the directory, when it
// is absent: the inputs others wrote stay where they are kept, so a clone elsewhere runs
// everything but the tests that read them (make test says so at the end of its run). Every
// behaviour they taught is also held by the project's own inputs, which need nothing beside
// the clone.
func Shared(t interface {
	Helper()
	Skip(...any)
}, name string) string {
	t.Helper()
	dir := SharedDir(name)
	if _, err := os.Stat(dir); err != nil {
		t.Skip("needs " + dir + ", which is not beside this clone")
	}
	return dir
}

// Reference returns the llama-stack reference data beside the repository (../shared/llama-stack),
// which cross-check tests compare the repository's own data with, and skips the test when it is
// absent (Shared): every other test reads the repository's own copy (testdata/server).
func Reference(t interface {
	Helper()
	Skip(...any)
}) string {
	t.Helper()
	return Shared(t, "llama-stack")
}

// The Prometheus Operator's module, whose CRDs (ServiceMonitor, PrometheusRule) check what
// spec.monitoring renders; the module is not a dependency of llsd (it is large), so its
// checksum is pinned here instead of in go.sum.
const (
	prometheusOperator    = "github.com/prometheus-operator/prometheus-operator@v0.86.1"
	prometheusOperatorSum = "h1:pHUuiRErcFb3nFDox7RxoxpEN0FyT24GtYOkr2GBu04="
)

// MonitoringCRDs are the Prometheus Operator's ServiceMonitor and PrometheusRule CRDs, from
// its module, downloaded through the Go module proxy into the module cache and checked against
// the pinned checksum.
func MonitoringCRDs() ([]string, error) {
	cmd := exec.Command("go", "mod", "download", "-json", prometheusOperator)
	cmd.Dir = os.TempDir() // outside llsd's module: go.mod and go.sum stay as they are
	cmd.Env = append(os.Environ(), "GOFLAGS=", "GONOSUMDB=github.com/prometheus-operator", "GOSUMDB=off")
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("downloading %s (go mod download): %w", prometheusOperator, err)
	}
	var module struct{ Dir, Sum string }
	if err := json.Unmarshal(out, &module); err != nil || module.Dir == "" {
		return nil, fmt.Errorf("locating %s: go mod download printed no directory", prometheusOperator)
	}
	if module.Sum != prometheusOperatorSum {
		return nil, fmt.Errorf("%s has checksum %s, not the pinned %s", prometheusOperator, module.Sum, prometheusOperatorSum)
	}
	dir := filepath.Join(module.Dir, "example", "prometheus-operator-crd")
	return []string{filepath.Join(dir, "monitoring.coreos.com_servicemonitors.yaml"),
		filepath.Join(dir, "monitoring.coreos.com_prometheusrules.yaml")}, nil
}

// WaitForTLS waits until a TLS server (a webhook) accepts connections at addr.
func WaitForTLS(addr string) error {
	var err error
	for range 200 {
		var conn *tls.Conn
		conn, err = tls.DialWithDialer(&net.Dialer{Timeout: time.Second}, "tcp", addr, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec // readiness probe only
		if err == nil {
			return conn.Close()
		}
		time.Sleep(25 * time.Millisecond) // polling a listener, not timing a result
	}
	return err
}

// FreePort is a TCP port on 127.0.0.1 that was free a moment ago, for a server a test starts.
func FreePort(t interface{ Fatal(...any) }) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// DocTable returns the rows of docs/<doc> that are table rows of the given number of columns,
// each cell with its spaces trimmed (header and separator rows included: the caller picks its
// rows; a cell holding an escaped \| is split there), or fails the test when the document
// cannot be read.
func DocTable(t interface {
	Helper()
	Fatal(...any)
}, doc string, columns int) [][]string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "..", "..", "docs", doc))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != columns {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		rows = append(rows, cells)
	}
	return rows
}
