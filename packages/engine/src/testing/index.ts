export { runBlobStoreConformance } from './blob-store-conformance'
export type { BlobStoreFixture, BlobStoreFixtureFactory } from './blob-store-conformance'
export { createBlobChunkStoreFixture, runChunkStoreConformance } from './chunk-store-conformance'
export type {
  BlobChunkStoreFixtureOptions,
  ChunkStoreFixture,
  ChunkStoreFixtureFactory,
} from './chunk-store-conformance'
export { runClusterConformance } from './cluster-conformance'
export type {
  ClusterFixture,
  ClusterFixtureFactory,
  ClusterFixtureOptions,
  ClusterSupports,
} from './cluster-conformance'
export { runLeasesConformance } from './leases-conformance'
export type { LeasesFixture, LeasesFixtureFactory } from './leases-conformance'
export { runMetaStoreConformance } from './meta-store-conformance'
export type {
  MetaStoreFixture,
  MetaStoreFixtureFactory,
  MetaStoreSupports,
} from './meta-store-conformance'
export { runSharedDatabaseSuite } from './shared-database-suite'
export type { SharedDatabaseFixture, SharedDatabaseFixtureFactory } from './shared-database-suite'
export { createSimulatedFileSystem } from './simulated-file-system'
export type { SimulatedFaultCode, SimulatedFileSystem } from './simulated-file-system'
