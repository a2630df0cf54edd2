import { CHUNK_SIZES } from '../chunking/fastcdc'
import { EngineError } from '../errors'
import type { HashAlgorithm, Hasher, HashStream } from '../hashing/hasher'
import { sameBytes } from '../internal/hex'
import { decodeObject, domainOf, encodeObject } from '../objects/object-codec'
import type { TreeObject } from '../objects/tree-objects'
import {
  ARCHIVE_HEADER_BYTES,
  CHUNK_CODEC,
  END_BODY_BYTES,
  FRAME_TYPE,
  HEADER_PREFIX_BYTES,
  ID_BYTES,
  MAX_FRAME_BYTES,
  checkHeaderPrefix,
  decodeHeader,
  invalidArchive,
} from './archive-format'
import type { ArchiveFrame, ArchiveHeader, ArchiveSummary } from './archive-format'
import { ArchiveInput } from './archive-input'
import { encodeFrameLength, readFrameLength } from './archive-varint'

/** Options of {@link readArchive}. */
export interface ReadArchiveOptions {
  /** The hasher of the header's algorithm; throw here to refuse the algorithm. */
  hasherFor(algorithm: HashAlgorithm): Promise<Hasher>
  /** Most bytes the archive may have; more → `TOO_LARGE`. */
  maxBytes?: number
  /** Most object and chunk frames; more → `TOO_LARGE`. */
  maxFrames?: number
  /** Stops reading with `ABORTED`. */
  signal?: AbortSignal
}

/** An archive whose header was read; its frames are read and verified as they are pulled. */
export interface ArchiveReader {
  header: ArchiveHeader
  /**
   * The frames in archive order, each verified against its id. It finishes (returning the
   * summary) only once the end frame's count and digest match and the input is exhausted:
   * a consumer must not publish anything before that.
   */
  frames: AsyncGenerator<ArchiveFrame, ArchiveSummary, undefined>
}

type Fail = (reason: string, cause?: unknown) => never

const MAX_CHUNK_BODY = ID_BYTES + 1 + CHUNK_SIZES.maxSize

/**
 * Reads an archive strictly and incrementally: memory is bounded by one frame whatever the
 * archive's size. Every defect throws `INVALID_ARCHIVE` naming the byte offset (and frame
 * number); limits throw `TOO_LARGE`, the signal `ABORTED`. The source is released (its
 * iterator `return()`ed) on failure, at the end, and when the consumer stops early, including
 * by calling `frames.return()` without ever iterating. Frame `bytes` may be views of the
 * source's buffers, so the source must not reuse a buffer it has yielded.
 *
 * @example
 * const archive = await readArchive(fs.createReadStream(file), { hasherFor: createHasher })
 * for await (const frame of archive.frames) stage(frame)
 */
export async function readArchive(
  source: AsyncIterable<Uint8Array>,
  options: ReadArchiveOptions,
): Promise<ArchiveReader> {
  const input = new ArchiveInput(source, options)
  let header: ArchiveHeader
  let digest: HashStream
  let hasher: Hasher
  try {
    // Magic and version first: a newer format may have another header size.
    const prefix = (await input.read(HEADER_PREFIX_BYTES, 'the header')).slice()
    checkHeaderPrefix(prefix)
    const rest = await input.read(ARCHIVE_HEADER_BYTES - HEADER_PREFIX_BYTES, 'the header')
    const headerBytes = new Uint8Array(ARCHIVE_HEADER_BYTES)
    headerBytes.set(prefix)
    headerBytes.set(rest, HEADER_PREFIX_BYTES)
    header = decodeHeader(headerBytes)
    hasher = await options.hasherFor(header.hashAlgorithm)
    if (hasher.algorithm !== header.hashAlgorithm)
      throw new TypeError(`hasherFor(${header.hashAlgorithm}) gave a ${hasher.algorithm} hasher`)
    digest = hasher.createStream()
    digest.update(headerBytes)
  } catch (err) {
    await input.release()
    throw err
  }
  const inner = readFrames(input, hasher, digest, options.maxFrames)
  // A generator never started ignores `return()`; this wrapper still releases the source.
  const frames: AsyncGenerator<ArchiveFrame, ArchiveSummary, undefined> = {
    next: () => inner.next(),
    async return(value) {
      try {
        return await inner.return(value)
      } finally {
        await input.release()
      }
    },
    async throw(err) {
      try {
        return await inner.throw(err)
      } finally {
        await input.release()
      }
    },
    [Symbol.asyncIterator]() {
      return this
    },
  }
  return { header, frames }
}

