// SPDX-License-Identifier: Apache-2.0

package realserver

import (
	"regexp"
	"strings"
)

// Stage is how far a server got.
type Stage string

const (
	// StageServing: it answered /v1/health.
	StageServing Stage = "serving"
	// StageProviders: it loaded and validated the config, passed every start-up check before
	// the providers, and stopped while it made them (an SDK Debian does not package, a remote
	// service the provider contacts at start).
	StageProviders Stage = "providers"
	// StageStack: it made its providers and stopped in what follows (registering resources).
	StageStack Stage = "stack"
	// StageStorage: it loaded and validated the config and stopped when it opened its stores
	// (a Postgres or Redis it cannot reach), before the providers.
	StageStorage Stage = "storage"
	// StageConfig: it stopped before the providers: loading, validating or checking the config.
	StageConfig Stage = "config"
	// StageTimedOut: it neither answered nor stopped in time.
	StageTimedOut Stage = "timed out"
)

// Outcome is what a run of the server showed.
type Outcome struct {
	Stage Stage
	// Where is the server's own function it stopped in: the deepest frame of the server's
	// package in the last traceback of its log, as file:function.
	Where string
	// Provider is the provider package it was making when it stopped (providers/remote/inference/together).
	Provider string
	// Missing is the module it could not import (an SDK Debian does not package).
	Missing string
	// Exception is the last traceback's exception, class and message.
	Exception string
	// Log is the server's log and output, for the test's message.
	Log string
}

// Frame is one frame of a Python traceback.
type Frame struct{ File, Function string }

var (
	frameLine     = regexp.MustCompile(`^\s*File "([^"]+)", line \d+, in (\S+)`)
	exceptionLine = regexp.MustCompile(`^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)): ?(.*)$`)
	missingModule = regexp.MustCompile(`^No module named '([^']+)'`)
)

// serverPackage is the path of a file of the server's own package, after site-packages/ (or
// "" for Python's and its dependencies').
func serverPackage(file string) string {
	_, rel, ok := strings.Cut(file, "/site-packages/")
	if !ok {
		return ""
	}
	if strings.HasPrefix(rel, "ogx/") || strings.HasPrefix(rel, "llama_stack/") {
		return rel
	}
	return ""
}

// Judge reads a server's log (and its output, where a failure before logging began shows) and
// says where it stopped, from the frames of its last traceback: a frame of the resolver's
// instantiate_provider is the providers stage, a later frame of the stack the stack stage, a
// store's before them the storage stage, anything else (or no traceback at all) the config
// stage.
func Judge(log, output string) Outcome {
	out := Outcome{Stage: StageConfig, Log: tail(log+"\n--- output ---\n"+output, 6000)}
	frames, exception := lastTraceback(log)
	if len(frames) == 0 {
		frames, exception = lastTraceback(output)
	}
	out.Exception = exception
	if m := exceptionLine.FindStringSubmatch(exception); m != nil && strings.HasSuffix(m[1], "ModuleNotFoundError") {
		if mm := missingModule.FindStringSubmatch(m[2]); mm != nil {
			out.Missing = mm[1]
		}
	}
	for _, f := range frames {
		rel := serverPackage(f.File)
		if rel == "" {
			continue
		}
		out.Where = strings.TrimSuffix(rel, ".py") + ":" + f.Function
		switch {
		case strings.HasSuffix(rel, "/resolver.py") && strings.HasPrefix(f.Function, "instantiate_provider"):
			out.Stage = StageProviders
		case out.Stage != StageProviders && strings.HasSuffix(rel, "core/stack.py") && f.Function != "initialize" && f.Function != "construct_stack":
			out.Stage = StageStack // after resolve_impls: registering resources, checking vector stores' models
		case out.Stage != StageProviders && strings.Contains(rel, "core/jobs/"):
			out.Stage = StageStack // the job workers, started after the providers (1.3)
		case out.Stage == StageConfig && (strings.Contains(rel, "/kvstore/") || strings.Contains(rel, "/sqlstore/")):
			out.Stage = StageStorage
		}
		if i := strings.Index(rel, "/providers/"); i >= 0 && out.Stage == StageProviders && out.Provider == "" {
			parts := strings.Split(rel[i+1:], "/")
			if len(parts) >= 4 {
				out.Provider = strings.Join(parts[:4], "/")
			}
		}
	}
	return out
}

// lastTraceback is the frames and the exception line of the last traceback in a log.
func lastTraceback(log string) ([]Frame, string) {
	lines := strings.Split(log, "\n")
	start := -1
	for i, l := range lines {
		if strings.Contains(l, "Traceback (most recent call last):") {
			start = i
		}
	}
	if start < 0 {
		return nil, ""
	}
	var frames []Frame
	exception := ""
	for _, l := range lines[start+1:] {
		if m := frameLine.FindStringSubmatch(l); m != nil {
			frames = append(frames, Frame{File: m[1], Function: m[2]})
			continue
		}
		if len(frames) > 0 && exceptionLine.MatchString(strings.TrimSpace(l)) {
			exception = strings.TrimSpace(l)
			if strings.Contains(l, "During handling") {
				continue
			}
			break
		}
	}
	return frames, exception
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}

// String says where the server stopped, for a test's log.
func (o Outcome) String() string {
	out := string(o.Stage)
	if o.Where != "" {
		out += " in " + o.Where
	}
	if o.Missing != "" {
		out += ", " + o.Provider + " needs " + o.Missing
	}
	return out
}
