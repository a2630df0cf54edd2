import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import type { Hasher } from '../hashing/hasher'
import { encodeObject } from '../objects/object-codec'
import {
  concat,
  encodeArchive,
  objectFrame,
  randomSizes,
  readError,
  sampleFrames,
  tinyFrames,
} from '../../test/support/archive-samples'
import type { SampleFrame } from '../../test/support/archive-samples'

const sha256 = await createHasher('sha256')
const blake3 = await createHasher('blake3')
const tiny = encodeArchive(sha256, tinyFrames(sha256))

/** Asserts reading `bytes` fails with INVALID_ARCHIVE and a message matching `message`. */
async function expectInvalid(bytes: Uint8Array, message?: RegExp, size?: () => number) {
  const err = await readError(bytes, {}, size)
  if (!isEngineError(err, 'INVALID_ARCHIVE')) expect.fail(`expected INVALID_ARCHIVE, got ${err}`)
  if (message !== undefined) expect(err.message).toMatch(message)
}

function patched(bytes: Uint8Array, at: number, values: number[]): Uint8Array {
  const out = Uint8Array.from(bytes)
  out.set(values, at < 0 ? out.length + at : at)
  return out
}

const chunk = (hasher: Hasher, raw: Uint8Array, hash = hasher.hashDomain('chunk', raw)) =>
  ({ type: 'chunk', hash, bytes: raw }) satisfies SampleFrame

