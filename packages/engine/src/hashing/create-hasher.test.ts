import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createHasher } from './create-hasher'
import type { HashAlgorithm, HashDomain, Hasher } from './hasher'

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex')
const text = (s: string): Uint8Array => new TextEncoder().encode(s)

/** The BLAKE3 test-vector input: bytes 0, 1, …, 250 repeated. */
function blake3Input(length: number): Uint8Array {
  return Uint8Array.from({ length }, (_, i) => i % 251)
}

function oneShot(hasher: Hasher, bytes: Uint8Array): string {
  const stream = hasher.createStream()
  stream.update(bytes)
  return hex(stream.digest())
}

// FIPS 180-2 examples.
const SHA256_VECTORS: [Uint8Array, string][] = [
  [text(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
  [text('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
  [
    text('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'),
    '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
  ],
]

// The first 32 bytes of the official BLAKE3 test vectors (test_vectors.json, `hash`).
const BLAKE3_VECTORS: [number, string][] = [
  [0, 'af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262'],
  [1, '2d3adedff11b61f14c886e35afa036736dcd87a74d27b5c1510225d0f592e213'],
  [1023, '10108970eeda3eb932baac1428c7a2163b0e924c9a9e25b35bba72b28f70bd11'],
  [1024, '42214739f095a406f3fc83deb889744ac00df831c10daa55189b5d121c855af7'],
  [1025, 'd00278ae47eb27b34faecf67b4fe263f82d5412916c1ffd97c8cb7fb814b8444'],
  [2049, '5f4d72f40d7a5f82b15ca2b2e44b1de3c2ef86c426c95c1af0b6879522563030'],
  [4097, '9b4052b38f1c5fc8b1f9ff7ac7b27cd242487b3d890d15c96a1c25b8aa0fb995'],
  [7169, 'a003fc7a51754a9b3c7fae0367ab3d782dccf28855a03d435f8cfe74605e7817'],
]

const DOMAINS: HashDomain[] = ['chunk', 'file', 'dir', 'link', 'list']
const ALGORITHMS: HashAlgorithm[] = ['sha256', 'blake3']

describe('createHasher', () => {
  it('hashes plain content with SHA-256 as FIPS 180-2 specifies', async () => {
    const hasher = await createHasher('sha256')
    expect(hasher.algorithm).toBe('sha256')
    for (const [input, digest] of SHA256_VECTORS) expect(oneShot(hasher, input)).toBe(digest)
  })

  it('hashes plain content with BLAKE3 as the official test vectors specify', async () => {
    const hasher = await createHasher('blake3')
    expect(hasher.algorithm).toBe('blake3')
    for (const [length, digest] of BLAKE3_VECTORS) {
      expect(oneShot(hasher, blake3Input(length))).toBe(digest)
    }
  })

  it('rejects an unknown algorithm', async () => {
    await expect(createHasher('md5' as HashAlgorithm)).rejects.toThrow(RangeError)
  })

  for (const algorithm of ALGORITHMS) {
    describe(algorithm, () => {
      it('gives the same bytes different ids in different domains', async () => {
        const hasher = await createHasher(algorithm)
        const bytes = text('same bytes')
        const ids = DOMAINS.map((d) => hex(hasher.hashDomain(d, bytes)))
        expect(new Set(ids).size).toBe(DOMAINS.length)
        expect(ids).not.toContain(oneShot(hasher, bytes))
        for (const id of ids) expect(id).toHaveLength(64)
      })

      it('hashes `<domain>:` followed by the bytes', async () => {
        const hasher = await createHasher(algorithm)
        const bytes = blake3Input(3000)
        for (const domain of DOMAINS) {
          const prefixed = new Uint8Array([...text(`${domain}:`), ...bytes])
          expect(hex(hasher.hashDomain(domain, bytes))).toBe(oneShot(hasher, prefixed))
        }
      })

      it('gives a streamed digest equal to the one-shot digest however the input is split', async () => {
        const hasher = await createHasher(algorithm)
        fc.assert(
          fc.property(
            fc.uint8Array({ maxLength: 5000, size: 'max' }),
            fc.array(fc.nat(), { maxLength: 12 }),
            (data, cuts) => {
              const points = [...new Set(cuts.map((c) => c % (data.length + 1)))].sort(
                (a, b) => a - b,
              )
              const stream = hasher.createStream()
              let at = 0
              for (const p of [...points, data.length]) {
                stream.update(data.subarray(at, p))
                at = p
              }
              expect(hex(stream.digest())).toBe(oneShot(hasher, data))
            },
          ),
          { numRuns: 100 },
        )
      })

      it('keeps interleaved streams and one-shot hashes independent', async () => {
        const hasher = await createHasher(algorithm)
        const a = blake3Input(5000)
        const b = text('another stream entirely').map((x, i) => x ^ i)
        const sa = hasher.createStream()
        const sb = hasher.createStream()
        sa.update(a.subarray(0, 1500))
        sb.update(b.subarray(0, 5))
        const between = hex(hasher.hashDomain('file', a))
        sa.update(a.subarray(1500, 4000))
        sb.update(b.subarray(5))
        sa.update(a.subarray(4000))
        expect(hex(sb.digest())).toBe(oneShot(hasher, b))
        expect(hex(sa.digest())).toBe(oneShot(hasher, a))
        expect(between).toBe(hex(hasher.hashDomain('file', a)))
      })

      it('refuses to use a stream after its digest', async () => {
        const hasher = await createHasher(algorithm)
        const stream = hasher.createStream()
        stream.update(text('x'))
        stream.digest()
        expect(() => stream.update(text('y'))).toThrow()
      })
    })
  }
})
