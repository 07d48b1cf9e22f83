// SPDX-License-Identifier: Apache-2.0

package v1alpha1

import (
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// specToHub maps the fields of v1alpha1 to their places in v1alpha2.
func specToHub(src *LlamaStackDistributionSpec) v1alpha2.LlamaStackDistributionSpec {
	s := &src.Server
	dst := v1alpha2.LlamaStackDistributionSpec{
		Distribution: v1alpha2.DistributionSpec{Name: s.Distribution.Name, Image: s.Distribution.Image},
		Networking:   networkingToHub(src),
		Workload: &v1alpha2.WorkloadSpec{
			Replicas:                  ptr.To(src.Replicas),
			Workers:                   s.Workers,
			Resources:                 s.ContainerSpec.Resources,
			TopologySpreadConstraints: s.TopologySpreadConstraints,
			Overrides:                 overridesToHub(s),
		},
	}
	if a := s.Autoscaling; a != nil {
		dst.Workload.Autoscaling = &v1alpha2.AutoscalingSpec{
			MinReplicas: a.MinReplicas, MaxReplicas: a.MaxReplicas,
			TargetCPUUtilizationPercentage:    a.TargetCPUUtilizationPercentage,
			TargetMemoryUtilizationPercentage: a.TargetMemoryUtilizationPercentage,
		}
	}
	if st := s.Storage; st != nil {
		dst.Workload.Storage = &v1alpha2.PVCStorageSpec{Size: st.Size, MountPath: st.MountPath}
	}
	if b := s.PodDisruptionBudget; b != nil {
		dst.Workload.PodDisruptionBudget = &v1alpha2.PodDisruptionBudgetSpec{MinAvailable: b.MinAvailable, MaxUnavailable: b.MaxUnavailable}
	}
	if u := s.UserConfig; u != nil {
		dst.OverrideConfig = &v1alpha2.OverrideConfigSpec{ConfigMapName: u.ConfigMapName}
	}
	return dst
}

func overridesToHub(s *ServerSpec) *v1alpha2.WorkloadOverrides {
	c := &s.ContainerSpec
	if s.PodOverrides == nil && len(c.Env) == 0 && len(c.Command) == 0 && len(c.Args) == 0 {
		return nil
	}
	o := &v1alpha2.WorkloadOverrides{Env: c.Env, Command: c.Command, Args: c.Args}
	if p := s.PodOverrides; p != nil {
		o.ServiceAccountName = p.ServiceAccountName
		o.TerminationGracePeriodSeconds = p.TerminationGracePeriodSeconds
		o.Volumes, o.VolumeMounts = p.Volumes, p.VolumeMounts
	}
	return o
}

func networkingToHub(src *LlamaStackDistributionSpec) *v1alpha2.NetworkingSpec {
	n := &v1alpha2.NetworkingSpec{}
	if port := src.Server.ContainerSpec.Port; port != 0 {
		n.Port = ptr.To(port)
	}
	if t := src.Server.TLSConfig; t != nil {
		n.TLS = &v1alpha2.TLSSpec{}
		if b := t.CABundle; b != nil {
			n.TLS.CABundle = &v1alpha2.CABundleSpec{
				ConfigMapName: b.ConfigMapName, ConfigMapNamespace: b.ConfigMapNamespace, ConfigMapKeys: b.ConfigMapKeys,
			}
		}
	}
	if net := src.Network; net != nil {
		if net.ExposeRoute {
			n.Expose = &v1alpha2.ExposeSpec{Enabled: ptr.To(true)}
		}
		if a := net.AllowedFrom; a != nil {
			n.AllowedFrom = &v1alpha2.AllowedFromSpec{Namespaces: a.Namespaces, Labels: a.Labels}
		}
	}
	if *n == (v1alpha2.NetworkingSpec{}) {
		return nil
	}
	return n
}

// specFromHub maps the fields of v1alpha2 back to v1alpha1. Fields v1alpha1
// cannot hold are left out; ConvertFrom keeps them in an annotation.
func specFromHub(src *v1alpha2.LlamaStackDistributionSpec) LlamaStackDistributionSpec {
	dst := LlamaStackDistributionSpec{
		Replicas: 1,
		Server: ServerSpec{
			Distribution:  DistributionType{Name: src.Distribution.Name, Image: src.Distribution.Image},
			ContainerSpec: ContainerSpec{Name: DefaultContainerName},
		},
	}
	s := &dst.Server
	if n := src.Networking; n != nil {
		s.ContainerSpec.Port = ptr.Deref(n.Port, 0)
		if n.TLS != nil && n.TLS.CABundle != nil {
			b := n.TLS.CABundle
			s.TLSConfig = &TLSConfig{CABundle: &CABundleConfig{
				ConfigMapName: b.ConfigMapName, ConfigMapNamespace: b.ConfigMapNamespace, ConfigMapKeys: b.ConfigMapKeys,
			}}
		}
		if src.ExposeEnabled() || n.AllowedFrom != nil {
			dst.Network = &NetworkSpec{ExposeRoute: src.ExposeEnabled()}
			if a := n.AllowedFrom; a != nil {
				dst.Network.AllowedFrom = &AllowedFromSpec{Namespaces: a.Namespaces, Labels: a.Labels}
			}
		}
	}
	if w := src.Workload; w != nil {
		dst.Replicas = ptr.Deref(w.Replicas, 1)
		s.Workers = w.Workers
		s.ContainerSpec.Resources = w.Resources
		s.TopologySpreadConstraints = w.TopologySpreadConstraints
		if a := w.Autoscaling; a != nil {
			s.Autoscaling = &AutoscalingSpec{
				MinReplicas: a.MinReplicas, MaxReplicas: a.MaxReplicas,
				TargetCPUUtilizationPercentage:    a.TargetCPUUtilizationPercentage,
				TargetMemoryUtilizationPercentage: a.TargetMemoryUtilizationPercentage,
			}
		}
		if st := w.Storage; st != nil {
			s.Storage = &StorageSpec{Size: st.Size, MountPath: st.MountPath}
		}
		if b := w.PodDisruptionBudget; b != nil {
			s.PodDisruptionBudget = &PodDisruptionBudgetSpec{MinAvailable: b.MinAvailable, MaxUnavailable: b.MaxUnavailable}
		}
		if o := w.Overrides; o != nil {
			s.ContainerSpec.Env, s.ContainerSpec.Command, s.ContainerSpec.Args = o.Env, o.Command, o.Args
			if o.ServiceAccountName != "" || o.TerminationGracePeriodSeconds != nil || len(o.Volumes) > 0 || len(o.VolumeMounts) > 0 {
				s.PodOverrides = &PodOverrides{
					ServiceAccountName: o.ServiceAccountName, TerminationGracePeriodSeconds: o.TerminationGracePeriodSeconds,
					Volumes: o.Volumes, VolumeMounts: o.VolumeMounts,
				}
			}
		}
	}
	if o := src.OverrideConfig; o != nil {
		s.UserConfig = &UserConfigSpec{ConfigMapName: o.ConfigMapName}
	}
	return dst
}

func statusToHub(src *LlamaStackDistributionStatus) v1alpha2.LlamaStackDistributionStatus {
	dst := v1alpha2.LlamaStackDistributionStatus{
		Phase:      v1alpha2.DistributionPhase(src.Phase),
		Conditions: src.Conditions,
		Version:    v1alpha2.VersionInfo(src.Version),
		DistributionConfig: v1alpha2.DistributionConfig{
			ActiveDistribution:     src.DistributionConfig.ActiveDistribution,
			AvailableDistributions: src.DistributionConfig.AvailableDistributions,
		},
		AvailableReplicas: src.AvailableReplicas,
		ServiceURL:        src.ServiceURL,
		RouteURL:          src.RouteURL,
	}
	for _, p := range src.DistributionConfig.Providers {
		dst.DistributionConfig.Providers = append(dst.DistributionConfig.Providers, v1alpha2.ProviderInfo{
			API: p.API, ProviderID: p.ProviderID, ProviderType: p.ProviderType, Config: p.Config,
			Health: v1alpha2.ProviderHealthStatus(p.Health),
		})
	}
	return dst
}

func statusFromHub(src *v1alpha2.LlamaStackDistributionStatus) LlamaStackDistributionStatus {
	dst := LlamaStackDistributionStatus{
		Phase:      DistributionPhase(src.Phase),
		Conditions: src.Conditions,
		Version:    VersionInfo(src.Version),
		DistributionConfig: DistributionConfig{
			ActiveDistribution:     src.DistributionConfig.ActiveDistribution,
			AvailableDistributions: src.DistributionConfig.AvailableDistributions,
		},
		AvailableReplicas: src.AvailableReplicas,
		ServiceURL:        src.ServiceURL,
		RouteURL:          src.RouteURL,
	}
	for _, p := range src.DistributionConfig.Providers {
		dst.DistributionConfig.Providers = append(dst.DistributionConfig.Providers, ProviderInfo{
			API: p.API, ProviderID: p.ProviderID, ProviderType: p.ProviderType, Config: p.Config,
			Health: ProviderHealthStatus(p.Health),
		})
	}
	return dst
}
