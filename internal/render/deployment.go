// SPDX-License-Identifier: Apache-2.0

package render

import (
	"path"
	"slices"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/llamastack/llsd/internal/config"
	"github.com/llamastack/llsd/pkg/api"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// Paths inside the server container.
const (
	configPath   = config.ConfigDir + "/" + ConfigKey
	launcherPath = config.ConfigDir + "/" + LauncherKey
	caBundleDir  = "/etc/ssl/certs/ca-bundle"
	// caMergedDir holds the CA bundle's keys concatenated into one file, when it has several:
	// SSL_CERT_FILE names one file.
	caMergedDir  = "/etc/ssl/certs/llsd"
	caMergedFile = caMergedDir + "/ca-bundle.crt"
	// The image's user: non-root, in group 0, which owns the image's writable directories.
	runAsUser = int64(1001)
	fsGroup   = int64(1001)
)

// Volume names.
const (
	volumeConfig    = "config"
	volumeStorage   = "lls-storage"
	volumeTLS       = "tls"
	volumeCABundle  = "ca-bundle"
	volumeClientTLS = "client-tls"
	volumeCache     = "cache"
	volumeCAMerged  = "ca-bundle-merged"
	volumeProviders = "providers"
	// volumeKubeCA is the cluster's CA, which the Kubernetes authentication provider trusts.
	volumeKubeCA = "kube-ca"
	// volumeOGXConfig is an OGXServer's config again, as the successor operator mounts it.
	volumeOGXConfig = "ogx-config"
)

// AnnotationCABundleHash is the pod-template annotation with the content hash of the CA
// bundle, when its ConfigMap is among the inputs: a changed CA rolls the pods.
const AnnotationCABundleHash = "llamastack.io/ca-bundle-hash"

func deployment(m meta, in Input, configMapName, hash string) *appsv1.Deployment {
	obj := in.Object
	spec := &obj.Spec
	pod := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: m.names.PodLabels()},
		Spec: corev1.PodSpec{
			ServiceAccountName:           m.names.ServiceAccount(),
			AutomountServiceAccountToken: boolPtr(tokenOf(in).keep),
			// Service links would put <SERVICE>_PORT=tcp://... variables into the pod; a
			// Service named llama-stack would set LLAMA_STACK_PORT, the server's port.
			EnableServiceLinks: boolPtr(false),
			SecurityContext:    podSecurityContext(in.Options),
			Containers:         []corev1.Container{container(in)},
			Volumes:            volumes(in, configMapName),
		},
	}
	applyPodSettings(&pod, spec.Workload)
	for key, value := range map[string]string{api.AnnotationConfigHash: hash, AnnotationCABundleHash: caBundleHash(in)} {
		if value == "" {
			continue
		}
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[key] = value
	}
	if init := caBundleMerge(in); init != nil {
		pod.Spec.InitContainers = []corev1.Container{*init}
	}
	pod.Spec.InitContainers = append(pod.Spec.InitContainers, providerCopies(in)...)
	if o := overrides(obj); o != nil {
		if o.ServiceAccountName != "" {
			pod.Spec.ServiceAccountName = o.ServiceAccountName
		}
		pod.Spec.TerminationGracePeriodSeconds = o.TerminationGracePeriodSeconds
	}
	if w := spec.Workload; w != nil {
		pod.Spec.TopologySpreadConstraints = w.TopologySpreadConstraints
	}
	d := &appsv1.Deployment{
		TypeMeta:   metav1.TypeMeta{APIVersion: "apps/v1", Kind: "Deployment"},
		ObjectMeta: m.object(m.names.Deployment()),
		Spec: appsv1.DeploymentSpec{
			Selector: &metav1.LabelSelector{MatchLabels: m.names.Selector()},
			Template: pod,
		},
	}
	if w := spec.Workload; w == nil || w.Autoscaling == nil {
		replicas := v1alpha2.DefaultReplicas
		if w != nil && w.Replicas != nil {
			replicas = *w.Replicas
		}
		d.Spec.Replicas = &replicas
	}
	if w := spec.Workload; w != nil && w.Storage != nil && !slices.Contains(w.Storage.AccessModes, "ReadWriteMany") {
		// A ReadWriteOnce volume cannot be attached to the new pod while the old one runs.
		d.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	}
	return d
}

