// SPDX-License-Identifier: Apache-2.0

package pipeline_test

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/pipeline"
	"github.com/llamastack/llsd/internal/testsupport/realserver"
	"github.com/llamastack/llsd/pkg/api"
)

// serverArchives are the releases the real-server suite runs for each server version llsd
// supports: the one its profile describes (0.8's profile was written from a commit before the
// 0.8.0 tag, whose source is the 0.8.0 archive).
var serverArchives = map[string]string{
	"0.6": "0.6.0", "0.7": "0.7.1", "0.8": "0.8.0", "1.0": "1.0.0", "1.1": "1.1.0", "1.2": "1.2.1", "1.3": "1.3.0",
}

// startLimit bounds a server's start: the servers here import their providers in a few seconds.
const startLimit = 3 * time.Minute

// realServers are the servers of a test: each version installed when first asked for (Install
// keeps it with the root between runs), and what each config it judged did.
type realServers struct {
	root string
	mu   sync.Mutex
	by   map[string]realserver.Server
	ran  []ranServer
}

func newRealServers(t *testing.T) *realServers {
	return &realServers{root: realserver.Root(t), by: map[string]realserver.Server{}}
}

// table is what the configs judged so far did (realServerTable), and how many there were.
func (r *realServers) table() (string, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return realServerTable(r.ran), len(r.ran)
}

func (r *realServers) get(t *testing.T, version string) realserver.Server {
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.by[version]; ok {
		return s
	}
	s := realserver.Install(t, r.root, serverArchives[version])
	r.by[version] = s
	return s
}

// ranServer is what one rendered config did on its real server.
type ranServer struct {
	name, version string
	outcome       realserver.Outcome
	notRun        string
}

// The real server judges what llsd renders: every golden case and example that renders runs on
// the server version it targets, from that server's own source, with the pod's variables, files,
// user and command, in a network namespace of its own. Each must get past loading, validating
// and checking its config, to the providers; one whose providers' SDKs Debian packages must
// answer. The table of what each version did is printed, and docs/real-server.md holds it.
func TestTheRealServerStartsWhatLLSDRenders(t *testing.T) {
	servers := newRealServers(t)
	eligible := 0
	t.Run("configs", func(t *testing.T) {
		for _, in := range renderInputs(t) {
			obj, errs := api.Decode(in.doc)
			require.Empty(t, errs)
			res, errs := pipeline.Render(obj, in.opts)
			require.Empty(t, errs)
			config, dep := renderedServer(res)
			if config == nil {
				continue // the user's own config: its server is judged by the user's file
			}
			version := res.LLSD.Annotations[api.AnnotationServerVersion]
			if serverArchives[version] == "" {
				continue // a version whose server is not among the archives (a newer 1.x, rh-dev's builds)
			}
			eligible++
			t.Run(in.name, func(t *testing.T) {
				t.Parallel()
				servers.judge(t, in.name, version, dep, configMapsOf(res))
			})
		}
	})
	table, judged := servers.table()
	t.Log("\n" + table)
	if judged < eligible {
		return // a -run filter: the table is not the whole suite's
	}
	if report := os.Getenv("LLSD_REAL_SERVER_REPORT"); report != "" {
		require.NoError(t, os.WriteFile(report, []byte(table), 0o644))
	}
	holdDocumentedTable(t, table)
}

// realServerDoc holds the table of what the real servers did, between two markers; a change of
// the renders (a golden case more, a server that now gets further) is a change of the document,
// which WRITE_GOLDEN_OUTPUT=1 rewrites for review.
const realServerDoc = "../../docs/real-server.md"

func holdDocumentedTable(t *testing.T, table string) {
	const begin, end = "<!-- real-server-table -->\n", "<!-- end real-server-table -->"
	data, err := os.ReadFile(realServerDoc)
	require.NoError(t, err)
	doc := string(data)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	require.True(t, i >= 0 && j > i, "%s has no table between %q and %q", realServerDoc, begin, end)
	if os.Getenv("WRITE_GOLDEN_OUTPUT") == "1" {
		require.NoError(t, os.WriteFile(realServerDoc, []byte(doc[:i+len(begin)]+table+doc[j:]), 0o644))
		return
	}
	assert.Equal(t, doc[i+len(begin):j], table, "%s says other than the real servers did (WRITE_GOLDEN_OUTPUT=1 rewrites it; review the diff)", realServerDoc)
}

