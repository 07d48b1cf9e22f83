// SPDX-License-Identifier: Apache-2.0

// benchreport reads `go test -bench` output on stdin, passes it through, and ends with the
// table make bench promises: llsd next to the identity function (the floor of any KRM
// function) for 1 and 1,000 LlamaStackDistributions, medians of time and peak memory, and the
// ratios; and llsd's time next to the identity function linked with llsd's packages (linkedfn:
// the floor of any function built from them, which is what starting llsd costs). Usage: go test ./internal/e2e -run '^$' -bench BenchmarkProcess | go run ./hack/benchreport
package main

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
)

// result matches BenchmarkProcess/<binary>/<n>-<procs> <iterations> <ns> ns/op <kb> peak-RSS-KB.
var result = regexp.MustCompile(`^BenchmarkProcess/(llsd|identity|linked)/(\d+)-\d+\s+\d+\s+([\d.]+) ns/op\s+([\d.]+) peak-RSS-KB`)

func main() {
	ns, kb := map[string][]float64{}, map[string][]float64{}
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		fmt.Println(in.Text())
		if m := result.FindStringSubmatch(in.Text()); m != nil {
			key := m[1] + "/" + m[2]
			t, _ := strconv.ParseFloat(m[3], 64)
			r, _ := strconv.ParseFloat(m[4], 64)
			ns[key], kb[key] = append(ns[key], t), append(kb[key], r)
		}
	}
	if len(ns) == 0 {
		fmt.Println("benchreport: no BenchmarkProcess results")
		os.Exit(1)
	}
	fmt.Printf("\n%-14s %12s %12s %8s   %12s %12s %8s   %12s %8s\n", "LLSDs", "llsd", "identity", "ratio",
		"llsd RSS", "identity RSS", "ratio", "linked", "ratio")
	for _, n := range []string{"1", "1000"} {
		lt, it, kt := median(ns["llsd/"+n]), median(ns["identity/"+n]), median(ns["linked/"+n])
		lm, im := median(kb["llsd/"+n]), median(kb["identity/"+n])
		linked := fmt.Sprintf("%12s %8s", "-", "-") // a run of an llsd without linkedfn
		if kt > 0 {
			linked = fmt.Sprintf("%9.1f ms %7.1fx", kt/1e6, lt/kt)
		}
		fmt.Printf("%-14s %9.1f ms %9.1f ms %7.1fx   %9.0f MB %9.0f MB %7.1fx   %s\n",
			n, lt/1e6, it/1e6, lt/it, lm/1024, im/1024, lm/im, linked)
	}
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return v[len(v)/2]
}
