// SPDX-License-Identifier: Apache-2.0

package release

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/semver"
	"sigs.k8s.io/yaml"
)

// ChartFile is the chart's Chart.yaml, relative to the repository: its appVersion is the release
// the tree prepares, which the chart's image, the examples and the docs name.
const ChartFile = "charts/llsd-controller/Chart.yaml"

// Prepared is the release the repository at root prepares: the chart's appVersion.
func Prepared(root string) (string, error) {
	data, err := os.ReadFile(filepath.Join(root, ChartFile))
	if err != nil {
		return "", err
	}
	var chart struct {
		Version    string `json:"version"`
		AppVersion string `json:"appVersion"`
	}
	if err := yaml.Unmarshal(data, &chart); err != nil {
		return "", fmt.Errorf("%s: %w", ChartFile, err)
	}
	if !semver.IsValid(chart.AppVersion) || "v"+chart.Version != chart.AppVersion {
		return "", fmt.Errorf("%s: appVersion %q and version %q name no release (v0.2.0 and 0.2.0)", ChartFile, chart.AppVersion, chart.Version)
	}
	return chart.AppVersion, nil
}

// Reference is an image of llsd's, a file of a release or the chart that a user copies from
// the repository, named by tag, digest or version.
type Reference struct {
	File string // relative to the repository
	Line int
	// Image is the repository (ghcr.io/llamastack/llsd-controller), Separator ":" or "@",
	// Tag the tag or digest after it.
	Image, Separator, Tag string
}

func (r Reference) String() string {
	return fmt.Sprintf("%s:%d: %s%s%s", r.File, r.Line, r.Image, r.Separator, r.Tag)
}

// references match what names a release: llsd's images with a tag or digest, a file of a
// release on GitHub, the chart's OCI artifact with its version. Each match is the reference's
// image (or place), its separator and its tag.
var references = []*regexp.Regexp{
	regexp.MustCompile(`(ghcr\.io/llamastack/(?:llsd-controller|llsd-argocd-cmp|llsd-bundle|llsd-catalog|llsd))([:@])([A-Za-z0-9_.*<>:-]+)`),
	regexp.MustCompile(`(github\.com/llamastack/llsd/releases/download)(/)([A-Za-z0-9_.<>-]+)`),
	regexp.MustCompile(`(oci://ghcr\.io/llamastack/charts/llsd-controller)( --version )([A-Za-z0-9_.<>-]+)`),
	regexp.MustCompile(`(/llsd(?:-controller)?_)()(v[0-9][0-9A-Za-z.-]*|<release>)`), // a release's archive
}

// chartVersion is the separator of a chart's version, which has no v: 0.2.0 of release v0.2.0.
const chartVersion = " --version "

// named is the tag by which the reference names release version.
func (r Reference) named(version string) string {
	if r.Separator == chartVersion {
		return strings.TrimPrefix(version, "v")
	}
	return version
}

// copied are the places users copy from: the guides, the examples, the KRM catalog entry.
var copied = []string{"README.md", "SECURITY.md", "docs", "examples", "catalog"}

// References are the references to llsd's releases in what users copy.
func References(root string) ([]Reference, error) {
	tree, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	var refs []Reference
	for _, top := range copied {
		err := fs.WalkDir(tree.FS(), top, func(path string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && path == top {
				return nil // a tree without it
			}
			if err != nil || d.IsDir() {
				return err
			}
			data, err := tree.ReadFile(path)
			if err != nil {
				return err
			}
			for i, line := range strings.Split(string(data), "\n") {
				for _, re := range references {
					for _, m := range re.FindAllStringSubmatch(line, -1) {
						refs = append(refs, Reference{File: path, Line: i + 1, Image: m[1], Separator: m[2], Tag: m[3]})
					}
				}
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return refs, nil
}

// NamesARelease says whether a reference names the prepared release (or any release: a
// digest, a placeholder, a moving vX or vX.Y tag, a policy's wildcard), and not a tag that
// moves to whatever was built last (latest, dev) or another version.
func (r Reference) NamesARelease(prepared string) bool {
	switch {
	case r.Separator == "@":
		return strings.HasPrefix(r.Tag, "sha256:") || r.Tag == "*"
	case r.Tag == r.named(prepared), r.Tag == "<release>":
		return true
	case r.Separator != ":": // a file or the chart: that release only
		return false
	case r.Tag == "*":
		return true
	}
	return semver.IsValid(r.Tag) && (r.Tag == semver.Major(r.Tag) || r.Tag == semver.MajorMinor(r.Tag))
}

// Prepare makes the repository at root prepare release version (vX.Y.Z): the chart's version
// and appVersion, and every reference to the release it prepared before.
func Prepare(root, version string) error {
	if !semver.IsValid(version) || semver.Canonical(version) != version {
		return fmt.Errorf("%q is no release version: vX.Y.Z", version)
	}
	before, err := Prepared(root)
	if err != nil {
		return err
	}
	refs, err := References(root)
	if err != nil {
		return err
	}
	edits := map[string][]Reference{}
	for _, r := range refs {
		if r.Separator != "@" && r.Tag == r.named(before) {
			edits[r.File] = append(edits[r.File], r)
		}
	}
	tree, err := os.OpenRoot(root)
	if err != nil {
		return err
	}
	defer tree.Close()
	for file, refs := range edits {
		data, err := tree.ReadFile(file)
		if err != nil {
			return err
		}
		lines := strings.Split(string(data), "\n")
		for _, r := range refs {
			lines[r.Line-1] = strings.ReplaceAll(lines[r.Line-1], r.Image+r.Separator+r.named(before), r.Image+r.Separator+r.named(version))
		}
		if err := tree.WriteFile(file, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
			return err
		}
	}
	data, err := tree.ReadFile(ChartFile)
	if err != nil {
		return err
	}
	chart := chartVersions.ReplaceAllStringFunc(string(data), func(line string) string {
		if strings.HasPrefix(line, "appVersion:") {
			return "appVersion: " + version
		}
		return "version: " + strings.TrimPrefix(version, "v")
	})
	return tree.WriteFile(ChartFile, []byte(chart), 0o644)
}

var chartVersions = regexp.MustCompile(`(?m)^(version|appVersion): .*$`)
