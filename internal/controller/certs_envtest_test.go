// SPDX-License-Identifier: Apache-2.0

package controller_test

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/llamastack/llsd/internal/controller"
)

// A CRD of its own, so that the test's CA does not replace envtest's in llsd's CRD.
func widgetCRD(t *testing.T, c client.Client) string {
	preserve := true
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.certs.llsd.test"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "certs.llsd.test", Scope: apiextensionsv1.NamespaceScoped,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{Name: "v1", Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{Type: "object", XPreserveUnknownFields: &preserve}}}},
			Conversion: &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.WebhookConverter,
				Webhook: &apiextensionsv1.WebhookConversion{ConversionReviewVersions: []string{"v1"},
					ClientConfig: &apiextensionsv1.WebhookClientConfig{Service: &apiextensionsv1.ServiceReference{Namespace: "llsd-system", Name: "llsd-webhook"}}}},
		},
	}
	require.NoError(t, c.Create(context.Background(), crd))
	t.Cleanup(func() { _ = c.Delete(context.Background(), crd) })
	return crd.Name
}

// Without cert-manager the controller keeps its own CA and serving certificate: created once,
// reused on the next start, the CA in the CRD, the files where the webhook server reads them.
func TestSelfSignedCerts(t *testing.T) {
	requireAPIServer(t)
	ctx := context.Background()
	scheme := runtime.NewScheme()
	require.NoError(t, corev1.AddToScheme(scheme))
	require.NoError(t, apiextensionsv1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	require.NoError(t, err)
	ns := namespace(t)
	opts := controller.CertOptions{Namespace: ns, SecretName: "llsd-webhook-tls", ServiceName: "llsd-webhook",
		CertDir: t.TempDir(), CRDName: widgetCRD(t, c)}

	require.NoError(t, controller.EnsureSelfSignedCerts(ctx, cfg, opts))
	var secret corev1.Secret
	require.NoError(t, c.Get(ctx, types.NamespacedName{Namespace: ns, Name: "llsd-webhook-tls"}, &secret))
	served, err := os.ReadFile(filepath.Join(opts.CertDir, "tls.crt"))
	require.NoError(t, err)
	assert.Equal(t, secret.Data["tls.crt"], served)

	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, c.Get(ctx, types.NamespacedName{Name: opts.CRDName}, &crd))
	assert.Equal(t, secret.Data["ca.crt"], crd.Spec.Conversion.Webhook.ClientConfig.CABundle)

	block, _ := pem.Decode(served)
	cert, err := x509.ParseCertificate(block.Bytes)
	require.NoError(t, err)
	roots := x509.NewCertPool()
	require.True(t, roots.AppendCertsFromPEM(crd.Spec.Conversion.Webhook.ClientConfig.CABundle))
	_, err = cert.Verify(x509.VerifyOptions{DNSName: "llsd-webhook." + ns + ".svc", Roots: roots})
	assert.NoError(t, err, "the API server reaches the webhook by its Service name and trusts the CA in the CRD")

	require.NoError(t, controller.EnsureSelfSignedCerts(ctx, cfg, opts), "a restart")
	var again corev1.Secret
	require.NoError(t, c.Get(ctx, types.NamespacedName{Namespace: ns, Name: "llsd-webhook-tls"}, &again))
	assert.Equal(t, secret.Data, again.Data, "a valid certificate is kept")
	assert.Equal(t, secret.ResourceVersion, again.ResourceVersion)
}
