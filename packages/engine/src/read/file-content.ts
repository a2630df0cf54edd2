import type { ChunkStore } from '../chunks/chunk-store'
import { EngineError, isEngineError } from '../errors'
import type { ObjectReader } from '../objects/object-store'
import type { ChunkRef, FileObject } from '../objects/tree-objects'

/** An inclusive byte range of a file. */
export interface ByteRange {
  start: number
  end: number
}

async function* chunkRefs(
  objects: ObjectReader,
  file: FileObject,
  start: number,
): AsyncGenerator<[ChunkRef, number]> {
  let offset = 0
  if (file.chunks !== undefined) {
    for (const ref of file.chunks) {
      yield [ref, offset]
      offset += ref.size
    }
    return
  }
  for (const list of file.lists ?? []) {
    // Whole lists before the range are skipped without loading them.
    if (offset + list.bytes <= start) {
      offset += list.bytes
      continue
    }
    const loaded = await objects.get(list.hash)
    if (loaded.type !== 'list')
      throw new EngineError('CONTENT_CORRUPT', 'a chunk list of a file is damaged')
    for (const ref of loaded.chunks) {
      yield [ref, offset]
      offset += ref.size
    }
  }
}

/** The part of one chunk to yield, `[from, to)`, and the chunk's recorded size. */
type Slice = [from: number, to: number, size: number]

/**
 * The bytes of `range` of a file, one slice per chunk, read one chunk ahead of the consumer
 * so storage reads overlap with whatever the consumer does.
 */
export async function* readFileContent(
  objects: ObjectReader,
  chunks: ChunkStore,
  file: FileObject,
  range: ByteRange,
): AsyncGenerator<Uint8Array> {
  let ahead: Promise<Uint8Array> | undefined
  let aheadSlice: Slice = [0, 0, 0]
  for await (const [ref, offset] of chunkRefs(objects, file, range.start)) {
    if (offset + ref.size <= range.start) continue
    if (offset > range.end) break
    const read = chunks.read(ref.hash, { size: ref.size })
    // Handled at once: the read may fail while an earlier chunk is awaited or yielded, or
    // after the consumer stopped; it is surfaced when awaited, never as an unhandled rejection.
    read.catch(() => undefined)
    const slice: Slice = [
      Math.max(0, range.start - offset),
      Math.min(ref.size, range.end - offset + 1),
      ref.size,
    ]
    if (ahead !== undefined) {
      let bytes: Uint8Array
      try {
        bytes = await ahead
      } catch (err) {
        throw corruptIfMissing(err)
      }
      yield checked(bytes, aheadSlice)
    }
    ahead = read
    aheadSlice = slice
  }
  if (ahead === undefined) return
  let bytes: Uint8Array
  try {
    bytes = await ahead
  } catch (err) {
    throw corruptIfMissing(err)
  }
  yield checked(bytes, aheadSlice)
}

/** A chunk a file names but the store lacks is damage, not an absent file. */
function corruptIfMissing(err: unknown): unknown {
  return isEngineError(err, 'NOT_FOUND')
    ? new EngineError('CONTENT_CORRUPT', 'a chunk of the file is missing', { cause: err })
    : err
}

function checked(bytes: Uint8Array, [from, to, size]: Slice): Uint8Array {
  if (bytes.length !== size)
    throw new EngineError('CONTENT_CORRUPT', 'a stored chunk is not the size its file records')
  return from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to)
}