func container(in Input) corev1.Container {
	obj := in.Object
	c := corev1.Container{
		Name:            api.ContainerName,
		Image:           in.Distribution.Image,
		Ports:           containerPorts(obj),
		Env:             env(in),
		SecurityContext: containerSecurityContext(),
		StartupProbe:    probe(obj, 5, 120), // first start downloads models: up to 10 minutes
		ReadinessProbe:  probe(obj, 10, 3),
		LivenessProbe:   probe(obj, 20, 3),
		VolumeMounts:    volumeMounts(in),
	}
	c.Command = startCommand(in)
	if w := obj.Spec.Workload; w != nil {
		c.Resources = w.Resources
	}
	if o := overrides(obj); o != nil {
		if len(o.Command) > 0 {
			c.Command = o.Command
		}
		c.Args = o.Args
	}
	return c
}

// startCommand is the server container's command: none when the image's entrypoint finds the
// config in $RUN_CONFIG_PATH (or runs its own), the image's command for the config file when it
// takes the file as an argument, either behind llsd's launcher when the config needs it.
func startCommand(in Input) []string {
	layout := in.Distribution.Layout
	var start []string
	if !layout.RunConfigPath && !in.runsImageConfig() {
		start = layout.StartCommand(in.configFile())
	}
	if in.Config.Launcher == nil {
		return start
	}
	if start == nil {
		start = layout.Start
	}
	return config.StartCommand(launcherPath, start)
}

// env: llsd's variables, then the spec's own (whose names checkEnv keeps apart from llsd's).
func env(in Input) []corev1.EnvVar {
	vars := llsdEnv(in)
	if o := overrides(in.Object); o != nil {
		vars = append(vars, o.Env...)
	}
	return vars
}

// llsdEnv: the generated variables (secrets as secretKeyRefs), how the image finds the config
// and port, the telemetry exporter and the external providers' path.
func llsdEnv(in Input) []corev1.EnvVar {
	obj := in.Object
	vars := append([]corev1.EnvVar{}, in.Config.Env...)
	if in.Distribution.Layout.SetsHome {
		vars = append(vars, corev1.EnvVar{Name: "HOME", Value: in.Distribution.Layout.Home})
	}
	if !in.runsImageConfig() && in.Distribution.Layout.RunConfigPath && !userRunConfigPath(in) {
		vars = append(vars, corev1.EnvVar{Name: runConfigPathEnv, Value: in.configFile()})
	}
	vars = append(vars, corev1.EnvVar{Name: in.Distribution.Profile.PortEnv, Value: strconv.Itoa(int(obj.Spec.Port()))})
	if file := caBundleFile(in); file != "" {
		vars = append(vars, corev1.EnvVar{Name: "SSL_CERT_FILE", Value: file})
	}
	vars = append(vars, telemetryEnv(obj)...)
	vars = append(vars, metricsEnv(obj)...)
	if path := providersPath(obj); path != "" {
		vars = append(vars, corev1.EnvVar{Name: "PYTHONPATH", Value: path})
	}
	return vars
}

// caSource is one CA bundle ConfigMap as the pod mounts it: the first at caBundleDir (volume
// ca-bundle), the next ones at caBundleDir-1, -2, ... (volumes ca-bundle-1, -2, ...).
type caSource struct {
	v1alpha2.CABundleRef
	volume, dir string
}

func caSources(obj *v1alpha2.LlamaStackDistribution) []caSource {
	bundles := api.CABundles(obj)
	out := make([]caSource, 0, len(bundles))
	for i, ref := range bundles {
		src := caSource{CABundleRef: ref, volume: volumeCABundle, dir: caBundleDir}
		if i > 0 {
			n := strconv.Itoa(i)
			src.volume, src.dir = volumeCABundle+"-"+n, caBundleDir+"-"+n
		}
		out = append(out, src)
	}
	return out
}

// caFiles are the certificate files of every CA bundle, as mounted: the spec's, then the
// platform's (OpenShift AI's trusted CA bundle, after the image's own CAs).
func caFiles(in Input) []string {
	var files []string
	for _, src := range caSources(in.Object) {
		for _, key := range src.Keys() {
			files = append(files, path.Join(src.dir, key))
		}
	}
	return append(files, platformCAFiles(in)...)
}

