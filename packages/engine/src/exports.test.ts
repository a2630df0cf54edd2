import { expect, it } from 'vitest'
import * as api from './index'
import * as chunking from './chunking/index'
import * as queryLanguage from './query-language/index'
import * as testing from './testing/index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "ARCHIVE_FORMAT_VERSION",
      "BINARY_SPACES",
      "CHUNK_SIZES",
      "DEFAULT_HEAD_LOG_RETENTION_MS",
      "DEFAULT_INLINE_CHUNK_BYTES",
      "DEFAULT_STALE_AFTER_MS",
      "Database",
      "EngineError",
      "Forks",
      "INDEX_CONFIG_PATH",
      "MAX_CONTENT_TYPE_BYTES",
      "MAX_FRAME_BYTES",
      "MAX_GLOB_ALTERNATIVES",
      "MAX_GLOB_LENGTH",
      "MAX_HEAD_LOG_ACTOR",
      "MAX_HEAD_LOG_PAGE",
      "MAX_INDEX_CONFIG_BYTES",
      "MAX_METADATA_BYTES",
      "MAX_NAME_BYTES",
      "MAX_PATH_BYTES",
      "MAX_SNAPSHOT_METADATA_BYTES",
      "MAX_SYMLINK_HOPS",
      "PeerPins",
      "QUERY_OPERATORS",
      "Snapshots",
      "TEXT_SPACES",
      "TreeView",
      "VIRTUAL_FIELDS",
      "Workspace",
      "checkClaimInput",
      "checkHeartbeatInfo",
      "checkLockInput",
      "checkMetaOps",
      "checkNodeId",
      "checkStaleAfterMs",
      "chunkStream",
      "countGlobAlternatives",
      "createBlobChunkStore",
      "createChunker",
      "createHasher",
      "createLevelChunkStore",
      "createLevelMetaStore",
      "createLocalCluster",
      "createLocalLeases",
      "createMemoryBlobStore",
      "createPackChunkStore",
      "createTieredChunkStore",
      "guardConflict",
      "guardHolds",
      "hasControlCharacter",
      "isEngineError",
      "normalizePath",
      "parseIndexConfig",
      "readArchive",
      "repairDatabase",
      "reservedKind",
    ]
  `)
})

it('exports exactly the chunking surface', () => {
  expect(Object.keys(chunking).sort()).toMatchInlineSnapshot(`
    [
      "CHUNK_SIZES",
      "GEAR",
      "GEAR_SEED",
      "chunkStream",
      "createChunker",
    ]
  `)
})

it('exports exactly the query-language surface', () => {
  expect(Object.keys(queryLanguage).sort()).toMatchInlineSnapshot(`
    [
      "QUERY_OPERATORS",
    ]
  `)
})

it('exports exactly the testing surface', () => {
  expect(Object.keys(testing).sort()).toMatchInlineSnapshot(`
    [
      "createBlobChunkStoreFixture",
      "createSimulatedFileSystem",
      "runBlobStoreConformance",
      "runChunkStoreConformance",
      "runClusterConformance",
      "runLeasesConformance",
      "runMetaStoreConformance",
      "runSharedDatabaseSuite",
    ]
  `)
})
