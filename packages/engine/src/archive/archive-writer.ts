import { CHUNK_SIZES } from '../chunking/fastcdc'
import type { Hasher } from '../hashing/hasher'
import {
  CHUNK_CODEC,
  END_BODY_BYTES,
  FRAME_TYPE,
  ID_BYTES,
  MAX_FRAME_BYTES,
  encodeHeader,
} from './archive-format'
import type { ArchiveHeader } from './archive-format'
import { encodeFrameLength } from './archive-varint'

/** Encodes one archive; see {@link createArchiveWriter}. */
export interface ArchiveWriter {
  /** The header bytes; must be called first, once. */
  header(): Uint8Array
  /** An object frame: `bytes` is the object's encoding and `hash` its id. */
  object(hash: Uint8Array, bytes: Uint8Array): Uint8Array[]
  /** A chunk frame: `raw` is the chunk's content and `hash` its id. */
  chunk(hash: Uint8Array, raw: Uint8Array): Uint8Array[]
  /** The end frame (frame count and digest); nothing may follow it. */
  end(): Uint8Array
  /** Object and chunk frames written so far. */
  readonly frames: number
  /** Bytes returned so far. */
  readonly bytes: number
}

/**
 * Encodes an archive as a sequence of byte arrays to write in order, keeping the running
 * digest and frame count for the end frame. It trusts ids (the reader re-hashes everything)
 * and throws `RangeError`/`TypeError` on misuse: a malformed header, a hasher of another
 * algorithm, a frame too large, or calls out of order.
 *
 * @example
 * const w = createArchiveWriter(header, hasher)
 * yield w.header()
 * for (const [id, raw] of chunks) yield* w.chunk(id, raw)
 * for (const [id, bytes] of objects) yield* w.object(id, bytes)
 * yield w.end()
 */
export function createArchiveWriter(header: ArchiveHeader, hasher: Hasher): ArchiveWriter {
  if (hasher.algorithm !== header.hashAlgorithm)
    throw new RangeError(
      `the header says ${header.hashAlgorithm} but the hasher is ${hasher.algorithm}`,
    )
  const headerBytes = encodeHeader(header)
  const digest = hasher.createStream()
  let state: 'start' | 'frames' | 'ended' = 'start'
  let frames = 0
  let bytes = 0

  const emit = (parts: Uint8Array[]): Uint8Array[] => {
    for (const part of parts) {
      digest.update(part)
      bytes += part.length
    }
    return parts
  }
  const expect = (wanted: typeof state, call: string): void => {
    if (state !== wanted) throw new TypeError(`archive writer: ${call}() called out of order`)
  }
  const checkId = (hash: Uint8Array): void => {
    if (hash.length !== ID_BYTES) throw new RangeError(`an id must be ${ID_BYTES} bytes`)
  }
  /** Type byte, length and id of a frame whose body is `bodyLength` bytes. */
  const prefix = (type: number, bodyLength: number, hash: Uint8Array, extra: number[]) => {
    const length = encodeFrameLength(bodyLength)
    const out = new Uint8Array(1 + length.length + ID_BYTES + extra.length)
    out[0] = type
    out.set(length, 1)
    out.set(hash, 1 + length.length)
    out.set(extra, 1 + length.length + ID_BYTES)
    return out
  }

  return {
    header() {
      expect('start', 'header')
      state = 'frames'
      return emit([headerBytes])[0] as Uint8Array
    },
    object(hash, objectBytes) {
      expect('frames', 'object')
      checkId(hash)
      const body = ID_BYTES + objectBytes.length
      if (objectBytes.length === 0 || body > MAX_FRAME_BYTES)
        throw new RangeError(`an object frame must hold 1..${MAX_FRAME_BYTES - ID_BYTES} bytes`)
      // Objects are small: one buffer means one write for the caller.
      const head = prefix(FRAME_TYPE.object, body, hash, [])
      const frame = new Uint8Array(head.length + objectBytes.length)
      frame.set(head)
      frame.set(objectBytes, head.length)
      frames++
      return emit([frame])
    },
    chunk(hash, raw) {
      expect('frames', 'chunk')
      checkId(hash)
      if (raw.length === 0 || raw.length > CHUNK_SIZES.maxSize)
        throw new RangeError(`a chunk must hold 1..${CHUNK_SIZES.maxSize} bytes`)
      frames++
      return emit([
        prefix(FRAME_TYPE.chunk, ID_BYTES + 1 + raw.length, hash, [CHUNK_CODEC.raw]),
        raw,
      ])
    },
    end() {
      expect('frames', 'end')
      state = 'ended'
      const out = new Uint8Array(2 + END_BODY_BYTES)
      out[0] = FRAME_TYPE.end
      out[1] = END_BODY_BYTES // a one-byte varint
      new DataView(out.buffer).setBigUint64(2, BigInt(frames), true)
      out.set(digest.digest(), 10)
      bytes += out.length
      return out
    },
    get frames() {
      return frames
    },
    get bytes() {
      return bytes
    },
  }
}
