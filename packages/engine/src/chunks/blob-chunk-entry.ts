import { EngineError } from '../errors'
import type { MetaOp } from '../meta/meta-store'
import { RECORD_HEADER_LENGTH } from './chunk-record'
import type { LastSeenCodec } from './last-seen'
import { decodeStamp, encodeStamp } from './last-seen'

/** A chunk's `chunkidx` entry in a blob chunk store: what its object's record must say. */
export interface BlobChunkEntry {
  codec: number
  rawLength: number
  storedLength: number
}

// Index entry, little-endian: [version u8 = 2][codec u8][raw u32][stored u32], and with
// version 3 a last_seen stamp (float64 Unix ms) after it. Version 1 is the pack store's
// location, so an index written by the other store reads as unreadable. A tombstone (a GC
// deleting the chunk's object) is [0xfe][since float64].
const VERSION = 2
const VERSION_STAMPED = 3
const TOMBSTONE = 0xfe
const LENGTH = 10
const STAMP_LENGTH = 8

/** Encodes an entry as the `chunkidx` value, with its `last_seen` when given. */
export function encodeBlobChunkEntry(entry: BlobChunkEntry, lastSeen?: number): Uint8Array {
  const out = new Uint8Array(lastSeen === undefined ? LENGTH : LENGTH + STAMP_LENGTH)
  const view = new DataView(out.buffer)
  out[0] = lastSeen === undefined ? VERSION : VERSION_STAMPED
  out[1] = entry.codec
  view.setUint32(2, entry.rawLength, true)
  view.setUint32(6, entry.storedLength, true)
  if (lastSeen !== undefined) out.set(encodeStamp(lastSeen), LENGTH)
  return out
}

/** Decodes a `chunkidx` value; an unreadable entry (or a tombstone) throws `CONTENT_CORRUPT`. */
export function decodeBlobChunkEntry(bytes: Uint8Array): BlobChunkEntry {
  const ok =
    (bytes.length === LENGTH && bytes[0] === VERSION) ||
    (bytes.length === LENGTH + STAMP_LENGTH && bytes[0] === VERSION_STAMPED)
  if (!ok) throw new EngineError('CONTENT_CORRUPT', 'chunk index entry is unreadable')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  return {
    codec: bytes[1] as number,
    rawLength: view.getUint32(2, true),
    storedLength: view.getUint32(6, true),
  }
}

/** True when a `chunkidx` value is a tombstone: a GC is deleting the chunk's object. */
export function isBlobTombstone(bytes: Uint8Array): boolean {
  return bytes.length === 1 + STAMP_LENGTH && bytes[0] === TOMBSTONE
}

/** A tombstone whose removal began at `since`. */
export function blobTombstone(since: number): Uint8Array {
  const out = new Uint8Array(1 + STAMP_LENGTH)
  out[0] = TOMBSTONE
  out.set(encodeStamp(since), 1)
  return out
}

/** The `last_seen` codec of blob index entries (a tombstone has none; its time is `tombstoneSince`). */
export const blobLastSeenCodec: LastSeenCodec = {
  lastSeenOf(value) {
    if (isBlobTombstone(value)) return undefined
    decodeBlobChunkEntry(value)
    return value.length === LENGTH ? 0 : decodeStamp(value, LENGTH)
  },
  withLastSeen: (value, at) => encodeBlobChunkEntry(decodeBlobChunkEntry(value), at),
}

/** When the removal a tombstone stands for began. */
export function tombstoneSince(value: Uint8Array): number {
  return decodeStamp(value, 1)
}

/** Bytes of the chunk's object: record header plus stored bytes. */
export function blobObjectSize(entry: BlobChunkEntry): number {
  return RECORD_HEADER_LENGTH + entry.storedLength
}

/** The op that indexes a chunk (with its `last_seen` when given). */
export function blobIndexOp(hash: Uint8Array, entry: BlobChunkEntry, lastSeen?: number): MetaOp {
  return { type: 'put', space: 'chunkidx', key: hash, value: encodeBlobChunkEntry(entry, lastSeen) }
}
