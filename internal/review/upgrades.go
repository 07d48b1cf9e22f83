// SPDX-License-Identifier: Apache-2.0

package review

import (
	"fmt"
	"slices"

	"github.com/llamastack/llsd/internal/profile"
)

// upgradeNote is an entry of the upgrade guide (docs/upgrading.md) that a move of the server
// version makes true of a stack: its step, the guide's words (TestUpgradeNotesAreTheGuides finds
// them in the step's section), and when it applies, with what it says of this stack. What a
// check of its own already finds (a store moved to another backend) is not repeated here.
type upgradeNote struct {
	step  string // "0.7 to 0.8"
	guide string
	level Level
	field string
	// says is the note for the stack, "" when it does not apply.
	says func(before, after *Stack) string
}

// upgradeNotes are the guide's entries that depend on the stack.
var upgradeNotes = []upgradeNote{
	{step: "0.7 to 0.8", guide: "Model identifiers change for clients", level: Breaking, field: "spec.resources.models",
		says: func(_, after *Stack) string {
			names := qualifiedModels(after.Config())
			if len(names) == 0 {
				return ""
			}
			return "clients name the models " + list(names) + " (provider_id/model_id) from 0.8"
		}},
	{step: "0.8 to 1.0", guide: "SQL stores are opened when the server starts", level: Restart, field: "spec.storage.sql",
		says: func(_, after *Stack) string {
			if nested(after.Config(), "storage", "backends", "sql_default", "type") != "sql_postgres" {
				return ""
			}
			return "an unreachable Postgres stops the start from 1.0, instead of the first request that needs it"
		}},
}

// upgradeFindings are the notes of the guide's steps between two server versions that apply to
// the stack.
func upgradeFindings(from, to profile.Version, before, after *Stack) []Finding {
	steps := UpgradeSteps(from, to)
	var findings []Finding
	for _, note := range upgradeNotes {
		if !slices.Contains(steps, note.step) {
			continue
		}
		if says := note.says(before, after); says != "" {
			findings = append(findings, Finding{Level: note.level, Field: note.field,
				Message: fmt.Sprintf("%s: %s (the upgrade guide, %s)", note.guide, says, note.step)})
		}
	}
	return findings
}

// qualifiedModels are a config's registered models as clients name them from 0.8 on.
func qualifiedModels(config map[string]any) []string {
	var out []string
	for _, m := range registeredModels(config) {
		provider, _ := m["provider_id"].(string)
		model, _ := m["model_id"].(string)
		if provider != "" && model != "" {
			out = append(out, provider+"/"+model)
		}
	}
	return out
}
