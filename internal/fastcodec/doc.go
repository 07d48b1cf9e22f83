// SPDX-License-Identifier: Apache-2.0

// Package fastcodec holds llsd's fast paths for YAML and JSON: each writes, faster, exactly
// the bytes a library would, and a differential test and fuzzer beside it hold it to that
// library byte for byte.
//
//   - TreeYAML writes a config tree (what configyaml.Marshal returns) as yaml.v3 writes the
//     nodes of EncodeTree, with YAML 1.1's look-alikes quoted (yaml11.go); FuzzEmitterMatchesYAMLv3.
//   - KubeObject builds a rendered object's nodes as writing it with sigs.k8s.io/yaml and
//     parsing it back would; FuzzNodesMatchTheYAMLRoundTrip.
//   - WriteEntry and WriteDocument write those nodes as the KRM SDK's yaml.v3 encoder does.
//   - TreeJSON and TreeFromJSON are the canonical JSON of the server data in testdata/server
//     (numbers keep their type), which hack/serverdata writes and the tests read.
//
// make bench measures what each fast path buys (BenchmarkFastPaths, a build with some turned off:
// enabled.go); docs/benchmarks.md keeps the numbers and why each stays. The embedded base
// configs were read from a JSON copy too, until that saved less than a fifth of every case.
//
// What a writer does not know how to write (a key that is no simple word, a user's object
// with comments) it leaves to the library. Its caches of library answers are bounded
// (memo.Bounded), so hostile input cannot grow them.
package fastcodec
