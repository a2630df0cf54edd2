import { EngineError } from '../errors'
import { packLengthKey } from '../meta/keys'
import type { MetaOp } from '../meta/meta-store'

/** Where a chunk record lives: the `chunkidx` value of the pack store. */
export interface PackLocation {
  pack: number
  /** Offset of the record (its header) in the pack file. */
  offset: number
  codec: number
  rawLength: number
  storedLength: number
}

// Index entry, little-endian: [version u8 = 1][codec u8][pack u32][offset u64][raw u32][stored u32]
const VERSION = 1
const LENGTH = 22

/** Encodes a location as the `chunkidx` value. */
export function encodePackLocation(location: PackLocation): Uint8Array {
  const out = new Uint8Array(LENGTH)
  const view = new DataView(out.buffer)
  out[0] = VERSION
  out[1] = location.codec
  view.setUint32(2, location.pack, true)
  view.setBigUint64(6, BigInt(location.offset), true)
  view.setUint32(14, location.rawLength, true)
  view.setUint32(18, location.storedLength, true)
  return out
}

/** Decodes a `chunkidx` value; an unreadable entry throws `CONTENT_CORRUPT`. */
export function decodePackLocation(bytes: Uint8Array): PackLocation {
  if (bytes.length !== LENGTH || bytes[0] !== VERSION) {
    throw new EngineError('CONTENT_CORRUPT', 'chunk index entry is unreadable')
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  return {
    codec: bytes[1] as number,
    pack: view.getUint32(2, true),
    offset: Number(view.getBigUint64(6, true)),
    rawLength: view.getUint32(14, true),
    storedLength: view.getUint32(18, true),
  }
}

/** The op that indexes a chunk at `location`. */
export function indexOp(hash: Uint8Array, location: PackLocation): MetaOp {
  return { type: 'put', space: 'chunkidx', key: hash, value: encodePackLocation(location) }
}

// Committed length of each pack, in the `meta` space (key: `packLengthKey`) as u64
// little-endian. It only ever records bytes that were fdatasync'ed before the batch holding
// it, so it is a safe place to start the torn-tail scan on open.

/** The op recording that pack `id` holds `length` durable bytes. */
export function packLengthOp(id: number, length: number): MetaOp {
  const value = new Uint8Array(8)
  new DataView(value.buffer).setBigUint64(0, BigInt(length), true)
  return { type: 'put', space: 'meta', key: packLengthKey(id), value }
}

/** Decodes a committed length value. */
export function decodePackLength(bytes: Uint8Array): number {
  if (bytes.length !== 8)
    throw new EngineError('CONTENT_CORRUPT', 'pack length entry is unreadable')
  return Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true))
}
