import { EngineError } from '../errors'
import { LruCache } from '../internal/lru-cache'
import type { MetaStore } from '../meta/meta-store'
import type { SpanBuffers } from './chunk-store'
import { assertChunkHash, RECORD_HEADER_LENGTH } from './chunk-record'
import type { PackFile } from './pack-file'
import { decodePackLocation } from './pack-location'
import type { PackLocation } from './pack-location'
import { packRuns } from './pack-read-runs'
import type { StagingTable } from './staging-table'

/** What {@link readManyRecords} needs of the pack store it reads for. */
export interface PackReadContext {
  table: StagingTable<{ location: PackLocation }>
  meta: MetaStore
  packs: ReadonlyMap<number, PackFile>
  /** Reads one chunk the way `read()` does, looking it up again. */
  readOne(hash: Uint8Array): Promise<Uint8Array>
  /** Reads and checks one record at a known location (into memory of `buffers`, if given). */
  readAt(
    hash: Uint8Array,
    location: PackLocation,
    pack: PackFile | undefined,
    buffers?: SpanBuffers,
  ): Promise<Uint8Array>
  /** Reads `length` bytes of a pack (into `into`, if given). */
  readSpan(pack: PackFile, offset: number, length: number, into?: Uint8Array): Promise<Uint8Array>
  /** Checks one record read as part of a span and returns its raw bytes. */
  openAt(hash: Uint8Array, location: PackLocation, record: Uint8Array): Promise<Uint8Array>
  assertOpen(): void
  /** Locations read from the index lately (see {@link createLocationCache}). */
  locations: LruCache<string, PackLocation>
}

/**
 * Memory for chunk locations read from the index: ≈ 200 bytes each, so 4 MiB remembers about
 * 20,000 chunks (over 1 GB of 64 KiB chunks). A location only goes stale when compaction moves
 * its record, and its old pack then leaves the store: the read looks the chunk up again.
 */
export const LOCATION_CACHE_BYTES = 4 * 1024 * 1024
const LOCATION_WEIGHT = 200

/** A cache of chunk locations, keyed by {@link locationKey}. */
export function createLocationCache(): LruCache<string, PackLocation> {
  return new LruCache<string, PackLocation>(LOCATION_CACHE_BYTES)
}

/** The cache key of a chunk hash. */
export function locationKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1')
}

const hex = (hash: Uint8Array): string => Buffer.from(hash).toString('hex')

/**
 * The pack store's `readMany`: the locations of every chunk in one batched index read
 * (staged chunks from the staging table), then one positional read per run of records that
 * sit back to back in a pack (see {@link packRuns}), each record checked on its own (framing,
 * index fields, CRC) before its bytes are returned. Spans are read into `buffers` when given.
 */
export async function readManyRecords(
  store: PackReadContext,
  hashes: readonly Uint8Array[],
  buffers?: SpanBuffers,
): Promise<Uint8Array[]> {
  store.assertOpen()
  for (const hash of hashes) assertChunkHash(hash)
  // Staged chunks from the staging table, the others from the index in one batched read.
  const found = await Promise.all(
    hashes.map((hash) =>
      store.table.get(hash) === undefined
        ? undefined
        : store.table.settled(hash).then((s) => s?.location),
    ),
  )
  // Then the location cache, then the index, in one batched read for the rest.
  const keys = hashes.map(locationKey)
  found.forEach((location, i) => {
    if (location === undefined) found[i] = store.locations.get(keys[i] as string)
  })
  const missing = found.flatMap((location, i) => (location === undefined ? [i] : []))
  if (missing.length > 0) {
    const entries = await store.meta.getMany(
      'chunkidx',
      missing.map((i) => hashes[i] as Uint8Array),
    )
    entries.forEach((entry, j) => {
      const i = missing[j] as number
      if (entry === undefined)
        throw new EngineError('NOT_FOUND', `chunk ${hex(hashes[i] as Uint8Array)} is not stored`)
      const location = decodePackLocation(entry)
      store.locations.set(keys[i] as string, location, LOCATION_WEIGHT)
      found[i] = location
    })
  }
  const locations = found as PackLocation[]
  const out: Uint8Array[] = new Array<Uint8Array>(hashes.length)
  // Every run settles before a failure is thrown: no read may still be filling a caller's
  // buffer once this returns (the caller reuses them).
  const runs = await Promise.allSettled(
    packRuns(locations).map(async (run) => {
      const pack = store.packs.get(run.pack)
      if (pack === undefined) {
        // A pack compacted away since the lookup: the single-chunk path looks again.
        await Promise.all(
          run.items.map(async (i) => {
            store.locations.delete(keys[i] as string)
            out[i] = await store.readOne(hashes[i] as Uint8Array)
          }),
        )
        return
      }
      if (run.items.length === 1) {
        const i = run.items[0] as number
        const location = locations[i] as PackLocation
        out[i] = await store.readAt(hashes[i] as Uint8Array, location, pack, buffers)
        return
      }
      // One read for records appended back to back, each then checked on its own.
      const span = await store.readSpan(pack, run.offset, run.length, buffers?.take(run.length))
      const parts = await Promise.all(
        run.items.map((i) => {
          const location = locations[i] as PackLocation
          const at = location.offset - run.offset
          const record = span.subarray(at, at + RECORD_HEADER_LENGTH + location.storedLength)
          return store.openAt(hashes[i] as Uint8Array, location, record)
        }),
      )
      closeHeaderGaps(span, parts).forEach((part, k) => (out[run.items[k] as number] = part))
    }),
  )
  for (const run of runs) if (run.status === 'rejected') throw run.reason
  return out
}

/**
 * Moves the raw bodies of a span's records, once all are checked, over the headers between
 * them, so that chunks stored raw one after another end up back to back in the span's
 * buffer: a reader may then hand on a run of them as one view (see `readFileContent`), which
 * makes one socket write of it instead of one a chunk. Parts that are not views of the span
 * (inflated chunks) stay as they are, and the next raw body starts a new stretch.
 */
export function closeHeaderGaps(span: Uint8Array, parts: readonly Uint8Array[]): Uint8Array[] {
  let end = -1
  return parts.map((part) => {
    if (part.buffer !== span.buffer) {
      end = -1
      return part
    }
    const at = part.byteOffset - span.byteOffset
    if (end < 0 || end >= at) {
      end = at + part.length
      return part
    }
    // Moving left only, in file order: what is overwritten is a checked header, never a body
    // still to be moved.
    span.copyWithin(end, at, at + part.length)
    const moved = span.subarray(end, end + part.length)
    end += part.length
    return moved
  })
}