async function* readFrames(
  input: ArchiveInput,
  hasher: Hasher,
  digest: HashStream,
  maxFrames: number | undefined,
): AsyncGenerator<ArchiveFrame, ArchiveSummary, undefined> {
  let frames = 0
  try {
    for (;;) {
      input.checkSignal()
      const start = input.offset
      const type = await input.byte('a frame type')
      const name = type === FRAME_TYPE.end ? 'the end frame' : `frame ${frames + 1}`
      const where = `${name} at byte ${start}`
      const fail: Fail = (reason, cause) => {
        throw invalidArchive(`${where}: ${reason}`, cause)
      }
      if (type !== FRAME_TYPE.object && type !== FRAME_TYPE.chunk && type !== FRAME_TYPE.end)
        fail(`unknown frame type ${type}`)
      if (type !== FRAME_TYPE.end && maxFrames !== undefined && frames >= maxFrames)
        throw new EngineError('TOO_LARGE', `the archive holds more than ${maxFrames} frames`)
      const length = await readFrameLength(() => input.byte(`the length of ${name}`), fail)
      checkLength(type, length, fail)
      const body = await input.read(length, `the body of ${name}`)
      if (type === FRAME_TYPE.end) {
        checkEnd(body, frames, digest, fail)
        if (!(await input.atEnd())) fail('bytes follow the end frame')
        return { frames, bytes: input.offset }
      }
      frames++
      const frame =
        type === FRAME_TYPE.object
          ? verifyObject(body, hasher, fail)
          : verifyChunk(body, hasher, fail)
      // The length had exactly one valid encoding, so re-encoding it gives the bytes read.
      digest.update(new Uint8Array([type]))
      digest.update(encodeFrameLength(length))
      digest.update(body)
      yield frame
    }
  } finally {
    await input.release()
  }
}

function checkLength(type: number, length: number, fail: Fail): void {
  if (length > MAX_FRAME_BYTES) fail(`frame body of ${length} bytes exceeds ${MAX_FRAME_BYTES}`)
  if (type === FRAME_TYPE.end && length !== END_BODY_BYTES)
    fail(`end frame body is ${length} bytes, not ${END_BODY_BYTES}`)
  if (type === FRAME_TYPE.object && length <= ID_BYTES)
    fail(`object frame body of ${length} bytes is too short`)
  if (type === FRAME_TYPE.chunk && (length <= ID_BYTES + 1 || length > MAX_CHUNK_BODY))
    fail(`chunk frame body of ${length} bytes: a chunk holds 1..${CHUNK_SIZES.maxSize} bytes`)
}

function verifyObject(body: Uint8Array, hasher: Hasher, fail: Fail): ArchiveFrame {
  const hash = body.slice(0, ID_BYTES)
  const bytes = body.subarray(ID_BYTES)
  let object: TreeObject
  try {
    object = decodeObject(bytes)
  } catch (err) {
    return fail(`undecodable object: ${err instanceof Error ? err.message : String(err)}`, err)
  }
  // Another encoding of the same object would give equal trees different ids.
  if (!sameBytes(encodeObject(object), bytes)) fail('object bytes are not in canonical encoding')
  if (!sameBytes(hasher.hashDomain(domainOf(object), bytes), hash))
    fail('the object id does not match its bytes')
  return { type: 'object', hash, bytes, object }
}

function verifyChunk(body: Uint8Array, hasher: Hasher, fail: Fail): ArchiveFrame {
  const hash = body.slice(0, ID_BYTES)
  const codec = body[ID_BYTES] as number
  if (codec !== CHUNK_CODEC.raw) fail(`unsupported chunk codec ${codec}`)
  const bytes = body.subarray(ID_BYTES + 1)
  if (!sameBytes(hasher.hashDomain('chunk', bytes), hash))
    fail('the chunk id does not match its bytes')
  return { type: 'chunk', hash, bytes }
}

function checkEnd(body: Uint8Array, frames: number, digest: HashStream, fail: Fail): void {
  const view = new DataView(body.buffer, body.byteOffset, body.byteLength)
  const count = view.getBigUint64(0, true)
  if (count !== BigInt(frames))
    fail(`the end frame counts ${count} frames, the archive holds ${frames}`)
  if (!sameBytes(digest.digest(), body.subarray(8))) fail('the digest does not match the archive')
}
