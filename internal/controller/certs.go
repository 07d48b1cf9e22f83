// SPDX-License-Identifier: Apache-2.0

package controller

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// CRDName is the name of llsd's CustomResourceDefinition.
const CRDName = "llamastackdistributions.llamastack.io"

// CertOptions say where the self-signed webhook certificates live (clusters without
// cert-manager).
type CertOptions struct {
	// Namespace and SecretName hold the CA and serving certificate (ca.crt, tls.crt, tls.key).
	Namespace, SecretName string
	// ServiceName is the webhook Service the certificate is for.
	ServiceName string
	// CertDir receives tls.crt and tls.key for the webhook server.
	CertDir string
	// CRDName is the CRD whose conversion webhook gets the CA.
	CRDName string
}

// renewBefore is how long before expiry a serving certificate is replaced (at start-up).
const renewBefore = 30 * 24 * time.Hour

// EnsureSelfSignedCerts makes sure a valid CA and serving certificate are in the Secret
// (creating or renewing them; with several replicas the first writer wins and the others
// use its certificate), writes them to CertDir, and puts the CA into the CRD's conversion
// webhook. Certificates last a year and are renewed at a start-up within 30 days of expiry.
func EnsureSelfSignedCerts(ctx context.Context, cfg *rest.Config, opts CertOptions) error {
	scheme := runtime.NewScheme()
	utilruntime.Must(corev1.AddToScheme(scheme))
	utilruntime.Must(apiextensionsv1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	secret, err := ensureCertSecret(ctx, c, opts, time.Now())
	if err != nil {
		return err
	}
	if err := os.MkdirAll(opts.CertDir, 0o700); err != nil {
		return err
	}
	for _, k := range []string{corev1.TLSCertKey, corev1.TLSPrivateKeyKey} {
		if err := os.WriteFile(filepath.Join(opts.CertDir, k), secret.Data[k], 0o600); err != nil {
			return err
		}
	}
	return injectCABundle(ctx, c, opts.CRDName, secret.Data["ca.crt"])
}

func ensureCertSecret(ctx context.Context, c client.Client, opts CertOptions, now time.Time) (*corev1.Secret, error) {
	key := types.NamespacedName{Namespace: opts.Namespace, Name: opts.SecretName}
	var secret corev1.Secret
	err := c.Get(ctx, key, &secret)
	switch {
	case err == nil && certUsable(secret.Data, dnsNames(opts), now):
		return &secret, nil
	case err != nil && !apierrors.IsNotFound(err):
		return nil, err
	}
	data, genErr := generateCerts(dnsNames(opts), now)
	if genErr != nil {
		return nil, genErr
	}
	if apierrors.IsNotFound(err) {
		secret = corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: opts.Namespace, Name: opts.SecretName}, Type: corev1.SecretTypeTLS, Data: data}
		err = c.Create(ctx, &secret)
	} else {
		secret.Data = data
		err = c.Update(ctx, &secret)
	}
	if apierrors.IsAlreadyExists(err) || apierrors.IsConflict(err) { // another replica wrote first: use its certificate
		if err := c.Get(ctx, key, &secret); err != nil {
			return nil, err
		}
		return &secret, nil
	}
	return &secret, err
}

func dnsNames(opts CertOptions) []string {
	svc := opts.ServiceName
	return []string{svc, svc + "." + opts.Namespace, svc + "." + opts.Namespace + ".svc", svc + "." + opts.Namespace + ".svc.cluster.local"}
}

// certUsable: a CA, a serving certificate for the names, signed by it, valid for a while.
func certUsable(data map[string][]byte, names []string, now time.Time) bool {
	cert, err := parseCert(data[corev1.TLSCertKey])
	if err != nil || len(data[corev1.TLSPrivateKeyKey]) == 0 || now.Add(renewBefore).After(cert.NotAfter) {
		return false
	}
	for _, n := range names {
		if !slices.Contains(cert.DNSNames, n) {
			return false
		}
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(data["ca.crt"]) {
		return false
	}
	_, err = cert.Verify(x509.VerifyOptions{DNSName: names[len(names)-2], Roots: roots, CurrentTime: now})
	return err == nil
}

func parseCert(pemData []byte) (*x509.Certificate, error) {
	block, _ := pem.Decode(pemData)
	if block == nil {
		return nil, errors.New("no PEM certificate")
	}
	return x509.ParseCertificate(block.Bytes)
}

// generateCerts makes a CA (ten years) and a serving certificate for names (one year).
func generateCerts(names []string, now time.Time) (map[string][]byte, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	caTemplate := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: "llsd-webhook-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(10 * 365 * 24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	template := &x509.Certificate{
		SerialNumber: serial(), Subject: pkix.Name{CommonName: names[len(names)-2]}, DNSNames: names,
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(365 * 24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, caTemplate, &key.PublicKey, caKey)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{
		"ca.crt":                pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		corev1.TLSCertKey:       pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		corev1.TLSPrivateKeyKey: pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}),
	}, nil
}

func serial() *big.Int {
	n, _ := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
	return n
}

// injectCABundle puts the CA into the CRD's conversion webhook, when it is not there yet.
func injectCABundle(ctx context.Context, c client.Client, crdName string, ca []byte) error {
	var crd apiextensionsv1.CustomResourceDefinition
	if err := c.Get(ctx, types.NamespacedName{Name: crdName}, &crd); err != nil {
		return err
	}
	conv := crd.Spec.Conversion
	if conv == nil || conv.Webhook == nil || conv.Webhook.ClientConfig == nil {
		return fmt.Errorf("CRD %s has no conversion webhook to give the CA to: apply the CRD from crds/", crdName)
	}
	if bytes.Equal(conv.Webhook.ClientConfig.CABundle, ca) {
		return nil
	}
	patch := client.MergeFrom(crd.DeepCopy())
	conv.Webhook.ClientConfig.CABundle = ca
	return c.Patch(ctx, &crd, patch)
}
