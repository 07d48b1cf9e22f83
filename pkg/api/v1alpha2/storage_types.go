// SPDX-License-Identifier: Apache-2.0

package v1alpha2

// StateStorageSpec selects the server's storage backends, in one of two forms. kv and sql
// replace the distribution's kv_default and sql_default backends and keep the rest of its
// storage section. backends and stores (the form of the successor operator's OGXServer)
// replace the whole storage section: the server then has exactly the named Postgres
// backends, and every store and provider must name one of them:
//
//	storage:
//	  backends:
//	    kv_default: {type: kv_postgres, host: pg, user: ogx, password: {secretKeyRef: {name: pg, key: password}}}
//	    sql_default: {type: sql_postgres, host: pg, user: ogx, password: {secretKeyRef: {name: pg, key: password}}}
type StateStorageSpec struct {
	// KV is the key-value backend (kv_default).
	// +optional
	KV *KVStorageSpec `json:"kv,omitempty"`
	// SQL is the SQL backend (sql_default).
	// +optional
	SQL *SQLStorageSpec `json:"sql,omitempty"`
	// Backends are named Postgres backends, by name (kv_default and sql_default are the
	// names the distributions' providers use). Without stores, exactly one kv_postgres and
	// one sql_postgres backend are needed: the server's stores then use them.
	// +optional
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=16
	Backends map[string]StorageBackendSpec `json:"backends,omitempty"`
	// Stores name the backend of each of the server's own stores. A store left out is
	// not configured at all (as the successor operator writes it), so the server's required
	// stores (metadata, inference, conversations, prompts, connectors) must all be named.
	// +optional
	Stores *StorageStoresSpec `json:"stores,omitempty"`
}

// KVStorageSpec is the key-value backend.
type KVStorageSpec struct {
	// Type is sqlite or redis.
	// +optional
	// +kubebuilder:default:=sqlite
	// +kubebuilder:validation:Enum=sqlite;redis
	Type string `json:"type,omitempty"`
	// Endpoint of the redis server, host:port or redis://host:port.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=2048
	Endpoint string `json:"endpoint,omitempty"`
	// Password of the redis server, from a Secret.
	// +optional
	Password *SecretKeySource `json:"password,omitempty"`
}

// SQLStorageSpec is the SQL backend.
type SQLStorageSpec struct {
	// Type is sqlite or postgres.
	// +optional
	// +kubebuilder:default:=sqlite
	// +kubebuilder:validation:Enum=sqlite;postgres
	Type string `json:"type,omitempty"`
	// ConnectionString of the postgres database, from a Secret (URL or key=value form).
	// +optional
	ConnectionString *SecretKeySource `json:"connectionString,omitempty"`
}

// StorageBackendSpec is a named Postgres backend of the server.
type StorageBackendSpec struct {
	// Type is kv_postgres (a key-value table) or sql_postgres.
	// +kubebuilder:validation:Enum=kv_postgres;sql_postgres
	Type string `json:"type"`
	// Host of the database; localhost (the server's default) when unset, which is only
	// right with a Postgres sidecar.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Host string `json:"host,omitempty"`
	// Port of the database; 5432 when unset.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	Port *int32 `json:"port,omitempty"`
	// DB is the database name; ogx (the server's default) when unset.
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	DB string `json:"db,omitempty"`
	// User the server logs in as.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	User string `json:"user"`
	// Password of the user, from a Secret.
	// +optional
	Password *SecretKeySource `json:"password,omitempty"`
	// SSLMode of the connection (kv_postgres; sql_postgres from OGX 1.4).
	// +optional
	// +kubebuilder:validation:Enum=disable;allow;prefer;require;verify-ca;verify-full
	SSLMode string `json:"sslMode,omitempty"`
	// CACertPath is the file in the pod of the CA that signed the database's certificate
	// (kv_postgres; sql_postgres from OGX 1.4).
	// +optional
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=4096
	CACertPath string `json:"caCertPath,omitempty"`
	// TableName of a kv_postgres backend's table; ogx_kvstore (the server's default) when unset.
	// +optional
	// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_]{0,62}$`
	TableName string `json:"tableName,omitempty"`
	// PoolSize is the number of connections the server keeps open.
	// +optional
	// +kubebuilder:validation:Minimum=1
	PoolSize *int32 `json:"poolSize,omitempty"`
	// MaxOverflow is the number of connections beyond poolSize.
	// +optional
	// +kubebuilder:validation:Minimum=0
	MaxOverflow *int32 `json:"maxOverflow,omitempty"`
	// CommandTimeout of a kv_postgres statement, in seconds (OGX 1.2 and newer).
	// +optional
	// +kubebuilder:validation:Minimum=1
	CommandTimeout *int32 `json:"commandTimeout,omitempty"`
	// PoolRecycle is the age in seconds after which a sql_postgres connection is replaced;
	// -1 never replaces it.
	// +optional
	// +kubebuilder:validation:Minimum=-1
	PoolRecycle *int32 `json:"poolRecycle,omitempty"`
	// PoolPrePing tests a sql_postgres connection before each use.
	// +optional
	PoolPrePing *bool `json:"poolPrePing,omitempty"`
}

