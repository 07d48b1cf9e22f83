// SPDX-License-Identifier: Apache-2.0

// Package review says what a change to a package does to the servers it runs: the stacks of
// two renders (before and after the change, with the same options) compared object by object
// and config by config, each finding with its level, the field of the author's API that
// caused it, and what to do. It compares what llsd rendered, never the YAML's text, so a
// moved default or a new llsd shows as plainly as an edited line; it reads no Secret value.
//
//	findings := review.Compare(review.Stacks(before), review.Stacks(after))
//	// ai/chat  security  spec.authentication  authentication is off: the server answers every caller
package review

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Level is how much a finding matters to whoever runs the server, lowest first.
type Level int

// The levels of a finding.
const (
	// Info: a change the server takes without a restart or a risk (a model added).
	Info Level = iota
	// Restart: the pods are replaced (the config, the image or the pod changed).
	Restart
	// Security: who may call the server, or where it may go, widens.
	Security
	// DataAtRisk: state the server keeps may be lost or left behind (a store moved, a PVC gone).
	DataAtRisk
	// Breaking: callers or the server see a different API (a model removed, the server version moved).
	Breaking
)

var levelNames = []string{"info", "restart", "security", "data at risk", "breaking"}

func (l Level) String() string { return levelNames[l] }

// MarshalJSON writes the level's name.
func (l Level) MarshalJSON() ([]byte, error) { return json.Marshal(l.String()) }

// ParseLevel reads a level's name ("data-at-risk" and "data at risk" alike).
func ParseLevel(s string) (Level, error) {
	at := slices.Index(levelNames, strings.ReplaceAll(strings.ToLower(s), "-", " "))
	if at < 0 {
		return 0, fmt.Errorf("%q is no level: info, restart, security, data-at-risk or breaking", s)
	}
	return Level(at), nil
}

// Finding is one thing a change does to a running server.
type Finding struct {
	// Stack is the server, namespace/name (name alone without a namespace).
	Stack string `json:"stack"`
	Level Level  `json:"level"`
	// Field is where the author's API says it, when one field does.
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

func (f Finding) String() string {
	field := ""
	if f.Field != "" {
		field = " " + f.Field
	}
	return fmt.Sprintf("%s: %s%s: %s", f.Stack, f.Level, field, f.Message)
}

// Highest is the highest level among findings, and false when there are none.
func Highest(findings []Finding) (Level, bool) {
	if len(findings) == 0 {
		return 0, false
	}
	top := findings[0].Level
	for _, f := range findings[1:] {
		top = max(top, f.Level)
	}
	return top, true
}
