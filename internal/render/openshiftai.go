// SPDX-License-Identifier: Apache-2.0

package render

import (
	"path"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
)

// OpenShift AI and Open Data Hub conventions (render option openshiftAI), as their operator
// keeps them for the servers it runs:
//
//   - the platform's trusted CA bundle: opendatahub-operator writes ConfigMap
//     odh-trusted-ca-bundle into every namespace it manages (key ca-bundle.crt, which the
//     cluster network operator fills with the cluster's trusted CAs, and odh-ca-bundle.crt, the
//     platform's custom CAs), and the server trusts both (SSL_CERT_FILE). The ConfigMap is
//     optional: a namespace without it starts with the image's own CAs.
//   - the dashboard's namespace may reach the server through the NetworkPolicy: the gen-ai
//     playground's backend calls the server from there.

const (
	// PlatformCABundle is OpenShift AI's trusted CA bundle ConfigMap.
	PlatformCABundle = "odh-trusted-ca-bundle"
	volumePlatformCA = "odh-trusted-ca-bundle"
	platformCADir    = "/etc/ssl/certs/odh-trusted-ca-bundle"
	// systemCAFile is the CA bundle of the platform's (UBI) images, which the merged bundle
	// keeps: SSL_CERT_FILE replaces it.
	systemCAFile = "/etc/pki/tls/certs/ca-bundle.crt"
)

// platformCAKeys are the keys of the trusted CA bundle ConfigMap.
var platformCAKeys = []string{"ca-bundle.crt", "odh-ca-bundle.crt"}

// platformCAFiles are the files of the platform's CA bundle, after the image's own CAs: what
// the merged bundle concatenates (an absent one is skipped).
func platformCAFiles(in Input) []string {
	if !in.Options.OpenShiftAI {
		return nil
	}
	files := []string{systemCAFile}
	for _, key := range platformCAKeys {
		files = append(files, path.Join(platformCADir, key))
	}
	return files
}

// platformCAVolumes are the volume of the platform's CA bundle, optional.
func platformCAVolumes(in Input) []corev1.Volume {
	if !in.Options.OpenShiftAI {
		return nil
	}
	optional := true
	return []corev1.Volume{{Name: volumePlatformCA, VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
		LocalObjectReference: corev1.LocalObjectReference{Name: PlatformCABundle}, Optional: &optional}}}}
}

// dashboardPeer admits the platform dashboard's namespace, "" when the option is off.
func dashboardPeers(opts Options) []networkingv1.NetworkPolicyPeer {
	if !opts.OpenShiftAI || opts.DashboardNamespace == "" {
		return nil
	}
	return []networkingv1.NetworkPolicyPeer{namespacePeer(opts.DashboardNamespace)}
}
