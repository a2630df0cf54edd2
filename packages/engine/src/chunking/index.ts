// Browser-safe entry of the chunker (no `node:*` imports), for a `@svcdb/engine/chunking`
// subpath the client can use to cut uploads exactly as the engine does.
export { CHUNK_SIZES, chunkStream, createChunker } from './fastcdc'
export type { Chunker, ChunkerOptions } from './fastcdc'
export { GEAR, GEAR_SEED } from './gear-table'
