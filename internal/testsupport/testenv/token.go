// SPDX-License-Identifier: Apache-2.0

package testenv

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// ServiceAccountToken creates the ServiceAccount default/name (when missing) and returns a
// token the API server issues for it.
func ServiceAccountToken(t *testing.T, c client.Client, name string) string {
	t.Helper()
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}}
	require.NoError(t, client.IgnoreAlreadyExists(c.Create(context.Background(), sa)))
	req := &authenticationv1.TokenRequest{}
	require.NoError(t, c.SubResource("token").Create(context.Background(), sa, req))
	return req.Status.Token
}