// caBundleFile is the file SSL_CERT_FILE names: the only certificate file as mounted, or the
// merge of them all; "" without CA bundles.
func caBundleFile(in Input) string {
	switch files := caFiles(in); len(files) {
	case 0:
		return ""
	case 1:
		return files[0]
	}
	return caMergedFile
}

// caBundleMerge is the init container that concatenates several CA files (keys of one
// bundle, or several bundles) into one file, with the server's image and security context.
func caBundleMerge(in Input) *corev1.Container {
	files := caFiles(in)
	if len(files) < 2 {
		return nil
	}
	c := &corev1.Container{
		Name:            "ca-bundle",
		Image:           in.Distribution.Image,
		Command:         append([]string{"sh", "-c", mergeScript(in), "sh"}, files...),
		SecurityContext: containerSecurityContext(),
	}
	c.VolumeMounts = append(c.VolumeMounts, caMounts(in)...)
	c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: volumeCAMerged, MountPath: caMergedDir})
	return c
}

// seededCacheDir is where the cache seed's init container mounts the cache volume.
const seededCacheDir = "/llsd-cache"

// addCacheSeed adds the init container that copies what the image keeps in its cache
// directory (tiktoken's encodings) into the volume mounted over it (llsd's cache, or one of
// the spec's in its place), with the server's image and security context: without it the
// volume hides them, and a server with a vector store stops at start where it cannot download
// them (an air-gapped cluster, or the egress NetworkPolicy of networking.egress). The real server
// showed it (TestTheRealServerEnforcesAuthentication).
func addCacheSeed(pod *corev1.PodSpec, in Input) {
	layout := in.Distribution.Layout
	if !layout.SeedsCache {
		return
	}
	i := slices.IndexFunc(pod.Containers[0].VolumeMounts, func(m corev1.VolumeMount) bool {
		return path.Clean(m.MountPath) == path.Clean(layout.CacheDir)
	})
	if i < 0 {
		return
	}
	pod.InitContainers = append(pod.InitContainers, corev1.Container{
		Name:            "cache",
		Image:           in.Distribution.Image,
		Command:         []string{"sh", "-c", `if [ -d "$1" ]; then cp -R "$1/." ` + seededCacheDir + `/; fi`, "sh", layout.CacheDir},
		SecurityContext: containerSecurityContext(),
		VolumeMounts:    []corev1.VolumeMount{{Name: pod.Containers[0].VolumeMounts[i].Name, MountPath: seededCacheDir}},
	})
}

// mergeScript concatenates its arguments into the merged bundle; a missing file fails it (and
// the pod), but for the platform's, whose ConfigMap is optional and whose image may keep its
// CAs elsewhere.
func mergeScript(in Input) string {
	if !in.Options.OpenShiftAI {
		return `cat "$@" > ` + caMergedFile
	}
	return `for f; do case "$f" in ` + platformCADir + `/*|` + systemCAFile + `) [ -f "$f" ] || continue;; esac; cat "$f" || exit 1; done > ` + caMergedFile
}

// caBundleHash is the content hash of the CA bundles' keys whose ConfigMaps are among the
// inputs, else "".
func caBundleHash(in Input) string {
	bundle := map[string]string{}
	for _, src := range caSources(in.Object) {
		data, ok := in.ConfigMaps[in.Object.Namespace+"/"+src.ConfigMapName]
		if !ok {
			continue
		}
		for _, key := range src.Keys() {
			bundle[path.Join(src.dir, key)] = data[key]
		}
	}
	if len(bundle) == 0 {
		return ""
	}
	if srcs := caSources(in.Object); len(srcs) == 1 { // one bundle: the hash of its keys, which a pod of an earlier llsd carries
		single := map[string]string{}
		for file, v := range bundle {
			single[path.Base(file)] = v
		}
		return ConfigMapDataHash(single)
	}
	return ConfigMapDataHash(bundle)
}