describe('archive reader on damaged input', () => {
  it('refuses the tiny archive truncated at every offset', async () => {
    expect(await readError(tiny)).toBeUndefined()
    for (let n = 0; n < tiny.length; n++) {
      await expectInvalid(tiny.subarray(0, n), /truncated/, randomSizes(n + 1, 40))
    }
  })

  for (const hasher of [sha256, blake3]) {
    it(`refuses the tiny ${hasher.algorithm} archive with any one byte flipped`, async () => {
      const bytes = encodeArchive(hasher, tinyFrames(hasher))
      for (let i = 0; i < bytes.length; i++) {
        await expectInvalid(patched(bytes, i, [(bytes[i] as number) ^ (1 << (i % 8))]))
      }
    })
  }

  it('refuses an archive of every object type with any of 600 random bytes flipped', async () => {
    const bytes = encodeArchive(
      blake3,
      sampleFrames(blake3).filter((f) => f.bytes.length < 5000),
    )
    const next = randomSizes(42, bytes.length)
    for (let n = 0; n < 600; n++) {
      const i = next() - 1
      await expectInvalid(
        patched(bytes, i, [(bytes[i] as number) ^ (1 << (n % 8))]),
        undefined,
        next,
      )
    }
  })

  it('refuses random junk, junk after a valid header and mutated archives', async () => {
    const header = tiny.subarray(0, 80)
    const mutated = fc
      .tuple(fc.nat(tiny.length), fc.nat(8), fc.uint8Array({ maxLength: 8 }))
      .map(([at, del, ins]) => {
        const out = concat([tiny.subarray(0, at), ins, tiny.subarray(at + del)])
        return Buffer.from(out).equals(tiny) ? new Uint8Array(0) : out
      })
    const inputs = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      fc.uint8Array({ maxLength: 300 }).map((tail) => concat([header, tail])),
      mutated,
    )
    await fc.assert(
      fc.asyncProperty(inputs, fc.integer({ min: 1, max: 64 }), async (bytes, max) => {
        await expectInvalid(bytes, undefined, randomSizes(max, max))
      }),
      { numRuns: 1000 },
    )
  })

  it('wraps the object codec errors of frames holding junk object bytes', async () => {
    // Junk behind a valid version and tag reaches deep into the object decoder.
    const prefix = fc.constantFrom([], [1], [1, 1], [1, 2], [1, 3], [1, 4], [1, 5], [1, 1, 3])
    const junk = fc
      .tuple(prefix, fc.uint8Array({ maxLength: 300 }))
      .map(([p, tail]) => concat([Uint8Array.from(p), tail]))
      .filter((body) => body.length > 0)
    await fc.assert(
      fc.asyncProperty(junk, async (body) => {
        const frame = { type: 'object' as const, hash: new Uint8Array(32), bytes: body }
        const err = await readError(
          encodeArchive(sha256, [frame], { target: new Uint8Array(32).fill(1) }),
        )
        if (!isEngineError(err, 'INVALID_ARCHIVE')) expect.fail(`got ${err}`)
        expect(err.message).toMatch(/frame 1 at byte 80: (undecodable|.*canonical|.*id does not)/)
        if (/undecodable/.test(err.message))
          expect(isEngineError(err.cause, 'CONTENT_CORRUPT')).toBe(true)
      }),
      { numRuns: 1000 },
    )
  })

  it('refuses ids that do not match their bytes', async () => {
    const [c, file, root] = tinyFrames(sha256) as [SampleFrame, SampleFrame, SampleFrame]
    const lies: SampleFrame[][] = [
      [chunk(sha256, c.bytes, file.hash)],
      [chunk(sha256, c.bytes, blake3.hashDomain('chunk', c.bytes))],
      [c, { ...file, hash: root.hash }],
      // the right bytes hashed in another domain
      [c, { ...file, hash: sha256.hashDomain('dir', file.bytes) }],
    ]
    for (const frames of lies) {
      await expectInvalid(encodeArchive(sha256, frames), /id does not match/)
    }
  })

  it('refuses objects not in canonical encoding', async () => {
    const leaf = encodeObject({ type: 'leaf', entries: [] })
    expect(Array.from(leaf)).toEqual([1, 3, 0])
    const padded = Uint8Array.from([1, 3, 0x80, 0x00]) // the same empty leaf, count padded
    const frame = { type: 'object' as const, hash: sha256.hashDomain('dir', padded), bytes: padded }
    await expectInvalid(encodeArchive(sha256, [frame]), /canonical/)
  })

  it('refuses a wrong frame count, a wrong digest and bytes after the end', async () => {
    const end = tiny.length - 42
    await expectInvalid(patched(tiny, end + 2, [4]), /counts 4 frames, the archive holds 3/)
    await expectInvalid(patched(tiny, end + 2, [2]), /counts 2 frames/)
    await expectInvalid(patched(tiny, end + 9, [1]), /counts 72057594037927939 frames/)
    await expectInvalid(patched(tiny, -1, [tiny.at(-1)! ^ 1]), /digest does not match/)
    // A digest of the right bytes with the other algorithm.
    const other = blake3.createStream()
    other.update(tiny.subarray(0, end))
    await expectInvalid(patched(tiny, end + 10, Array.from(other.digest())), /digest/)
    await expectInvalid(concat([tiny, Uint8Array.of(0)]), /bytes follow the end frame/)
    await expectInvalid(concat([tiny, tiny]), /bytes follow the end frame/, () => 1)
  })

  it('refuses malformed frame headers', async () => {
    const header = tiny.subarray(0, 80)
    const withFrame = (...bytes: number[]) => concat([header, Uint8Array.from(bytes)])
    await expectInvalid(withFrame(3, 0), /frame 1 at byte 80: unknown frame type 3/)
    await expectInvalid(withFrame(0xff), /unknown frame type 255/)
    await expectInvalid(withFrame(1, 0xa5, 0x00), /not minimally encoded/)
    await expectInvalid(withFrame(1, 0x80, 0x80, 0x80, 0x80, 0x01), /longer than 4 bytes/)
    await expectInvalid(withFrame(1, 0x81, 0x80, 0x80, 0x02), /exceeds 4194304/)
    await expectInvalid(withFrame(1, 0xff, 0xff, 0xff, 0x7f), /exceeds/)
    await expectInvalid(withFrame(2, 0xa2, 0x80, 0x10), /a chunk holds 1\.\.262144 bytes/)
    await expectInvalid(withFrame(2, 33), /a chunk holds/)
    await expectInvalid(withFrame(1, 32), /too short/)
    await expectInvalid(withFrame(0, 41), /end frame at byte 80: end frame body is 41 bytes/)
    const [c] = tinyFrames(sha256) as [SampleFrame]
    const frame = encodeArchive(sha256, [c]).subarray(80, 80 + 2 + 33 + 3)
    await expectInvalid(patched(concat([header, frame]), 80 + 2 + 32, [1]), /codec 1/)
  })

  it('refuses malformed headers', async () => {
    await expectInvalid(patched(tiny, 0, [0x73]), /bad magic at byte 0/)
    await expectInvalid(patched(tiny, 5, [2]), /format version 2 at byte 5 \(written by a newer/)
    await expectInvalid(patched(tiny, 5, [0]), /format version 0/)
    await expectInvalid(
      tiny.subarray(0, 6).map((b, i) => (i === 5 ? 9 : b)),
      /version 9/,
    )
    await expectInvalid(patched(tiny, 6, [3]), /unknown archive kind 3 at byte 6/)
    await expectInvalid(patched(tiny, 7, [0]), /unknown hash algorithm 0 at byte 7/)
    await expectInvalid(patched(tiny, 15, [1]), /created_at .* at byte 8 is out of range/)
    await expectInvalid(patched(tiny, 20, [1]), /export must have an all-zero base/)
    await expectInvalid(patched(tiny, 6, [2]), /patch must have a nonzero base/)
    await expectInvalid(patched(tiny, 48, new Array(32).fill(0)), /target hash .* all zeros/)
    // A patch is valid with a base, whatever the digest says about it.
    const patch = encodeArchive(sha256, tinyFrames(sha256), {
      kind: 'patch',
      base: objectFrame(sha256, { type: 'leaf', entries: [] }).hash,
    })
    expect(await readError(patch)).toBeUndefined()
  })
})
