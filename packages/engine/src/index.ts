export { createChunker, chunkStream, CHUNK_SIZES } from './chunking/fastcdc'
export type { Chunker, ChunkerOptions } from './chunking/fastcdc'
export type { CompressionOptions } from './chunks/chunk-codec'
export type { ChunkStore, StageResult } from './chunks/chunk-store'
export { createLevelChunkStore } from './chunks/level-chunk-store'
export type { LevelChunkStoreOptions } from './chunks/level-chunk-store'
export { createPackChunkStore } from './chunks/pack-chunk-store'
export type { PackChunkStore, PackChunkStoreOptions } from './chunks/pack-chunk-store'
export type { DamagedPack, PackRecoveryReport } from './chunks/pack-recovery'
export { createTieredChunkStore, DEFAULT_INLINE_CHUNK_BYTES } from './chunks/tiered-chunk-store'
export type { TieredChunkStoreOptions } from './chunks/tiered-chunk-store'
export { Database } from './database'
export type { ChangeResult, Clock, DatabaseOptions, WriteResult } from './database'
export type { Entry } from './entry'
export { EngineError, isEngineError } from './errors'
export type { EngineErrorCode, EngineErrorOptions } from './errors'
export { createHasher } from './hashing/create-hasher'
export type { HashAlgorithm, HashDomain, Hasher, HashStream } from './hashing/hasher'
export { createLevelMetaStore } from './meta/level-meta-store'
export type {
  BinarySpace,
  KeyOf,
  MetaOp,
  MetaStore,
  RangeOptions,
  Space,
  TextSpace,
} from './meta/meta-store'
export { MAX_NAME_BYTES, MAX_PATH_BYTES, normalizePath, reservedKind } from './path/db-path'
export { MAX_SYMLINK_HOPS } from './read/resolve-path'
export { TreeView } from './read/tree-view'
export type { ListOptions, ReadStreamOptions, StatOptions } from './read/tree-view'
export type { EngineStats } from './stats/engine-stats'
export type { Percentiles } from './stats/latency-window'
export type { PeakRates, Rates } from './stats/rate-meter'
export type { WriteFileOptions } from './write/mutations'
export type { WriteData } from './write/write-data'
