import { EngineError } from '../errors'
import { ByteReader, DecodeError } from '../internal/byte-reader'
import { ByteWriter } from '../internal/byte-writer'
import type { HashDomain } from '../hashing/hasher'
import type {
  ChunkListObject,
  ChunkRef,
  DirEntry,
  DirPage,
  EntryKind,
  FileObject,
  LinkObject,
  NodeItem,
  TreeObject,
} from './tree-objects'

/** Version of the object encoding; the first byte of every encoded object. */
export const OBJECT_FORMAT_VERSION = 1

const TAG = { file: 1, link: 2, leaf: 3, node: 4, list: 5 } as const
const KIND_CODE: Record<EntryKind, number> = { file: 0, directory: 1, symlink: 2 }
const KINDS: readonly EntryKind[] = ['file', 'directory', 'symlink']
const HASH_BYTES = 32

/** The hash domain of an object: directories' pages all hash under `dir`. */
export function domainOf(object: TreeObject): HashDomain {
  switch (object.type) {
    case 'file':
      return 'file'
    case 'link':
      return 'link'
    case 'list':
      return 'list'
    case 'leaf':
    case 'node':
      return 'dir'
  }
}

function writeChunks(w: ByteWriter, chunks: readonly ChunkRef[]): void {
  w.varint(chunks.length)
  for (const c of chunks) w.bytes(c.hash).varint(c.size)
}

function readChunks(r: ByteReader): ChunkRef[] {
  const n = r.varint()
  const chunks: ChunkRef[] = []
  for (let i = 0; i < n; i++) chunks.push({ hash: r.bytes(HASH_BYTES).slice(), size: r.varint() })
  return chunks
}

// Encoding is synchronous, so one scratch writer serves every call without reallocating.
const scratch = new ByteWriter(64 * 1024)

/** Encodes an object deterministically: equal objects always give equal bytes. */
export function encodeObject(object: TreeObject): Uint8Array {
  const w = scratch.reset().byte(OBJECT_FORMAT_VERSION)
  switch (object.type) {
    case 'file':
      w.byte(TAG.file).varint(object.size).string(object.contentType).bytes(object.contentHash)
      w.varint(object.createdAt).varint(object.updatedAt).string(object.metadata)
      if (object.lists !== undefined) {
        w.byte(1).varint(object.lists.length)
        for (const l of object.lists) w.bytes(l.hash).varint(l.chunks).varint(l.bytes)
      } else {
        writeChunks(w.byte(0), object.chunks ?? [])
      }
      break
    case 'list':
      writeChunks(w.byte(TAG.list), object.chunks)
      break
    case 'link':
      w.byte(TAG.link).string(object.target).varint(object.createdAt).varint(object.updatedAt)
      break
    case 'leaf':
      w.byte(TAG.leaf).varint(object.entries.length)
      for (const e of object.entries) writeEntry(w, e)
      break
    case 'node':
      w.byte(TAG.node).varint(object.height).varint(object.items.length)
      for (const it of object.items) {
        w.string(it.key).bytes(it.hash).varint(it.entries).varint(it.files).varint(it.dirs)
        w.varint(it.links).varint(it.bytes)
      }
      break
  }
  return w.finish()
}

function writeEntry(w: ByteWriter, e: DirEntry): void {
  w.string(e.name)
    .byte(KIND_CODE[e.kind])
    .bytes(e.hash)
    .varint(e.size)
    .varint(e.createdAt)
    .varint(e.updatedAt)
  if (e.kind === 'directory') w.varint(e.files).varint(e.dirs).varint(e.links)
}

function readEntry(r: ByteReader): DirEntry {
  const name = r.string()
  const kind = KINDS[r.byte()]
  if (kind === undefined) throw new DecodeError('unknown entry kind')
  const hash = r.bytes(HASH_BYTES).slice()
  const size = r.varint()
  const createdAt = r.varint()
  const updatedAt = r.varint()
  const dir = kind === 'directory'
  const files = dir ? r.varint() : 0
  const dirs = dir ? r.varint() : 0
  const links = dir ? r.varint() : 0
  return { name, kind, hash, size, createdAt, updatedAt, files, dirs, links }
}

/**
 * Decodes an object, refusing anything malformed with `CONTENT_CORRUPT` (stored objects are
 * hash-checked on load, so a decode failure means damaged storage or a hostile archive).
 */
export function decodeObject(bytes: Uint8Array): TreeObject {
  try {
    const r = new ByteReader(bytes)
    const version = r.byte()
    if (version !== OBJECT_FORMAT_VERSION)
      throw new DecodeError(`unknown object format version ${version}`)
    const object = decodeBody(r, r.byte())
    r.end()
    return object
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err
    throw new EngineError('CONTENT_CORRUPT', `malformed tree object: ${err.message}`, {
      cause: err,
    })
  }
}

function decodeBody(r: ByteReader, tag: number): TreeObject {
  switch (tag) {
    case TAG.file:
      return decodeFile(r)
    case TAG.list:
      return { type: 'list', chunks: readChunks(r) } satisfies ChunkListObject
    case TAG.link:
      return {
        type: 'link',
        target: r.string(),
        createdAt: r.varint(),
        updatedAt: r.varint(),
      } satisfies LinkObject
    case TAG.leaf: {
      const n = r.varint()
      const entries: DirEntry[] = []
      for (let i = 0; i < n; i++) entries.push(readEntry(r))
      return { type: 'leaf', entries } satisfies DirPage
    }
    case TAG.node: {
      const height = r.varint()
      const n = r.varint()
      const items: NodeItem[] = []
      for (let i = 0; i < n; i++) {
        items.push({
          key: r.string(),
          hash: r.bytes(HASH_BYTES).slice(),
          entries: r.varint(),
          files: r.varint(),
          dirs: r.varint(),
          links: r.varint(),
          bytes: r.varint(),
        })
      }
      return { type: 'node', height, items } satisfies DirPage
    }
    default:
      throw new DecodeError(`unknown object tag ${tag}`)
  }
}

function decodeFile(r: ByteReader): FileObject {
  const size = r.varint()
  const contentType = r.string()
  const contentHash = r.bytes(HASH_BYTES).slice()
  const createdAt = r.varint()
  const updatedAt = r.varint()
  const metadata = r.string()
  const base = {
    type: 'file' as const,
    size,
    contentType,
    contentHash,
    createdAt,
    updatedAt,
    metadata,
  }
  const mode = r.byte()
  if (mode === 0) return { ...base, chunks: readChunks(r) }
  if (mode !== 1) throw new DecodeError('unknown chunk list mode')
  const n = r.varint()
  const lists = []
  for (let i = 0; i < n; i++)
    lists.push({ hash: r.bytes(HASH_BYTES).slice(), chunks: r.varint(), bytes: r.varint() })
  return { ...base, lists }
}
