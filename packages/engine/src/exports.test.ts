import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "CHUNK_SIZES",
      "DEFAULT_INLINE_CHUNK_BYTES",
      "Database",
      "EngineError",
      "MAX_NAME_BYTES",
      "MAX_PATH_BYTES",
      "MAX_SYMLINK_HOPS",
      "TreeView",
      "chunkStream",
      "createChunker",
      "createHasher",
      "createLevelChunkStore",
      "createLevelMetaStore",
      "createPackChunkStore",
      "createTieredChunkStore",
      "isEngineError",
      "normalizePath",
      "reservedKind",
    ]
  `)
})