// DefaultPostgresPort is the port of a Postgres server that names none.
const DefaultPostgresPort = 5432

// PortOrDefault is the backend's port: its own, else Postgres's.
func (b StorageBackendSpec) PortOrDefault() int32 {
	if b.Port != nil {
		return *b.Port
	}
	return DefaultPostgresPort
}

// StorageStoresSpec names the backend of each of the server's stores.
type StorageStoresSpec struct {
	// Metadata is the registry of models, vector stores and tools (a kv_postgres backend).
	// +optional
	Metadata *KVStoreRef `json:"metadata,omitempty"`
	// Inference keeps chat completions (a sql_postgres backend).
	// +optional
	Inference *InferenceStoreRef `json:"inference,omitempty"`
	// Conversations of the Conversations API (a sql_postgres backend).
	// +optional
	Conversations *SQLStoreRef `json:"conversations,omitempty"`
	// Responses of the Responses API (a sql_postgres backend).
	// +optional
	Responses *ResponsesStoreRef `json:"responses,omitempty"`
	// Prompts of the Prompts API (a sql_postgres backend).
	// +optional
	Prompts *SQLStoreRef `json:"prompts,omitempty"`
	// Connectors registered with the server (a sql_postgres backend).
	// +optional
	Connectors *SQLStoreRef `json:"connectors,omitempty"`
	// VectorStores keeps the metadata of every vector store (a sql_postgres backend).
	// +optional
	VectorStores *SQLStoreRef `json:"vectorStores,omitempty"`
}

// KVStoreRef is a store in a key-value backend.
type KVStoreRef struct {
	// Backend is a name of storage.backends.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Backend string `json:"backend"`
	// Namespace prefixes the store's keys.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Namespace string `json:"namespace"`
}

// SQLStoreRef is a store in a SQL backend.
type SQLStoreRef struct {
	// Backend is a name of storage.backends.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Backend string `json:"backend"`
	// TableName of the store.
	// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_]{0,62}$`
	TableName string `json:"tableName"`
}

// InferenceStoreRef is the inference store and its background writers.
type InferenceStoreRef struct {
	// Backend is a name of storage.backends.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Backend string `json:"backend"`
	// TableName of the store.
	// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_]{0,62}$`
	TableName string `json:"tableName"`
	// MaxWriteQueueSize is the number of writes queued before callers wait.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MaxWriteQueueSize *int32 `json:"maxWriteQueueSize,omitempty"`
	// NumWriters is the number of background writers.
	// +optional
	// +kubebuilder:validation:Minimum=1
	NumWriters *int32 `json:"numWriters,omitempty"`
}

// ResponsesStoreRef is the responses store and its background writers.
type ResponsesStoreRef struct {
	// Backend is a name of storage.backends.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Backend string `json:"backend"`
	// TableName of the store; openai_responses (the server's default) when unset.
	// +optional
	// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_]{0,62}$`
	TableName string `json:"tableName,omitempty"`
	// MaxWriteQueueSize is the number of writes queued before callers wait.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MaxWriteQueueSize *int32 `json:"maxWriteQueueSize,omitempty"`
	// NumWriters is the number of background writers.
	// +optional
	// +kubebuilder:validation:Minimum=1
	NumWriters *int32 `json:"numWriters,omitempty"`
}
