// SPDX-License-Identifier: Apache-2.0

package realserver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"github.com/llamastack/llsd/internal/testsupport/servercheck"
)

// Pod is what a rendered pod gives its containers: the image's file system is the root,
// read-only as llsd renders it, with the volumes mounted on it. The init containers run first,
// in order, each to its end; then the server.
type Pod struct {
	Volumes map[string]Volume
	Init    []Container
	Server  Container
	// User and Group run every container (the pod's runAsUser and runAsGroup; 1001 and 0 when
	// unset, as OpenShift runs an image's arbitrary user in group 0).
	User, Group int64
}

// Volume is one volume of the pod.
type Volume struct {
	// Files are a ConfigMap's keys, by file name.
	Files map[string][]byte
	// Writable: an emptyDir or a volume claim, an empty directory the containers may write.
	Writable bool
}

// Container is one container of the pod.
type Container struct {
	Name string
	// Command and Args are the container's. With Entrypoint, the image's entrypoint runs with
	// Args, passing --insecure to the server when Insecure says so.
	Command, Args        []string
	Entrypoint, Insecure bool
	// Env are the container's variables as the kubelet expands them (a Secret's with a value
	// of the harness's).
	Env    map[string]string
	Mounts []Mount
}

// Mount is one volume mount of a container.
type Mount struct {
	Volume, Path, SubPath string
	ReadOnly              bool
}

