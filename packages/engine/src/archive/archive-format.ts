import { EngineError } from '../errors'
import type { HashAlgorithm } from '../hashing/hasher'
import type { TreeObject } from '../objects/tree-objects'

/** The archive format this code writes and the only one it reads. */
export const ARCHIVE_FORMAT_VERSION = 1

/** `SVCDB` in ASCII: the first five bytes of every archive. */
export const ARCHIVE_MAGIC = new Uint8Array([0x53, 0x56, 0x43, 0x44, 0x42])

/** Bytes of the version 1 header. */
export const ARCHIVE_HEADER_BYTES = 80

/** Largest frame body a reader accepts (4 MiB): bounds the memory a frame can take. */
export const MAX_FRAME_BYTES = 4 * 1024 * 1024

/** Frame type bytes. */
export const FRAME_TYPE = { end: 0, object: 1, chunk: 2 } as const

/** Chunk codec bytes; only raw chunks exist in version 1. */
export const CHUNK_CODEC = { raw: 0 } as const

/** Bytes of an id, whatever the hash algorithm. */
export const ID_BYTES = 32

/** Body of the end frame: frame count (u64) and digest. */
export const END_BODY_BYTES = 8 + ID_BYTES

const KIND_CODE = { export: 1, patch: 2 } as const
const ALGORITHM_CODE = { sha256: 1, blake3: 2 } as const
/** Bytes that decide how the rest is read; fixed in every format version. */
export const HEADER_PREFIX_BYTES = ARCHIVE_MAGIC.length + 1

/** What an archive holds: a whole version, or the difference from `base` to `target`. */
export type ArchiveKind = keyof typeof KIND_CODE

/** The header of an archive. */
export interface ArchiveHeader {
  formatVersion: number
  kind: ArchiveKind
  hashAlgorithm: HashAlgorithm
  /** Unix milliseconds. */
  createdAt: number
  /** The version a patch applies to; `undefined` for an export. */
  base: Uint8Array | undefined
  /** The version the archive describes: its root directory object id. */
  target: Uint8Array
}

/** A verified frame: its id matches its bytes. */
export type ArchiveFrame =
  | { type: 'object'; hash: Uint8Array; bytes: Uint8Array; object: TreeObject }
  | { type: 'chunk'; hash: Uint8Array; bytes: Uint8Array }

/** What a fully read archive held. */
export interface ArchiveSummary {
  /** Object and chunk frames. */
  frames: number
  /** Bytes of the whole archive. */
  bytes: number
}

/** An `INVALID_ARCHIVE` error. */
export function invalidArchive(message: string, cause?: unknown): EngineError {
  return new EngineError('INVALID_ARCHIVE', `invalid archive: ${message}`, { cause })
}

function isZero(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0)
}

/** Throws `RangeError` unless `header` can be written. */
function checkHeader(header: ArchiveHeader): void {
  if (header.formatVersion !== ARCHIVE_FORMAT_VERSION)
    throw new RangeError(`can only write archive format ${ARCHIVE_FORMAT_VERSION}`)
  if (!(header.kind in KIND_CODE)) throw new RangeError(`unknown archive kind ${header.kind}`)
  if (!(header.hashAlgorithm in ALGORITHM_CODE))
    throw new RangeError(`unknown hash algorithm ${header.hashAlgorithm}`)
  if (!Number.isSafeInteger(header.createdAt) || header.createdAt < 0)
    throw new RangeError(`createdAt must be Unix milliseconds, got ${header.createdAt}`)
  if (header.target.length !== ID_BYTES || isZero(header.target))
    throw new RangeError('target must be a 32-byte, nonzero version hash')
  const base = header.base
  if (header.kind === 'export' && base !== undefined) throw new RangeError('an export has no base')
  if (header.kind === 'patch' && (base?.length !== ID_BYTES || isZero(base)))
    throw new RangeError('a patch needs a 32-byte, nonzero base version hash')
}

/** The 80 header bytes of `header`; throws `RangeError` for a header that cannot be written. */
export function encodeHeader(header: ArchiveHeader): Uint8Array {
  checkHeader(header)
  const out = new Uint8Array(ARCHIVE_HEADER_BYTES)
  const view = new DataView(out.buffer)
  out.set(ARCHIVE_MAGIC, 0)
  out[5] = ARCHIVE_FORMAT_VERSION
  out[6] = KIND_CODE[header.kind]
  out[7] = ALGORITHM_CODE[header.hashAlgorithm]
  view.setBigUint64(8, BigInt(header.createdAt), true)
  if (header.base !== undefined) out.set(header.base, 16)
  out.set(header.target, 48)
  return out
}

/** Checks the magic and version (the first {@link HEADER_PREFIX_BYTES} bytes). */
export function checkHeaderPrefix(prefix: Uint8Array): void {
  if (!ARCHIVE_MAGIC.every((b, i) => prefix[i] === b))
    throw invalidArchive('not an svcdb archive (bad magic at byte 0)')
  const version = prefix[5] as number
  if (version !== ARCHIVE_FORMAT_VERSION) {
    const newer = version > ARCHIVE_FORMAT_VERSION ? ' (written by a newer svcdb)' : ''
    throw invalidArchive(
      `unsupported format version ${version} at byte 5${newer}; this reader knows version ${ARCHIVE_FORMAT_VERSION}`,
    )
  }
}

function codeOf<T extends string>(codes: Record<T, number>, code: number): T | undefined {
  return (Object.keys(codes) as T[]).find((name) => codes[name] === code)
}

/** Decodes the 80 header bytes (already checked by {@link checkHeaderPrefix}). */
export function decodeHeader(bytes: Uint8Array): ArchiveHeader {
  checkHeaderPrefix(bytes)
  const kind = codeOf(KIND_CODE, bytes[6] as number)
  if (kind === undefined) throw invalidArchive(`unknown archive kind ${bytes[6]} at byte 6`)
  const hashAlgorithm = codeOf(ALGORITHM_CODE, bytes[7] as number)
  if (hashAlgorithm === undefined)
    throw invalidArchive(`unknown hash algorithm ${bytes[7]} at byte 7`)
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const created = view.getBigUint64(8, true)
  if (created > BigInt(Number.MAX_SAFE_INTEGER))
    throw invalidArchive(`created_at ${created} at byte 8 is out of range`)
  const base = bytes.slice(16, 48)
  const target = bytes.slice(48, 80)
  if (kind === 'export' && !isZero(base))
    throw invalidArchive('an export must have an all-zero base hash (byte 16)')
  if (kind === 'patch' && isZero(base))
    throw invalidArchive('a patch must have a nonzero base hash (byte 16)')
  if (isZero(target)) throw invalidArchive('the target hash (byte 48) is all zeros')
  return {
    formatVersion: ARCHIVE_FORMAT_VERSION,
    kind,
    hashAlgorithm,
    createdAt: Number(created),
    base: kind === 'patch' ? base : undefined,
    target,
  }
}
