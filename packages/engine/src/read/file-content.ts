import { readChunks } from '../chunks/chunk-store'
import type { ChunkStore } from '../chunks/chunk-store'
import { EngineError, isEngineError } from '../errors'
import type { ObjectReader } from '../objects/object-store'
import type { ChunkRef, FileObject } from '../objects/tree-objects'
import { WindowBuffers } from './read-buffer-pool'
import type { ReadBufferPool } from './read-buffer-pool'

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

/** Chunks read together: one `readChunks` call. */
interface Window {
  refs: ChunkRef[]
  slices: Slice[]
  bytes: number
}

/**
 * Bytes of the first window: all a reader has before it yields anything. An HTTP answer
 * decides its status on the first bytes, so damage in them answers an error while damage
 * further on cuts the body short; this keeps that first read small (one chunk at most of
 * the chunker's maximum).
 */
export const FIRST_WINDOW_BYTES = 256 * 1024
/** Bytes of each later window, read one window ahead of the consumer. */
export const WINDOW_BYTES = 1024 * 1024

/** The chunks overlapping `range`, grouped into windows of about `FIRST_WINDOW_BYTES`, then `WINDOW_BYTES`. */
async function* windows(
  objects: ObjectReader,
  file: FileObject,
  range: ByteRange,
): AsyncGenerator<Window> {
  let window: Window = { refs: [], slices: [], bytes: 0 }
  let limit = FIRST_WINDOW_BYTES
  for await (const [ref, offset] of chunkRefs(objects, file, range.start)) {
    if (offset + ref.size <= range.start) continue
    if (offset > range.end) break
    if (window.refs.length > 0 && window.bytes + ref.size > limit) {
      yield window
      window = { refs: [], slices: [], bytes: 0 }
      limit = WINDOW_BYTES
    }
    window.refs.push(ref)
    window.slices.push([
      Math.max(0, range.start - offset),
      Math.min(ref.size, range.end - offset + 1),
      ref.size,
    ])
    window.bytes += ref.size
  }
  if (window.refs.length > 0) yield window
}

function readWindow(
  chunks: ChunkStore,
  window: Window,
  buffers: WindowBuffers | undefined,
): Promise<Uint8Array[]> {
  const read = readChunks(
    chunks,
    window.refs.map((ref) => ref.hash),
    {
      sizes: window.refs.map((ref) => ref.size),
      ...(buffers === undefined ? {} : { buffers }),
    },
  )
  // Handled at once: the read may fail while an earlier window is awaited or yielded, or
  // after the consumer stopped; it is surfaced when awaited, never as an unhandled rejection.
  read.catch(() => undefined)
  return read
}

/** Options of {@link readFileContent}. */
export interface FileContentOptions {
  /**
   * Lends parts: each is valid only until the consumer asks for the next one, when its
   * memory may be reused for a later window (see {@link ReadBufferPool}). For consumers that
   * are done with a part when they ask for the next (a socket write that has called back),
   * not for a web stream, which asks ahead.
   */
  pool?: ReadBufferPool
}

type Pending = [read: Promise<Uint8Array[]>, window: Window, buffers: WindowBuffers | undefined]

/**
 * The bytes of `range` of a file, one part per chunk or per run of chunks the store returned
 * back to back in one buffer. Chunks are read a window at a time
 * (see {@link FIRST_WINDOW_BYTES}; stores with `readMany` fetch a window's chunks with few
 * large reads), one window ahead of the consumer so storage reads overlap with whatever the
 * consumer does. At most two windows are held at once.
 */
export async function* readFileContent(
  objects: ObjectReader,
  chunks: ChunkStore,
  file: FileObject,
  range: ByteRange,
  options: FileContentOptions = {},
): AsyncGenerator<Uint8Array> {
  const { pool } = options
  let ahead: Pending | undefined
  for await (const window of windows(objects, file, range)) {
    const buffers = pool === undefined ? undefined : new WindowBuffers(pool)
    const read = readWindow(chunks, window, buffers)
    if (ahead !== undefined) yield* consumed(ahead)
    ahead = [read, window, buffers]
  }
  if (ahead !== undefined) yield* consumed(ahead)
}

/** A window's parts; its buffers go back to the pool once the consumer asks past them. */
async function* consumed([read, window, buffers]: Pending): AsyncGenerator<Uint8Array> {
  yield* sliced(read, window)
  // Only after the whole window went well: a failed read may still be filling its buffers,
  // and a consumer that stopped early may still be writing a part.
  buffers?.release()
}

async function* sliced(read: Promise<Uint8Array[]>, window: Window): AsyncGenerator<Uint8Array> {
  let parts: Uint8Array[]
  try {
    parts = await read
  } catch (err) {
    throw corruptIfMissing(err)
  }
  // Chunks the store returned back to back in one buffer go out as one view: one part (one
  // socket write, one trip through the consumer's streams) instead of one a chunk.
  let pending: Uint8Array | undefined
  for (let i = 0; i < parts.length; i++) {
    const part = checked(parts[i] as Uint8Array, window.slices[i] as Slice)
    if (pending === undefined) pending = part
    else if (adjacent(pending, part))
      pending = new Uint8Array(pending.buffer, pending.byteOffset, pending.length + part.length)
    else {
      yield pending
      pending = part
    }
  }
  if (pending !== undefined) yield pending
}

/** True when `next` starts where `part` ends, in the same memory. */
function adjacent(part: Uint8Array, next: Uint8Array): boolean {
  return part.buffer === next.buffer && part.byteOffset + part.length === next.byteOffset
}

/** A chunk a file names but the store lacks is damage, not an absent file. */
export function corruptIfMissing(err: unknown): unknown {
  return isEngineError(err, 'NOT_FOUND')
    ? new EngineError('CONTENT_CORRUPT', 'a chunk of the file is missing', { cause: err })
    : err
}

/** A chunk's bytes checked against the size its file records, cut to the slice asked for. */
export function checked(bytes: Uint8Array, [from, to, size]: Slice): Uint8Array {
  if (bytes.length !== size)
    throw new EngineError('CONTENT_CORRUPT', 'a stored chunk is not the size its file records')
  return from === 0 && to === bytes.length ? bytes : bytes.subarray(from, to)
}
