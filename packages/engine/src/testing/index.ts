export { runBlobStoreConformance } from './blob-store-conformance'
export type { BlobStoreFixture, BlobStoreFixtureFactory } from './blob-store-conformance'
export { runChunkStoreConformance } from './chunk-store-conformance'
export type { ChunkStoreFixture, ChunkStoreFixtureFactory } from './chunk-store-conformance'
export { runMetaStoreConformance } from './meta-store-conformance'
export type {
  MetaStoreFixture,
  MetaStoreFixtureFactory,
  MetaStoreSupports,
} from './meta-store-conformance'
export { createSimulatedFileSystem } from './simulated-file-system'
export type { SimulatedFaultCode, SimulatedFileSystem } from './simulated-file-system'
