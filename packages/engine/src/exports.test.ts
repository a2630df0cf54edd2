import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "CHUNK_SIZES",
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
      "isEngineError",
      "normalizePath",
      "reservedKind",
    ]
  `)
})
