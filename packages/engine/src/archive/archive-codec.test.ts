import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHasher } from '../hashing/create-hasher'
import type { HashAlgorithm } from '../hashing/hasher'
import { toHex } from '../internal/hex'
import { decodeObject } from '../objects/object-codec'
import { ARCHIVE_FORMAT_VERSION, createArchiveWriter, MAX_FRAME_BYTES } from './archive-codec'
import type { ArchiveHeader } from './archive-codec'
import {
  chunkFrame,
  encodeArchive,
  objectFrame,
  pieces,
  randomSizes,
  readAll,
  SAMPLE_TIME,
  sampleFrames,
} from '../../test/support/archive-samples'

const ALGORITHMS: HashAlgorithm[] = ['sha256', 'blake3']
const hexFrame = (f: { type: string; hash: Uint8Array; bytes: Uint8Array }) =>
  `${f.type} ${toHex(f.hash)} ${toHex(f.bytes)}`
const id = (byte: number) => new Uint8Array(32).fill(byte)

function header(algorithm: HashAlgorithm, extra: Partial<ArchiveHeader> = {}): ArchiveHeader {
  return {
    formatVersion: ARCHIVE_FORMAT_VERSION,
    kind: 'export',
    hashAlgorithm: algorithm,
    createdAt: SAMPLE_TIME,
    base: undefined,
    target: id(1),
    ...extra,
  }
}

describe('archive codec', () => {
  for (const algorithm of ALGORITHMS) {
    it(`round-trips objects of every type and chunks of every size with ${algorithm}`, async () => {
      const hasher = await createHasher(algorithm)
      const frames = sampleFrames(hasher)
      const target = frames.at(-1)?.hash as Uint8Array
      const bytes = encodeArchive(hasher, frames, { kind: 'patch', base: id(5) })
      for (const [seed, max] of [
        [1, 7],
        [2, 4096],
        [3, 100_000],
      ] as const) {
        const read = await readAll(pieces(bytes, randomSizes(seed, max)))
        expect(read.header).toEqual(header(algorithm, { kind: 'patch', base: id(5), target }))
        expect(read.summary).toEqual({ frames: frames.length, bytes: bytes.length })
        expect(read.frames.map(hexFrame)).toEqual(frames.map(hexFrame)) // fast on large chunks
        for (const f of read.frames) {
          if (f.type === 'object') expect(f.object).toEqual(decodeObject(f.bytes))
        }
      }
    })
  }

  it('round-trips any sequence of chunks and objects, however the input is split', async () => {
    const hasher = await createHasher('blake3')
    const frame = fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 3000 }).map((raw) => chunkFrame(hasher, raw)),
      fc
        .record({ target: fc.string(), createdAt: fc.nat(), updatedAt: fc.nat() })
        .map((link) => objectFrame(hasher, { type: 'link', ...link })),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(frame, { maxLength: 12 }), fc.nat(), async (frames, seed) => {
        const bytes = encodeArchive(hasher, frames)
        const read = await readAll(pieces(bytes, randomSizes(seed, 200)))
        expect(read.frames.map(hexFrame)).toEqual(frames.map(hexFrame))
        expect(read.summary).toEqual({ frames: frames.length, bytes: bytes.length })
      }),
      { numRuns: 200 },
    )
  })

  it('reads an archive fed one byte at a time or all at once', async () => {
    const hasher = await createHasher('sha256')
    const frames = sampleFrames(hasher).filter((f) => f.bytes.length < 5000)
    const bytes = encodeArchive(hasher, frames)
    for (const size of [() => 1, () => bytes.length]) {
      const read = await readAll(pieces(bytes, size))
      expect(read.frames).toHaveLength(frames.length)
      expect(read.summary.bytes).toBe(bytes.length)
    }
  })

  it('reads an export without frames', async () => {
    const hasher = await createHasher('blake3')
    const bytes = encodeArchive(hasher, [])
    expect(bytes.length).toBe(80 + 42)
    const read = await readAll(pieces(bytes, () => 3))
    expect(read.frames).toEqual([])
    expect(read.header.base).toBeUndefined()
  })
})

describe('archive writer', () => {
  it('returns a chunk frame as a prefix and the raw bytes themselves, uncopied', async () => {
    const hasher = await createHasher('sha256')
    const w = createArchiveWriter(header('sha256'), hasher)
    expect(w.header()).toHaveLength(80)
    const raw = new Uint8Array(5000).fill(3)
    const parts = w.chunk(hasher.hashDomain('chunk', raw), raw)
    expect(parts).toHaveLength(2)
    expect(parts[1]).toBe(raw)
    expect(Array.from((parts[0] as Uint8Array).subarray(0, 3))).toEqual([2, 0xa9, 0x27])
    expect(w.frames).toBe(1)
    expect(w.bytes).toBe(80 + 3 + 33 + 5000)
    expect(w.end()).toHaveLength(42)
    expect(w.bytes).toBe(80 + 3 + 33 + 5000 + 42)
  })

  it('refuses calls out of order', async () => {
    const hasher = await createHasher('sha256')
    const w = createArchiveWriter(header('sha256'), hasher)
    expect(() => w.object(id(1), new Uint8Array(3))).toThrow(TypeError)
    expect(() => w.end()).toThrow(TypeError)
    w.header()
    expect(() => w.header()).toThrow(TypeError)
    w.end()
    expect(() => w.chunk(id(1), new Uint8Array(3))).toThrow(TypeError)
    expect(() => w.end()).toThrow(TypeError)
  })

  it('refuses frames a reader would refuse', async () => {
    const hasher = await createHasher('sha256')
    const w = createArchiveWriter(header('sha256'), hasher)
    w.header()
    expect(() => w.chunk(id(1), new Uint8Array(0))).toThrow(RangeError)
    expect(() => w.chunk(id(1), new Uint8Array(262_145))).toThrow(RangeError)
    expect(() => w.chunk(new Uint8Array(31), new Uint8Array(1))).toThrow(RangeError)
    expect(() => w.object(id(1), new Uint8Array(0))).toThrow(RangeError)
    expect(() => w.object(id(1), new Uint8Array(MAX_FRAME_BYTES - 31))).toThrow(RangeError)
    expect(w.object(id(1), new Uint8Array(MAX_FRAME_BYTES - 32))[0]).toHaveLength(
      1 + 4 + MAX_FRAME_BYTES,
    )
  })

  it('refuses a malformed header or a hasher of another algorithm', async () => {
    const sha = await createHasher('sha256')
    const bad: Partial<ArchiveHeader>[] = [
      { formatVersion: 2 },
      { kind: 'export', base: id(2) },
      { kind: 'patch', base: undefined },
      { kind: 'patch', base: id(0) },
      { target: id(0) },
      { target: new Uint8Array(31) },
      { createdAt: -1 },
      { createdAt: 1.5 },
    ]
    for (const extra of bad) {
      expect(() => createArchiveWriter(header('sha256', extra), sha)).toThrow(RangeError)
    }
    expect(() => createArchiveWriter(header('blake3'), sha)).toThrow(RangeError)
  })
})
