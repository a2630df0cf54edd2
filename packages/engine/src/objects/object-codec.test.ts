import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { decodeObject, encodeObject } from './object-codec'
import type { DirEntry, TreeObject } from './tree-objects'

const hash = fc.uint8Array({ minLength: 32, maxLength: 32 })
const time = fc.integer({ min: 0, max: 2 ** 50 })
const count = fc.nat(1_000_000)
const chunk = fc.record({ hash, size: fc.integer({ min: 1, max: 262_144 }) })
const entry: fc.Arbitrary<DirEntry> = fc.oneof(
  fc.record({
    name: fc.string({ minLength: 1 }),
    kind: fc.constant('file' as const),
    hash,
    size: count,
    createdAt: time,
    updatedAt: time,
    files: fc.constant(0),
    dirs: fc.constant(0),
    links: fc.constant(0),
  }),
  fc.record({
    name: fc.string({ minLength: 1 }),
    kind: fc.constant('directory' as const),
    hash,
    size: count,
    createdAt: time,
    updatedAt: time,
    files: count,
    dirs: count,
    links: count,
  }),
)
const object: fc.Arbitrary<TreeObject> = fc.oneof(
  fc.record({
    type: fc.constant('file' as const),
    size: count,
    contentType: fc.string(),
    contentHash: hash,
    createdAt: time,
    updatedAt: time,
    metadata: fc.string(),
    chunks: fc.array(chunk),
  }),
  fc.record({
    type: fc.constant('file' as const),
    size: count,
    contentType: fc.string(),
    contentHash: hash,
    createdAt: time,
    updatedAt: time,
    metadata: fc.string(),
    lists: fc.array(fc.record({ hash, chunks: count, bytes: count })),
  }),
  fc.record({ type: fc.constant('list' as const), chunks: fc.array(chunk) }),
  fc.record({
    type: fc.constant('link' as const),
    target: fc.string(),
    createdAt: time,
    updatedAt: time,
  }),
  fc.record({ type: fc.constant('leaf' as const), entries: fc.array(entry, { maxLength: 20 }) }),
  fc.record({
    type: fc.constant('node' as const),
    height: fc.integer({ min: 1, max: 6 }),
    items: fc.array(
      fc.record({
        key: fc.string(),
        hash,
        entries: count,
        files: count,
        dirs: count,
        links: count,
        bytes: count,
      }),
      { maxLength: 20 },
    ),
  }),
)

describe('object codec', () => {
  it('round-trips every object and encodes deterministically', () => {
    fc.assert(
      fc.property(object, (o) => {
        const bytes = encodeObject(o)
        expect(decodeObject(bytes)).toEqual(o)
        expect(encodeObject(decodeObject(bytes))).toEqual(bytes)
      }),
    )
  })

  it('refuses every truncation and trailing garbage with CONTENT_CORRUPT', () => {
    fc.assert(
      fc.property(object, fc.nat(), (o, cut) => {
        const bytes = encodeObject(o)
        for (const bad of [bytes.subarray(0, cut % bytes.length), new Uint8Array([...bytes, 0])]) {
          let err: unknown
          try {
            decodeObject(bad)
          } catch (e) {
            err = e
          }
          expect(isEngineError(err, 'CONTENT_CORRUPT')).toBe(true)
        }
      }),
    )
  })

  it('refuses unknown versions and tags', () => {
    expect(() => decodeObject(new Uint8Array([2, 1]))).toThrow(/version/)
    expect(() => decodeObject(new Uint8Array([1, 99]))).toThrow(/tag/)
  })
})
