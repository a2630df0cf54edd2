import { mkdtemp, open, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClassicLevel } from 'classic-level'
import { createLevelMetaStore } from '../../src/meta/level-meta-store'
import type { MetaStore } from '../../src/meta/meta-store'
import type { ChunkStoreFixture } from '../../src/testing/chunk-store-conformance'
import { RECORD_HEADER_LENGTH } from '../../src/chunks/chunk-record'
import { createPackChunkStore } from '../../src/chunks/pack-chunk-store'
import type { PackChunkStore, PackChunkStoreOptions } from '../../src/chunks/pack-chunk-store'
import { packFileName } from '../../src/chunks/pack-file'
import { decodePackLocation } from '../../src/chunks/pack-location'
import type { PackLocation } from '../../src/chunks/pack-location'

// Test support for the pack store's tests (not part of the package's API).

/** Store options of a fixture, plus a hook to wrap the metadata store the chunk store sees. */
export type PackFixtureOptions = Omit<PackChunkStoreOptions, 'dir' | 'meta'> & {
  wrapMeta?(meta: MetaStore): MetaStore
}

/** A pack store over classic-level in a temp dir, with hooks into its files. */
export interface PackFixture extends ChunkStoreFixture {
  readonly store: PackChunkStore
  readonly packsDir: string
  location(hash: Uint8Array): Promise<PackLocation>
  /** Size of each pack file, by file name. */
  packSizes(): Promise<Map<string, number>>
  reopen(): Promise<PackFixture>
}

const opened: PackFixture[] = []
const dirs: string[] = []

/** A fresh temp dir, removed by {@link cleanUpPackFixtures}. */
export async function newPackDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-pack-chunks-'))
  dirs.push(dir)
  return dir
}

/** Closes every fixture opened and removes the temp dirs; call it in `afterEach`. */
export async function cleanUpPackFixtures(): Promise<void> {
  await Promise.all(opened.splice(0).map((f) => f.close()))
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })))
}

/** Flips the lowest bit of one byte of a file. */
export async function flipByte(path: string, position: number): Promise<void> {
  const handle = await open(path, 'r+')
  try {
    const byte = new Uint8Array(1)
    await handle.read(byte, 0, 1, position)
    byte[0] = (byte[0] as number) ^ 0x01
    await handle.write(byte, 0, 1, position)
  } finally {
    await handle.close()
  }
}

/** Opens classic-level metadata in `<dir>/meta` and pack files in `<dir>/packs`. */
export async function openPackFixture(
  dir: string,
  options: PackFixtureOptions = {},
): Promise<PackFixture> {
  const { wrapMeta, ...storeOptions } = options
  const level = new ClassicLevel(join(dir, 'meta'), { keyEncoding: 'view', valueEncoding: 'view' })
  await level.open()
  const levelMeta = createLevelMetaStore(level)
  const meta = wrapMeta?.(levelMeta) ?? levelMeta
  const packsDir = join(dir, 'packs')
  const store = await createPackChunkStore({ dir: packsDir, meta, ...storeOptions })
  let closed = false
  const fixture: PackFixture = {
    store,
    meta,
    packsDir,
    async location(hash) {
      const entry = await levelMeta.get('chunkidx', hash)
      if (entry === undefined) throw new Error('chunk is not indexed')
      return decodePackLocation(entry)
    },
    async corrupt(hash) {
      const at = await fixture.location(hash)
      await flipByte(
        join(packsDir, packFileName(at.pack)),
        at.offset + RECORD_HEADER_LENGTH + (at.storedLength >> 1),
      )
    },
    async packSizes() {
      const sizes = new Map<string, number>()
      for (const name of (await readdir(packsDir)).sort()) {
        sizes.set(name, (await stat(join(packsDir, name))).size)
      }
      return sizes
    },
    async footprint() {
      let total = 0
      for (const size of (await fixture.packSizes()).values()) total += size
      return total
    },
    async reopen() {
      await fixture.close()
      return openPackFixture(dir, options)
    },
    async close() {
      if (closed) return
      closed = true
      await store.close()
      await levelMeta.close()
    },
  }
  opened.push(fixture)
  return fixture
}