// PodOf is the pod a rendered Deployment of a server version gives its containers: the
// variables as the kubelet expands them (a Secret's variable takes servercheck's fixture value,
// as the start-up oracle reads it, or a connection string), the commands and arguments expanded,
// the ConfigMaps among the rendered objects mounted with their keys, and the empty directories
// and volume claims writable. What the harness cannot give as the cluster would is an error
// that names it: a mounted ConfigMap or Secret llsd did not render (the cluster's CA, a user's
// Secret), a projected volume, an init container of another image (an external provider's).
func PodOf(version string, dep *appsv1.Deployment, container string, configMaps map[string]*corev1.ConfigMap) (Pod, error) {
	spec := dep.Spec.Template.Spec
	pod := Pod{Volumes: map[string]Volume{}}
	pod.User, pod.Group = user(spec.SecurityContext, nil)
	var problems []string
	for _, v := range spec.Volumes {
		volume, err := volumeOf(v, configMaps)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		pod.Volumes[v.Name] = volume
	}
	i := slices.IndexFunc(spec.Containers, func(c corev1.Container) bool { return c.Name == container })
	if i < 0 {
		return Pod{}, fmt.Errorf("the Deployment %s has no container %s", dep.Name, container)
	}
	for _, c := range spec.InitContainers {
		if c.Image != spec.Containers[i].Image {
			problems = append(problems, fmt.Sprintf("the init container %s runs the image %s, which the harness does not have", c.Name, c.Image))
		}
		pod.Init = append(pod.Init, containerOf(version, c))
	}
	pod.Server = containerOf(version, spec.Containers[i])
	if uid, gid := user(spec.SecurityContext, spec.Containers[i].SecurityContext); uid != 0 {
		pod.User, pod.Group = uid, gid
	}
	if len(problems) > 0 {
		return Pod{}, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	return pod, nil
}

func containerOf(version string, c corev1.Container) Container {
	env := servercheck.KubeletEnv(c, SecretValue)
	out := Container{Name: c.Name, Env: env}
	for _, arg := range c.Command {
		out.Command = append(out.Command, servercheck.KubeletExpand(arg, env))
	}
	for _, arg := range c.Args {
		out.Args = append(out.Args, servercheck.KubeletExpand(arg, env))
	}
	if len(out.Command) == 0 || strings.HasSuffix(out.Command[0], "-entrypoint.sh") {
		out.Entrypoint, out.Insecure = true, servercheck.EntrypointPassesInsecure(version, c)
		out.Args = append(slices.Clone(out.Command[min(1, len(out.Command)):]), out.Args...)
		out.Command = nil
	}
	for _, m := range c.VolumeMounts {
		out.Mounts = append(out.Mounts, Mount{Volume: m.Name, Path: m.MountPath, SubPath: m.SubPath, ReadOnly: m.ReadOnly})
	}
	return out
}

// ConnectionString is the value of every Postgres connection string a Secret gives the pod:
// the Postgres a test may run in the server's network namespace.
const ConnectionString = "postgresql://" + postgresUser + ":" + postgresPassword + "@127.0.0.1:5432/" + postgresUser

// SecretValue is the value the harness gives a variable from a Secret: a connection string
// for llsd's launcher to split, else servercheck's fixture value (the start-up oracle's).
func SecretValue(name string) string {
	if strings.HasSuffix(name, "_CONNECTION_STRING") {
		return ConnectionString
	}
	if v := servercheck.FixtureEnv(nil)(name); v != "" {
		return v
	}
	return "fixture-secret"
}

func user(pod *corev1.PodSecurityContext, c *corev1.SecurityContext) (int64, int64) {
	var uid, gid int64
	if pod != nil {
		if pod.RunAsUser != nil {
			uid = *pod.RunAsUser
		}
		if pod.RunAsGroup != nil {
			gid = *pod.RunAsGroup
		}
	}
	if c != nil {
		if c.RunAsUser != nil {
			uid = *c.RunAsUser
		}
		if c.RunAsGroup != nil {
			gid = *c.RunAsGroup
		}
	}
	return uid, gid
}

func volumeOf(v corev1.Volume, configMaps map[string]*corev1.ConfigMap) (Volume, error) {
	switch {
	case v.EmptyDir != nil, v.PersistentVolumeClaim != nil, v.Ephemeral != nil:
		return Volume{Writable: true}, nil
	case v.ConfigMap != nil:
		cm := configMaps[v.ConfigMap.Name]
		if cm == nil {
			return clusterConfigMap(v)
		}
		files := map[string][]byte{}
		for key, value := range cm.Data {
			files[key] = []byte(value)
		}
		if len(v.ConfigMap.Items) > 0 {
			picked := map[string][]byte{}
			for _, item := range v.ConfigMap.Items {
				picked[item.Path] = files[item.Key]
			}
			files = picked
		}
		return Volume{Files: files}, nil
	case v.Secret != nil:
		return Volume{}, fmt.Errorf("the Secret %s (volume %s) is the cluster's", v.Secret.SecretName, v.Name)
	}
	return Volume{}, fmt.Errorf("the volume %s is of a kind the harness does not make", v.Name)
}

// clusterConfigMap is a ConfigMap the cluster provides, not llsd: an optional one that is not
// there mounts as an empty directory, as the kubelet mounts it; one whose keys are CA bundles
// (kube-root-ca.crt's ca.crt, a platform's trusted bundle) gets a test CA's certificate in each.
func clusterConfigMap(v corev1.Volume) (Volume, error) {
	if v.ConfigMap.Optional != nil && *v.ConfigMap.Optional {
		return Volume{Files: map[string][]byte{}}, nil
	}
	files := map[string][]byte{}
	for _, item := range v.ConfigMap.Items {
		if !strings.HasSuffix(item.Path, ".crt") && !strings.HasSuffix(item.Path, ".pem") {
			return Volume{}, fmt.Errorf("the ConfigMap %s (volume %s) is the cluster's", v.ConfigMap.Name, v.Name)
		}
		files[item.Path] = testCA()
	}
	if len(files) == 0 {
		return Volume{}, fmt.Errorf("the ConfigMap %s (volume %s) is the cluster's, with keys the pod does not name", v.ConfigMap.Name, v.Name)
	}
	return Volume{Files: files}, nil
}

// testCA is the PEM certificate of a CA made for the test run.
var testCA = sync.OnceValue(func() []byte {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "llsd real-server test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
})
