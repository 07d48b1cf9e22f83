// SPDX-License-Identifier: Apache-2.0

package api

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/llamastack/llsd/internal/lazyre"
	ogx "github.com/llamastack/llsd/pkg/api/ogx/v1beta1"
	"github.com/llamastack/llsd/pkg/api/v1alpha2"
)

// namedBackends converts an OGXServer's named Postgres backends; the fields are the same.
// The successor also takes ${env.X} for the numbers, read from the pod at start-up: llsd
// needs the number itself to hold it to the server's limits and to render the NetworkPolicy.
func (c *ogxConversion) namedBackends(backends map[string]ogx.StorageBackend) map[string]v1alpha2.StorageBackendSpec {
	if len(backends) == 0 {
		return nil
	}
	out := make(map[string]v1alpha2.StorageBackendSpec, len(backends))
	for _, name := range slices.Sorted(maps.Keys(backends)) {
		b, path := backends[name], field.NewPath("spec", "storage", "backends", name)
		spec := v1alpha2.StorageBackendSpec{
			Type: b.Type, Host: b.Host, DB: b.DB, User: b.User, SSLMode: b.SSLMode, CACertPath: b.CACertPath, TableName: b.TableName,
			Port:           c.number(path.Child("port"), b.Port),
			PoolSize:       c.number(path.Child("poolSize"), b.PoolSize),
			MaxOverflow:    c.number(path.Child("maxOverflow"), b.MaxOverflow),
			CommandTimeout: c.number(path.Child("commandTimeout"), b.CommandTimeout),
			PoolRecycle:    c.number(path.Child("poolRecycle"), b.PoolRecycle),
			PoolPrePing:    b.PoolPrePing,
		}
		if b.Password != nil {
			p := secretSource(b.Password)
			spec.Password = &p
		}
		if b.PoolPrePingEnv != "" {
			c.errs = append(c.errs, field.Invalid(path.Child("poolPrePingEnv"), b.PoolPrePingEnv,
				"llsd renders the setting itself, not a variable of the pod: write poolPrePing: true or false"))
		}
		out[name] = spec
	}
	return out
}

// number is an int-or-string field as a number; a ${env.X} substitution is an error.
func (c *ogxConversion) number(path *field.Path, v *intstr.IntOrString) *int32 {
	if v == nil {
		return nil
	}
	if v.Type == intstr.Int {
		return ptr.To(v.IntVal)
	}
	text := strings.TrimSpace(v.StrVal)
	if m := envSubstitution().FindStringSubmatch(text); m != nil {
		// ${env.X} of a variable the OGXServer sets itself to a plain number: that number
		if value, ok := c.plainVariable(m[1]); ok {
			text = value
		}
	}
	n, err := strconv.ParseInt(text, 10, 32)
	if err != nil || n < math.MinInt32 || n > math.MaxInt32 {
		c.errs = append(c.errs, field.Invalid(path, v.StrVal,
			"llsd holds the number to the server's limits before the pod starts, and reads it from a variable of the pod only when "+
				"spec.workload.overrides.env sets that variable to a plain number: write the number, or set the variable so"))
		return nil
	}
	return ptr.To(int32(n))
}

// envSubstitution is a value the server substitutes whole from one variable: ${env.NAME}.
var envSubstitution = lazyre.New(`^\$\{env\.([A-Z0-9_]+)\}$`)

// plainVariable is the value the OGXServer's own env gives name, when it is a plain value
// that reads no other variable (the kubelet's $(VAR)).
func (c *ogxConversion) plainVariable(name string) (string, bool) {
	value, ok := "", false
	for _, e := range c.env {
		if e.Name == name {
			value, ok = e.Value, e.ValueFrom == nil && !strings.Contains(e.Value, "$")
		}
	}
	return strings.TrimSpace(value), ok
}

// namedStores converts an OGXServer's stores. inference.enabled is an OGX 1.4 setting no
// server llsd knows (1.0 to 1.3) accepts.
func (c *ogxConversion) namedStores(s *ogx.StoresSpec) *v1alpha2.StorageStoresSpec {
	if s == nil {
		return nil
	}
	out := &v1alpha2.StorageStoresSpec{
		Conversations: sqlStore(s.Conversations), Prompts: sqlStore(s.Prompts),
		Connectors: sqlStore(s.Connectors), VectorStores: sqlStore(s.VectorStores),
	}
	if m := s.Metadata; m != nil {
		out.Metadata = &v1alpha2.KVStoreRef{Backend: m.Backend, Namespace: m.Namespace}
	}
	if i := s.Inference; i != nil {
		out.Inference = &v1alpha2.InferenceStoreRef{Backend: i.Backend, TableName: i.TableName, MaxWriteQueueSize: i.MaxWriteQueueSize, NumWriters: i.NumWriters}
		if i.Enabled != nil {
			c.errs = append(c.errs, field.Forbidden(field.NewPath("spec", "storage", "stores", "inference", "enabled"),
				"the inference store's enabled is a setting of OGX 1.4, and the servers llsd renders for (OGX 1.0 to 1.3) refuse it: "+
					"remove it (the store is on)"))
		}
	}
	if r := s.Responses; r != nil {
		out.Responses = &v1alpha2.ResponsesStoreRef{Backend: r.Backend, TableName: r.TableName, MaxWriteQueueSize: r.MaxWriteQueueSize, NumWriters: r.NumWriters}
	}
	return out
}

func sqlStore(s *ogx.SQLStoreMapping) *v1alpha2.SQLStoreRef {
	if s == nil {
		return nil
	}
	return &v1alpha2.SQLStoreRef{Backend: s.Backend, TableName: s.TableName}
}
