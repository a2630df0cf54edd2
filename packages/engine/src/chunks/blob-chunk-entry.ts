import { EngineError } from '../errors'
import type { MetaOp } from '../meta/meta-store'
import { RECORD_HEADER_LENGTH } from './chunk-record'

/** A chunk's `chunkidx` entry in a blob chunk store: what its object's record must say. */
export interface BlobChunkEntry {
  codec: number
  rawLength: number
  storedLength: number
}

// Index entry, little-endian: [version u8 = 2][codec u8][raw u32][stored u32]. Version 1 is
// the pack store's location, so an index written by the other store reads as unreadable.
const VERSION = 2
const LENGTH = 10

/** Encodes an entry as the `chunkidx` value. */
export function encodeBlobChunkEntry(entry: BlobChunkEntry): Uint8Array {
  const out = new Uint8Array(LENGTH)
  const view = new DataView(out.buffer)
  out[0] = VERSION
  out[1] = entry.codec
  view.setUint32(2, entry.rawLength, true)
  view.setUint32(6, entry.storedLength, true)
  return out
}

/** Decodes a `chunkidx` value; an unreadable entry throws `CONTENT_CORRUPT`. */
export function decodeBlobChunkEntry(bytes: Uint8Array): BlobChunkEntry {
  if (bytes.length !== LENGTH || bytes[0] !== VERSION) {
    throw new EngineError('CONTENT_CORRUPT', 'chunk index entry is unreadable')
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  return {
    codec: bytes[1] as number,
    rawLength: view.getUint32(2, true),
    storedLength: view.getUint32(6, true),
  }
}

/** Bytes of the chunk's object: record header plus stored bytes. */
export function blobObjectSize(entry: BlobChunkEntry): number {
  return RECORD_HEADER_LENGTH + entry.storedLength
}

/** The op that indexes a chunk. */
export function blobIndexOp(hash: Uint8Array, entry: BlobChunkEntry): MetaOp {
  return { type: 'put', space: 'chunkidx', key: hash, value: encodeBlobChunkEntry(entry) }
}