// judge runs a rendered server on the real server of its version: it must get past loading,
// validating and checking its config (a server that starts answers as one); what it did joins
// the servers' table.
func (r *realServers) judge(t *testing.T, name, version string, dep *appsv1.Deployment, configMaps map[string]*corev1.ConfigMap) {
	ran := ranServer{name: name, version: version}
	defer func() {
		r.mu.Lock()
		r.ran = append(r.ran, ran)
		r.mu.Unlock()
	}()
	image := dep.Spec.Template.Spec.Containers[0].Image
	if _, ok := distribution.ReleaseOfImage(image); ok {
		ran.notRun = "OpenShift AI's build of the server (" + image + ") is not among the archives"
		t.Logf("not run on the real server: %s", ran.notRun)
		return
	}
	pod, err := realserver.PodOf(version, dep, api.ContainerName, configMaps)
	if err != nil {
		ran.notRun = err.Error()
		t.Logf("not run on the real server: %v", err)
		return
	}
	server := r.get(t, version)
	process := server.Start(t, realserver.NewNetwork(t), pod)
	ran.outcome = process.Wait(startLimit)
	t.Logf("server %s: %s", server.Version, ran.outcome)
	switch ran.outcome.Stage {
	case realserver.StageServing:
		answersAsAServer(t, process)
	case realserver.StageStorage, realserver.StageProviders, realserver.StageStack:
	default:
		assert.Failf(t, "the real server refused the config", "server %s stopped at the %s stage (%s): %s\n%s",
			server.Version, ran.outcome.Stage, ran.outcome.Where, ran.outcome.Exception, ran.outcome.Log)
	}
}

// configMapsOf are the ConfigMaps of a render, by name.
func configMapsOf(res *pipeline.Result) map[string]*corev1.ConfigMap {
	out := map[string]*corev1.ConfigMap{}
	for _, o := range res.Objects {
		if cm, ok := o.(*corev1.ConfigMap); ok {
			out[cm.Name] = cm
		}
	}
	return out
}

// answersAsAServer: a server that started answers health, version and providers.
func answersAsAServer(t *testing.T, p *realserver.Process) {
	client := p.Client()
	for _, route := range []string{"/v1/health", "/v1/version", "/v1/providers"} {
		resp, err := client.Get(p.URL() + route)
		if assert.NoError(t, err, route) {
			assert.Equal(t, 200, resp.StatusCode, route)
			resp.Body.Close()
		}
	}
}

// realServerTable is what each version did: how many configs it served, where the rest stopped.
func realServerTable(ran []ranServer) string {
	type row struct{ serving, storage, providers, stack, refused, notRun int }
	rows := map[string]*row{}
	sdks := map[string]map[string]int{}
	for _, r := range ran {
		if rows[r.version] == nil {
			rows[r.version] = &row{}
			sdks[r.version] = map[string]int{}
		}
		w := rows[r.version]
		switch {
		case r.notRun != "":
			w.notRun++
		case r.outcome.Stage == realserver.StageServing:
			w.serving++
		case r.outcome.Stage == realserver.StageProviders:
			w.providers++
			if r.outcome.Missing != "" {
				sdks[r.version][r.outcome.Missing]++
			}
		case r.outcome.Stage == realserver.StageStorage:
			w.storage++
		case r.outcome.Stage == realserver.StageStack:
			w.stack++
		default:
			w.refused++
		}
	}
	versions := make([]string, 0, len(rows))
	for v := range rows {
		versions = append(versions, v)
	}
	sort.Strings(versions)
	var b strings.Builder
	b.WriteString("| server | configs | serving | stopped at its stores | stopped at a provider | after the providers | refused | not run | SDKs not in Debian |\n|---|---|---|---|---|---|---|---|---|\n")
	for _, v := range versions {
		w := rows[v]
		var missing []string
		for sdk, n := range sdks[v] {
			missing = append(missing, fmt.Sprintf("%s (%d)", sdk, n))
		}
		sort.Strings(missing)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d | %d | %s |\n", serverArchives[v],
			w.serving+w.storage+w.providers+w.stack+w.refused+w.notRun, w.serving, w.storage, w.providers, w.stack, w.refused, w.notRun, strings.Join(missing, ", "))
	}
	return b.String()
}
