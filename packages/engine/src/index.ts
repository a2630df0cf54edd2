export { createChunker, chunkStream, CHUNK_SIZES } from './chunking/fastcdc'
export type { Chunker, ChunkerOptions } from './chunking/fastcdc'
export type { CompressionOptions } from './chunks/chunk-codec'
export type {
  ChunkEntry,
  ChunkStore,
  CompactOptions,
  CompactReport,
  ReadOptions,
  StageItem,
  StageResult,
} from './chunks/chunk-store'
export type { ChunkSweep, SweepEntry, SweepRemoval } from './chunks/chunk-sweep'
export type { LastSeenOptions } from './chunks/last-seen'
export { createBlobChunkStore } from './chunks/blob-chunk-store'
export type { BlobChunkStoreOptions } from './chunks/blob-chunk-store'
export type { BlobInfo, BlobRange, BlobStore } from './chunks/blob-store'
export { createLevelChunkStore } from './chunks/level-chunk-store'
export type { LevelChunkStoreOptions } from './chunks/level-chunk-store'
export { createMemoryBlobStore } from './chunks/memory-blob-store'
export { createPackChunkStore } from './chunks/pack-chunk-store'
export type { PackChunkStore, PackChunkStoreOptions } from './chunks/pack-chunk-store'
export type { DamagedPack, PackRecoveryReport } from './chunks/pack-recovery'
export type { PackFileHandle, PackFileSystem } from './chunks/pack-file-system'
export { createTieredChunkStore, DEFAULT_INLINE_CHUNK_BYTES } from './chunks/tiered-chunk-store'
export type { TieredChunkStoreOptions } from './chunks/tiered-chunk-store'
export { ARCHIVE_FORMAT_VERSION, MAX_FRAME_BYTES, readArchive } from './archive/archive-codec'
export type {
  ArchiveFrame,
  ArchiveHeader,
  ArchiveKind,
  ArchiveReader,
  ArchiveSummary,
  ReadArchiveOptions,
} from './archive/archive-codec'
export type { ExportOptions, ExportProgress } from './archive/export-archive'
export type { ImportOptions, ImportResult } from './archive/import-archive'
export type { ChangeIterationOptions, ChangeListener } from './changes/change-feed'
export type { ChangedEntry, DatabaseChange, SequencedChange } from './changes/database-change'
export type { ReplayChangesOptions } from './replay-changes'
export type { EntryDifference } from './changes/entry-diff'
export type { Cluster, HeartbeatInfo, NodeInfo } from './cluster/cluster'
export {
  checkClaimInput,
  checkHeartbeatInfo,
  checkLockInput,
  checkNodeId,
  checkStaleAfterMs,
  DEFAULT_STALE_AFTER_MS,
} from './cluster/cluster-input'
export type { LeaseClaim, Leases, LockResult } from './cluster/leases'
export { createLocalCluster } from './cluster/local-cluster'
export type { LocalClusterOptions } from './cluster/local-cluster'
export { createLocalLeases } from './cluster/local-leases'
export type { LocalLeasesOptions } from './cluster/local-leases'
export { Database } from './database'
export type { DatabaseOptions } from './database-open'
export type { Clock } from './internal/clock'
export type { ChangeResult, Entry } from './read/entry'
export { EngineError, isEngineError } from './errors'
export type { EngineErrorCode, EngineErrorOptions } from './errors'
export type { GcOptions, GcProgress, GcResult } from './gc/collect-garbage'
export { createHasher } from './hashing/create-hasher'
export type { HashAlgorithm, HashDomain, Hasher, HashStream } from './hashing/hasher'
export { createLevelMetaStore } from './meta/level-meta-store'
export { checkMetaOps } from './meta/meta-op-check'
export { guardConflict, guardHolds } from './meta/meta-guard'
export { BINARY_SPACES, TEXT_SPACES } from './meta/meta-store'
export type {
  BinarySpace,
  KeyOf,
  MetaGuard,
  MetaOp,
  MetaStore,
  RangeOptions,
  Space,
  TextSpace,
} from './meta/meta-store'
export {
  hasControlCharacter,
  MAX_NAME_BYTES,
  MAX_PATH_BYTES,
  normalizePath,
  reservedKind,
} from './path/db-path'
export { countGlobAlternatives, MAX_GLOB_ALTERNATIVES, MAX_GLOB_LENGTH } from './path/glob-limits'
export { MAX_SYMLINK_HOPS } from './read/resolve-path'
export { TreeView } from './read/tree-view'
export type { ListOptions, OpenedEntry, StatOptions } from './read/tree-view'
export type { ReadStreamOptions } from './read/view-context'
export { repairDatabase } from './repair-database'
export type { RepairResult } from './repair-database'
export type { EngineStats } from './stats/engine-stats'
export type { SystemBatchOptions, SystemGuard, SystemOp, SystemStore } from './system-store'
export type { Percentiles } from './stats/latency-window'
export type { PeakRates, Rates } from './stats/rate-meter'
export type { VerifyOptions, VerifyProblem, VerifyResult } from './verify/verify-database'
export { Forks } from './versions/forks'
export type { ForkInfo } from './versions/forks'
export {
  DEFAULT_HEAD_LOG_RETENTION_MS,
  MAX_HEAD_LOG_ACTOR,
  MAX_HEAD_LOG_PAGE,
} from './versions/head-log'
export type {
  HeadLogEntry,
  HeadLogOptions,
  HeadLogPage,
  HeadMoveCause,
  HeadMoveOptions,
} from './versions/head-log'
export type { HistoryEntry } from './versions/history'
export { PeerPins } from './versions/peer-pins'
export type { PeerPin } from './versions/peer-pins'
export { Snapshots, MAX_SNAPSHOT_METADATA_BYTES } from './versions/snapshots'
export type { SnapshotInfo } from './versions/snapshots'
export type { VersionSpec } from './versions/version-spec'
export { Workspace } from './workspace'
export type { WriteResult } from './workspace'
export type {
  BulkChunksFile,
  BulkFile,
  WriteFilesOptions,
  WriteFilesResult,
  WrittenFile,
} from './write/bulk-write'
export { MAX_CONTENT_TYPE_BYTES, MAX_METADATA_BYTES } from './write/mutations'
export type { WriteFileOptions } from './write/mutations'
export type { WriteData } from './write/write-data'
export {
  INDEX_CONFIG_PATH,
  MAX_INDEX_CONFIG_BYTES,
  parseIndexConfig,
  VIRTUAL_FIELDS,
} from './indexes/index-config'
export type { IndexConfig, IndexDefinition, IndexType, VirtualField } from './indexes/index-config'
export type { ReindexOptions, ReindexProgress, ReindexResult } from './indexes/build-indexes'
export { QUERY_OPERATORS } from './read/query-types'
export type {
  Comparison,
  Condition,
  OrderBy,
  QueryItem,
  QueryOperator,
  QueryOptions,
  QueryResult,
} from './read/query-types'
