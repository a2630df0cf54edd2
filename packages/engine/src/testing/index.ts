export { runChunkStoreConformance } from './chunk-store-conformance'
export type { ChunkStoreFixture, ChunkStoreFixtureFactory } from './chunk-store-conformance'
