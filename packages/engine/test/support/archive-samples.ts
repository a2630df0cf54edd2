// Archives for the codec's tests and the worked example of docs/archive-format.md.
import { createHasher } from '../../src/hashing/create-hasher'
import type { HashAlgorithm, Hasher } from '../../src/hashing/hasher'
import { domainOf, encodeObject } from '../../src/objects/object-codec'
import type { DirEntry, TreeObject } from '../../src/objects/tree-objects'
import { pseudoRandomBytes } from '../../src/testing/pseudo-random-bytes'
import { ARCHIVE_FORMAT_VERSION } from '../../src/archive/archive-format'
import type { ArchiveFrame, ArchiveHeader, ArchiveSummary } from '../../src/archive/archive-format'
import { readArchive } from '../../src/archive/archive-reader'
import type { ReadArchiveOptions } from '../../src/archive/archive-reader'
import { createArchiveWriter } from '../../src/archive/archive-writer'

/** A frame to write: ids are taken as given, so a test can make them lie. */
export type SampleFrame = { type: 'object' | 'chunk'; hash: Uint8Array; bytes: Uint8Array }

/** 2025-01-01T00:00:00Z, so sample archives are byte-for-byte reproducible. */
export const SAMPLE_TIME = 1_735_689_600_000

/** An object frame with its true id. */
export function objectFrame(hasher: Hasher, object: TreeObject): SampleFrame {
  const bytes = encodeObject(object)
  return { type: 'object', hash: hasher.hashDomain(domainOf(object), bytes), bytes }
}

/** A chunk frame with its true id. */
export function chunkFrame(hasher: Hasher, bytes: Uint8Array): SampleFrame {
  return { type: 'chunk', hash: hasher.hashDomain('chunk', bytes), bytes }
}

/** Encodes frames into one buffer (the last frame's id is the target unless given). */
export function encodeArchive(
  hasher: Hasher,
  frames: SampleFrame[],
  header: Partial<ArchiveHeader> = {},
): Uint8Array {
  const w = createArchiveWriter(
    {
      formatVersion: ARCHIVE_FORMAT_VERSION,
      kind: 'export',
      hashAlgorithm: hasher.algorithm,
      createdAt: SAMPLE_TIME,
      base: undefined,
      target: frames.at(-1)?.hash ?? new Uint8Array(32).fill(7),
      ...header,
    },
    hasher,
  )
  const parts = [w.header()]
  for (const f of frames) parts.push(...(f.type === 'object' ? w.object : w.chunk)(f.hash, f.bytes))
  parts.push(w.end())
  return concat(parts)
}

/** Joins byte arrays into a plain Uint8Array (not a Buffer, whose `slice()` does not copy). */
export function concat(parts: Uint8Array[]): Uint8Array {
  return Uint8Array.from(Buffer.concat(parts))
}

const entry = (name: string, kind: DirEntry['kind'], hash: Uint8Array, size: number) => ({
  name,
  kind,
  hash,
  size,
  createdAt: SAMPLE_TIME,
  updatedAt: SAMPLE_TIME,
  files: kind === 'directory' ? 2 : 0,
  dirs: 0,
  links: 0,
})

/** The smallest useful export: one file `hi.txt` holding `hi\n`. */
export function tinyFrames(hasher: Hasher): SampleFrame[] {
  const chunk = chunkFrame(hasher, new TextEncoder().encode('hi\n'))
  const content = hasher.createStream()
  content.update(new TextEncoder().encode('content:'))
  content.update(chunk.hash)
  const file = objectFrame(hasher, {
    type: 'file',
    size: 3,
    contentType: 'text/plain',
    contentHash: content.digest(),
    createdAt: SAMPLE_TIME,
    updatedAt: SAMPLE_TIME,
    metadata: '',
    chunks: [{ hash: chunk.hash, size: 3 }],
  })
  const root = objectFrame(hasher, {
    type: 'leaf',
    entries: [entry('hi.txt', 'file', file.hash, 3)],
  })
  return [chunk, file, root]
}