// clientCertificates are the providers that present a client certificate (mutual TLS).
func clientCertificates(obj *v1alpha2.LlamaStackDistribution) []v1alpha2.ProviderSpec {
	var out []v1alpha2.ProviderSpec
	for _, list := range obj.Spec.Providers.APIs() {
		for _, p := range list.Providers {
			if p.ClientCertificate != nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// clientTLSVolume is the volume of a provider's client certificate.
func clientTLSVolume(id string) string { return containerName(volumeClientTLS+"-", id) }

// tlsItems mount a Secret's own certificate and key keys as the tls.crt and tls.key the
// config names; nil (every key, as named) for a kubernetes.io/tls Secret.
func tlsItems(tls *v1alpha2.ServerTLS) []corev1.KeyToPath {
	if !tls.OtherKeys {
		return nil
	}
	return []corev1.KeyToPath{{Key: tls.CertificateKey, Path: v1alpha2.TLSCertificateKey}, {Key: tls.PrivateKeyKey, Path: v1alpha2.TLSPrivateKeyKey}}
}

// containerPorts are the server's API port and, with spec.monitoring, its metrics port.
func containerPorts(obj *v1alpha2.LlamaStackDistribution) []corev1.ContainerPort {
	ports := []corev1.ContainerPort{{Name: api.PortName, ContainerPort: obj.Spec.Port(), Protocol: corev1.ProtocolTCP}}
	if monitoringEnabled(obj) {
		ports = append(ports, corev1.ContainerPort{Name: metricsPortName, ContainerPort: metricsPort(obj), Protocol: corev1.ProtocolTCP})
	}
	return ports
}

func containerSecurityContext() *corev1.SecurityContext {
	return &corev1.SecurityContext{
		AllowPrivilegeEscalation: boolPtr(false),
		Capabilities:             &corev1.Capabilities{Drop: []corev1.Capability{"ALL"}},
	}
}

func probe(obj *v1alpha2.LlamaStackDistribution, period, failures int32) *corev1.Probe {
	scheme := corev1.URISchemeHTTP
	if tlsEnabled(obj) {
		scheme = corev1.URISchemeHTTPS
	}
	return &corev1.Probe{
		ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{
			Path: config.HealthPath, Port: intstr.FromString(api.PortName), Scheme: scheme,
		}},
		PeriodSeconds:    period,
		FailureThreshold: failures,
		TimeoutSeconds:   5,
	}
}

func volumeMounts(in Input) []corev1.VolumeMount {
	var mounts []corev1.VolumeMount
	if !in.runsImageConfig() {
		mounts = append(mounts, corev1.VolumeMount{Name: volumeConfig, MountPath: config.ConfigDir, ReadOnly: true})
	}
	if in.successorConfigMount() {
		mounts = append(mounts, corev1.VolumeMount{Name: volumeOGXConfig, MountPath: path.Dir(SuccessorConfigFile), ReadOnly: true})
	}
	mounts = append(mounts,
		corev1.VolumeMount{Name: volumeStorage, MountPath: mountPath(in)},
		corev1.VolumeMount{Name: volumeCache, MountPath: in.Distribution.Layout.CacheDir},
	)
	if hasExternalProviders(in.Object) {
		mounts = append(mounts, corev1.VolumeMount{Name: volumeProviders, MountPath: providersDir, ReadOnly: true})
	}
	for _, p := range clientCertificates(in.Object) {
		mounts = append(mounts, corev1.VolumeMount{Name: clientTLSVolume(p.EffectiveID()), MountPath: config.ClientTLSDir + "/" + p.EffectiveID(), ReadOnly: true})
	}
	if in.Object.Spec.ServerTLS() != nil {
		mounts = append(mounts, corev1.VolumeMount{Name: volumeTLS, MountPath: config.TLSDir, ReadOnly: true})
	}
	if mountsKubeCA(in) {
		mounts = append(mounts, corev1.VolumeMount{Name: volumeKubeCA, MountPath: config.KubeCADir, ReadOnly: true})
	}
	if in.ModelAccess.ServiceCA {
		mounts = append(mounts, serviceCAMount())
	}
	switch files := caFiles(in); {
	case len(files) == 1:
		mounts = append(mounts, caMounts(in)...)
	case len(files) > 1:
		mounts = append(mounts, corev1.VolumeMount{Name: volumeCAMerged, MountPath: caMergedDir, ReadOnly: true})
	}
	return mounts
}

// mountsKubeCA reports whether the pod mounts the cluster's CA: the config llsd generated has
// the Kubernetes provider ask the in-cluster API server.
func mountsKubeCA(in Input) bool {
	return !in.runsImageConfig() && in.UserConfig == "" && config.MountsKubeCA(&in.Object.Spec)
}

// caMounts mount every CA bundle ConfigMap, the spec's and the platform's.
func caMounts(in Input) []corev1.VolumeMount {
	var mounts []corev1.VolumeMount
	for _, src := range caSources(in.Object) {
		mounts = append(mounts, corev1.VolumeMount{Name: src.volume, MountPath: src.dir, ReadOnly: true})
	}
	if in.Options.OpenShiftAI {
		mounts = append(mounts, corev1.VolumeMount{Name: volumePlatformCA, MountPath: platformCADir, ReadOnly: true})
	}
	return mounts
}

// mountPath is where the state volume is mounted: workload.storage.mountPath, else the
// server's state directory.
func mountPath(in Input) string {
	if w := in.Object.Spec.Workload; w != nil && w.Storage != nil && w.Storage.MountPath != "" {
		return w.Storage.MountPath
	}
	return in.Distribution.Layout.StateDir
}

func volumes(in Input, configMapName string) []corev1.Volume {
	obj := in.Object
	storage := corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}
	if w := obj.Spec.Workload; w != nil && w.Storage != nil {
		storage = corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{
			ClaimName: api.NamesOf(obj.Name).PVC(),
		}}
	}
	var vols []corev1.Volume
	if !in.runsImageConfig() {
		// The user's ConfigMap whole, every key a file, as the upstream and Open Data Hub operators
		// mount it: commands and RUN_CONFIG_PATH that name /etc/llama-stack/<key> find it.
		configVolume := &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: configMapName}}
		vols = append(vols, corev1.Volume{Name: volumeConfig, VolumeSource: corev1.VolumeSource{ConfigMap: configVolume}})
	}
	if in.successorConfigMount() {
		// The config the server runs as /etc/ogx/config.yaml, as the successor mounts an
		// OGXServer's: a command written for it (OpenShift AI 3.5's dashboard writes
		// ogx run /etc/ogx/config.yaml) finds it.
		vols = append(vols, corev1.Volume{Name: volumeOGXConfig, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: configMapName},
			Items:                []corev1.KeyToPath{{Key: in.mountedConfigKey(), Path: path.Base(SuccessorConfigFile)}},
		}}})
	}
	vols = append(vols,
		corev1.Volume{Name: volumeStorage, VolumeSource: storage},
		corev1.Volume{Name: volumeCache, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
	)
	if hasExternalProviders(obj) {
		vols = append(vols, corev1.Volume{Name: volumeProviders, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	}
	for _, p := range clientCertificates(obj) {
		certificate, key := p.ClientCertificate.Keys()
		vols = append(vols, corev1.Volume{Name: clientTLSVolume(p.EffectiveID()), VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{
			SecretName: p.ClientCertificate.SecretName, Items: []corev1.KeyToPath{{Key: certificate, Path: v1alpha2.TLSCertificateKey}, {Key: key, Path: v1alpha2.TLSPrivateKeyKey}},
		}}})
	}
	if tls := obj.Spec.ServerTLS(); tls != nil {
		vols = append(vols, corev1.Volume{Name: volumeTLS, VolumeSource: corev1.VolumeSource{
			Secret: &corev1.SecretVolumeSource{SecretName: tls.SecretName, Items: tlsItems(tls)},
		}})
	}
	if mountsKubeCA(in) {
		// The ConfigMap the API server publishes in every namespace: its CA without the
		// service account token that would bring it along.
		vols = append(vols, corev1.Volume{Name: volumeKubeCA, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
			LocalObjectReference: corev1.LocalObjectReference{Name: config.KubeCAConfigMap},
			Items:                []corev1.KeyToPath{{Key: config.KubeCAKey, Path: config.KubeCAKey}},
		}}})
	}
	if in.ModelAccess.ServiceCA {
		vols = append(vols, serviceCAVolume())
	}
	for _, src := range caSources(obj) {
		vols = append(vols, corev1.Volume{Name: src.volume, VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: src.ConfigMapName}},
		}})
	}
	vols = append(vols, platformCAVolumes(in)...)
	if len(caFiles(in)) > 1 {
		vols = append(vols, corev1.Volume{Name: volumeCAMerged, VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}})
	}
	return vols
}

func boolPtr(b bool) *bool    { return &b }
func int64Ptr(i int64) *int64 { return &i }
