// SPDX-License-Identifier: Apache-2.0

package v1alpha2

// The condition types of status.conditions, written by llsd-controller. Each says whether one
// step from the rendered objects to a serving server holds.
const (
	// ConditionConfigGenerated: the server's config the render chose (llsd's ConfigMap, the
	// override ConfigMap or the image's own config) is in the cluster and matches the spec.
	ConditionConfigGenerated = "ConfigGenerated"
	// ConditionSecretsResolved: every Secret key and CA bundle the spec references exists.
	ConditionSecretsResolved = "SecretsResolved"
	// ConditionDeploymentUpdated: the Deployment carries the current render.
	ConditionDeploymentUpdated = "DeploymentUpdated"
	// ConditionAvailable: the Deployment has its minimum of available replicas.
	ConditionAvailable = "Available"
	// ConditionServerReady: the running server answers (its version and providers), read
	// through its Service once a replica is available.
	ConditionServerReady = "ServerReady"
	// ConditionProvidersHealthy: every provider the running server reports is healthy.
	ConditionProvidersHealthy = "ProvidersHealthy"
	// ConditionServerVersionMatched: the running server is the version llsd rendered for.
	ConditionServerVersionMatched = "ServerVersionMatched"
)

// The reasons of those conditions.
const (
	// ConfigGenerated
	ReasonConfigGenerationSucceeded = "ConfigGenerationSucceeded" // llsd's ConfigMap is there, as rendered
	ReasonNotRendered               = "NotRendered"               // no render receipt: the object was applied without llsd
	ReasonRenderStale               = "RenderStale"               // the spec changed since the render: run the GitOps sync
	ReasonConfigMapMissing          = "ConfigMapMissing"          // the rendered ConfigMap is not in the cluster
	ReasonOverrideConfigFound       = "OverrideConfigFound"       // spec.overrideConfig's ConfigMap and key are there
	ReasonOverrideConfigMapMissing  = "OverrideConfigMapMissing"  // spec.overrideConfig names a ConfigMap that does not exist
	ReasonOverrideConfigKeyMissing  = "OverrideConfigKeyMissing"  // the override ConfigMap lacks the key the pod mounts
	ReasonImageConfig               = "ImageConfig"               // the server runs the image's own config, which llsd cannot check

	// SecretsResolved
	ReasonAllSecretsFound   = "AllSecretsFound"
	ReasonSecretNotFound    = "SecretNotFound"
	ReasonSecretKeyNotFound = "SecretKeyNotFound"
	// ReasonSecretValueConverted: a Secret's value that goes where a string goes reads as a
	// number or boolean, which the server turns it into after substituting it.
	ReasonSecretValueConverted = "SecretValueConverted"
	ReasonCABundleNotFound     = "CABundleNotFound"
	ReasonCABundleKeyNotFound  = "CABundleKeyNotFound"

	// DeploymentUpdated
	ReasonDeploymentUpToDate = "DeploymentUpToDate"
	ReasonDeploymentMissing  = "DeploymentMissing"
	ReasonDeploymentOutdated = "DeploymentOutdated"
	ReasonRolloutInProgress  = "RolloutInProgress"

	// Available
	ReasonMinimumReplicasAvailable = "MinimumReplicasAvailable"
	ReasonDeploymentUnavailable    = "DeploymentUnavailable"

	// ServerReady, ProvidersHealthy, ServerVersionMatched
	ReasonServerAnswered      = "ServerAnswered"
	ReasonServerUnreachable   = "ServerUnreachable"
	ReasonAllProvidersHealthy = "AllProvidersHealthy"
	ReasonProviderUnhealthy   = "ProviderUnhealthy"
	// ReasonProvidersNeedAuthentication: the server lists its providers to authenticated callers only.
	ReasonProvidersNeedAuthentication = "ProvidersNeedAuthentication"
	ReasonVersionMatched              = "VersionMatched"
	ReasonVersionMismatch             = "VersionMismatch"
)
