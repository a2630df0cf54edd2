export { createPostgresMetaStore } from './postgres-meta-store'
export { DEFAULT_SCHEMA } from './postgres-meta-store-options'
export type { PostgresMetaStoreOptions } from './postgres-meta-store-options'
