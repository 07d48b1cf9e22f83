// SPDX-License-Identifier: Apache-2.0

package config

import (
	"fmt"

	"github.com/llamastack/llsd/internal/lazyre"
)

// placeholder matches what a guide leaves for its reader to fill in, <your-project> or the
// <isvc-name> of https://<isvc-name>-predictor.<namespace>.svc.cluster.local:8443/v1, and a
// shell variable a heredoc or a template did not expand, ${POSTGRES_DB} or ${PORT:-8000}. The
// server's own ${env.X} has a dot, and is none; <|file-id|> in a prompt template is none.
var placeholder = lazyre.New(`<[A-Za-z][A-Za-z0-9_.-]*(?: [A-Za-z0-9_.-]+)*>|\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}]*)?\}`)

// PlaceholderIn is the first placeholder in s, "" when s has none.
func PlaceholderIn(s string) string { return placeholder().FindString(s) }

// placeholderFix says what to do with a value that holds placeholder p. Only p is shown: the
// rest of the value may be anything (a credential next to it).
func placeholderFix(p string) string {
	return fmt.Sprintf("holds %s, left to be filled in (a guide's placeholder, or a shell variable nothing expanded): write the value itself", p)
}