/** Chunks of several sizes (up to the chunker's maximum) and objects of every type. */
export function sampleFrames(hasher: Hasher): SampleFrame[] {
  const chunks = [1, 1000, 70_000, 262_144].map((n, i) =>
    chunkFrame(hasher, pseudoRandomBytes(n, i + 1)),
  )
  const refs = chunks.map((c) => ({ hash: c.hash, size: c.bytes.length }))
  const list = objectFrame(hasher, { type: 'list', chunks: refs })
  const file = (extra: object): TreeObject => ({
    type: 'file',
    size: 333_145,
    contentType: 'application/octet-stream',
    contentHash: new Uint8Array(32).fill(9),
    createdAt: SAMPLE_TIME,
    updatedAt: SAMPLE_TIME,
    metadata: '{"tag":"é"}',
    ...extra,
  })
  const inline = objectFrame(hasher, file({ chunks: refs }))
  const indirect = objectFrame(
    hasher,
    file({ lists: [{ hash: list.hash, chunks: 4, bytes: 333_145 }] }),
  )
  const link = objectFrame(hasher, {
    type: 'link',
    target: '../a/b',
    createdAt: SAMPLE_TIME,
    updatedAt: SAMPLE_TIME,
  })
  const leafA = objectFrame(hasher, {
    type: 'leaf',
    entries: [entry('a', 'file', inline.hash, 333_145), entry('b', 'symlink', link.hash, 0)],
  })
  const sub = objectFrame(hasher, {
    type: 'leaf',
    entries: [entry('c', 'file', indirect.hash, 333_145)],
  })
  const leafB = objectFrame(hasher, {
    type: 'leaf',
    entries: [entry('d', 'directory', sub.hash, 333_145)],
  })
  const item = (key: string, hash: Uint8Array) => ({
    key,
    hash,
    entries: 2,
    files: 1,
    dirs: 1,
    links: 1,
    bytes: 9,
  })
  const node = objectFrame(hasher, {
    type: 'node',
    height: 1,
    items: [item('b', leafA.hash), item('d', leafB.hash)],
  })
  return [...chunks, list, inline, indirect, link, leafA, sub, leafB, node]
}

/** Yields `bytes` in pieces of the sizes `size()` returns (at least 1). */
export async function* pieces(bytes: Uint8Array, size: () => number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length;) {
    const n = Math.max(1, size())
    yield bytes.subarray(at, at + n)
    at += n
  }
}

/** A pseudo-random piece size in 1..max, from a seeded xorshift. */
export function randomSizes(seed: number, max: number): () => number {
  let x = seed | 0 || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return ((x >>> 0) % max) + 1
  }
}

/** Default reader options: the real hasher of the header's algorithm. */
export const withHashers = { hasherFor: (a: HashAlgorithm) => createHasher(a) }

/** Reads a whole archive, returning everything it held. */
export async function readAll(
  source: AsyncIterable<Uint8Array>,
  options: Partial<ReadArchiveOptions> = {},
): Promise<{ header: ArchiveHeader; frames: ArchiveFrame[]; summary: ArchiveSummary }> {
  const archive = await readArchive(source, { ...withHashers, ...options })
  const frames: ArchiveFrame[] = []
  for (;;) {
    const next = await archive.frames.next()
    if (next.done === true) return { header: archive.header, frames, summary: next.value }
    frames.push(next.value)
  }
}

/** The error reading `bytes` (in pieces of `size`) throws, or `undefined` if it succeeds. */
export async function readError(
  bytes: Uint8Array,
  options: Partial<ReadArchiveOptions> = {},
  size: () => number = () => bytes.length,
): Promise<unknown> {
  try {
    await readAll(pieces(bytes, size), options)
    return undefined
  } catch (err) {
    return err
  }
}
