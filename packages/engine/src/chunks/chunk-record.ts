import { crc32 } from 'node:zlib'
import { EngineError } from '../errors'
import { decodeChunk, encodeChunk, isChunkCodec } from './chunk-codec'
import type { ChunkCodec, CompressionOptions } from './chunk-codec'

// Record layout (DESIGN §3.1), integers little-endian:
//   [0, 4)    magic "SVK1"
//   [4, 36)   chunk hash (32 bytes)
//   [36]      codec byte (chunk-codec.ts)
//   [37, 41)  raw length, u32
//   [41, 45)  stored length, u32
//   [45, 49)  CRC-32 (zlib/ISO-HDLC polynomial) of the stored bytes, u32
//   [49, …)   stored bytes
// The hash always covers the raw bytes, so compression never changes deduplication.

/** The first four bytes of every chunk record. */
export const RECORD_MAGIC = Uint8Array.of(0x53, 0x56, 0x4b, 0x31)
/** Length of a chunk hash. */
export const HASH_LENGTH = 32
/** Bytes of a record before its stored bytes. */
export const RECORD_HEADER_LENGTH = 49
/**
 * The largest chunk a store accepts (64× the chunker's maximum). It bounds what a damaged
 * header can make a reader allocate.
 */
export const MAX_CHUNK_LENGTH = 16 * 1024 * 1024

/** The fields of a record header. */
export interface ChunkRecordHeader {
  hash: Uint8Array
  codec: number
  rawLength: number
  storedLength: number
  crc: number
}

/** A record ready to store: header and stored bytes kept apart so writers can skip a copy. */
export interface ChunkRecord {
  header: Uint8Array
  body: Uint8Array
  codec: ChunkCodec
  rawLength: number
  /** Header plus body. */
  length: number
}

function corrupt(what: string): EngineError {
  return new EngineError('CONTENT_CORRUPT', `stored chunk is corrupt: ${what}`)
}

/** Throws `RangeError` unless `hash` is a 32-byte digest. */
export function assertChunkHash(hash: Uint8Array): void {
  if (!(hash instanceof Uint8Array) || hash.length !== HASH_LENGTH) {
    throw new RangeError(`a chunk hash is ${HASH_LENGTH} bytes, got ${hash?.length}`)
  }
}

/** Frames a chunk: compresses it when that saves space, computes the CRC, builds the header. */
export async function encodeChunkRecord(
  hash: Uint8Array,
  raw: Uint8Array,
  options: CompressionOptions = {},
): Promise<ChunkRecord> {
  assertChunkHash(hash)
  if (raw.length > MAX_CHUNK_LENGTH) {
    throw new RangeError(`a chunk is at most ${MAX_CHUNK_LENGTH} bytes, got ${raw.length}`)
  }
  const { codec, stored } = await encodeChunk(raw, options)
  const header = new Uint8Array(RECORD_HEADER_LENGTH)
  const view = new DataView(header.buffer)
  header.set(RECORD_MAGIC, 0)
  header.set(hash, 4)
  header[36] = codec
  view.setUint32(37, raw.length, true)
  view.setUint32(41, stored.length, true)
  view.setUint32(45, crc32(stored), true)
  return {
    header,
    body: stored,
    codec,
    rawLength: raw.length,
    length: header.length + stored.length,
  }
}

/** Parses a record header; a wrong magic or an unknown codec throws `CONTENT_CORRUPT`. */
export function decodeChunkRecordHeader(bytes: Uint8Array): ChunkRecordHeader {
  if (bytes.length < RECORD_HEADER_LENGTH) throw corrupt('record header is truncated')
  for (let i = 0; i < RECORD_MAGIC.length; i++) {
    if (bytes[i] !== RECORD_MAGIC[i]) throw corrupt('bad record magic')
  }
  const codec = bytes[36] as number
  if (!isChunkCodec(codec)) throw corrupt(`unknown codec ${codec}`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, RECORD_HEADER_LENGTH)
  const rawLength = view.getUint32(37, true)
  const storedLength = view.getUint32(41, true)
  if (rawLength > MAX_CHUNK_LENGTH || storedLength > MAX_CHUNK_LENGTH) {
    throw corrupt('record lengths are out of range')
  }
  return {
    hash: bytes.subarray(4, 4 + HASH_LENGTH),
    codec,
    rawLength,
    storedLength,
    crc: view.getUint32(45, true),
  }
}

/** True when the stored bytes match the header's length and CRC. */
export function bodyMatches(header: ChunkRecordHeader, body: Uint8Array): boolean {
  return body.length === header.storedLength && crc32(body) === header.crc
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** What the reader already knows about a record (from the chunk index), checked against it. */
export interface RecordExpectation {
  hash: Uint8Array
  codec?: number
  rawLength?: number
  storedLength?: number
}

/**
 * The raw bytes of one whole record (`header + stored bytes`), after checking the magic, the
 * hash and lengths against what the reader expects, the CRC, and the inflated length. Any
 * mismatch throws `CONTENT_CORRUPT`: corrupt bytes are never returned.
 */
export async function openChunkRecord(
  record: Uint8Array,
  expected: RecordExpectation,
): Promise<Uint8Array> {
  const header = decodeChunkRecordHeader(record)
  if (!sameBytes(header.hash, expected.hash)) throw corrupt('record holds another hash')
  if (
    (expected.codec !== undefined && header.codec !== expected.codec) ||
    (expected.rawLength !== undefined && header.rawLength !== expected.rawLength) ||
    (expected.storedLength !== undefined && header.storedLength !== expected.storedLength)
  ) {
    throw corrupt('record header does not match the chunk index')
  }
  const body = record.subarray(RECORD_HEADER_LENGTH)
  if (body.length !== header.storedLength) throw corrupt('record length does not match')
  if (crc32(body) !== header.crc) throw corrupt('CRC mismatch')
  return decodeChunk(header.codec, body, header.rawLength)
}

/** Header and body as one buffer (the level store keeps records this way). */
export function joinChunkRecord(record: ChunkRecord): Uint8Array {
  const out = new Uint8Array(record.length)
  out.set(record.header, 0)
  out.set(record.body, RECORD_HEADER_LENGTH)
  return out
}
