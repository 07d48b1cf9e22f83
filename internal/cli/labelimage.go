// SPDX-License-Identifier: Apache-2.0

package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/llamastack/llsd/internal/distribution"
	"github.com/llamastack/llsd/internal/oci"
)

const labelImageUsage = `Usage: llsd label-image [flags] SRC DST

Copies the distribution image SRC to DST with the labels llsd reads its base config from:
io.llamastack.config.base64 (configs under 50 KB) or io.llamastack.config.layer and
io.llamastack.config.path, and io.llamastack.config.version. Only the image config changes;
the layers are shared with SRC. Each image of a multi-platform index is labelled.
Credentials come from the docker config ($DOCKER_CONFIG or ~/.docker/config.json) and its
credential helpers.

Flags:
`

// labelImage is `llsd label-image`, the build step that makes a custom image renderable.
func labelImage(args []string, stdout, stderr io.Writer) int {
	flags := flag.NewFlagSet("label-image", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.Usage = func() { fmt.Fprint(stderr, labelImageUsage); flags.PrintDefaults() }
	var opts oci.LabelOptions
	var insecure stringList
	flags.StringVar(&opts.Path, "path", "", "the config's path in the image (default: $RUN_CONFIG_PATH of the image, or its\n$DISTRO_NAME distribution's config.yaml in the llama_stack package)")
	flags.StringVar(&opts.ServerVersion, "server-version", "", "the llama-stack version of the image (default: from the installed\nllama_stack package's dist-info)")
	flags.Var(&insecure, "insecure-host", "a registry (host:port) to reach over plain HTTP; repeatable")
	if err := flags.Parse(args); errors.Is(err, flag.ErrHelp) {
		return 0
	} else if err != nil {
		return 2
	}
	if flags.NArg() != 2 {
		flags.Usage()
		return 2
	}
	if opts.ServerVersion != "" {
		if _, ok := distribution.VersionFromTag(opts.ServerVersion); !ok {
			fmt.Fprintf(stderr, "llsd label-image: --server-version %q is not a version such as 0.7.1\n", opts.ServerVersion)
			return 2
		}
	}
	src, dst := flags.Arg(0), flags.Arg(1)
	pushed, labelled, err := (&oci.Client{InsecureHosts: insecure}).Label(src, dst, opts)
	if err != nil {
		fmt.Fprintln(stderr, "llsd label-image:", err)
		return 1
	}
	fmt.Fprintln(stdout, pushed)
	for _, l := range labelled {
		fmt.Fprintf(stdout, "  %s\n", describeLabelled(l))
	}
	return 0
}

func describeLabelled(l oci.Labelled) string {
	where := fmt.Sprintf("inline (%s)", oci.LabelBase64)
	if l.Layer != "" {
		where = "by layer " + l.Layer
	}
	platform := ""
	if l.Platform != "" {
		platform = l.Platform + ": "
	}
	return fmt.Sprintf("%sconfig %s (%d bytes) %s, llama-stack %s", platform, l.Path, l.Size, where, l.Version)
}

// stringList is a repeatable string flag.
type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }
