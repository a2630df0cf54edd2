import { createHash, randomBytes } from 'node:crypto'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import { CHUNK_CODEC } from './chunk-codec'
import {
  RECORD_HEADER_LENGTH,
  decodeChunkRecordHeader,
  encodeChunkRecord,
  joinChunkRecord,
  openChunkRecord,
} from './chunk-record'

const hashOf = (bytes: Uint8Array): Uint8Array =>
  new Uint8Array(createHash('sha256').update('chunk:').update(bytes).digest())

const compressible = (length: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => 97 + ((i * i) % 7))

async function corruptCode(pending: Promise<unknown>): Promise<string | undefined> {
  const err = await pending.then(
    () => undefined,
    (e: unknown) => e,
  )
  return isEngineError(err) ? err.code : String(err)
}

describe('chunk-record', () => {
  it('frames magic, hash, codec, lengths and CRC before the stored bytes', async () => {
    const raw = compressible(10_000)
    const hash = hashOf(raw)
    const record = await encodeChunkRecord(hash, raw)
    const header = decodeChunkRecordHeader(record.header)
    expect(Buffer.from(record.header.subarray(0, 4)).toString('latin1')).toBe('SVK1')
    expect(Buffer.compare(header.hash, hash)).toBe(0)
    expect(header.codec).toBe(CHUNK_CODEC.deflateRaw)
    expect(header.rawLength).toBe(raw.length)
    expect(header.storedLength).toBe(record.body.length)
    expect(record.length).toBe(RECORD_HEADER_LENGTH + record.body.length)
  })

  it('opens what it frames, checked against the expected index fields', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 3000, size: 'max' }),
          fc.nat({ max: 30_000 }).map(compressible),
        ),
        async (raw) => {
          const hash = hashOf(raw)
          const record = await encodeChunkRecord(hash, raw)
          const whole = joinChunkRecord(record)
          const back = await openChunkRecord(whole, {
            hash,
            codec: record.codec,
            rawLength: raw.length,
            storedLength: record.body.length,
          })
          expect(Buffer.compare(back, raw)).toBe(0)
        },
      ),
      { numRuns: 60 },
    )
  })

  it('detects any single flipped byte anywhere in a record', async () => {
    const samples = [randomBytes(2000), compressible(5000)]
    for (const raw of samples) {
      const hash = hashOf(raw)
      const whole = joinChunkRecord(await encodeChunkRecord(hash, raw))
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: whole.length - 1 }),
          fc.integer({ min: 1, max: 255 }),
          async (at, mask) => {
            const damaged = whole.slice()
            damaged[at] = (damaged[at] as number) ^ mask
            expect(await corruptCode(openChunkRecord(damaged, { hash }))).toBe('CONTENT_CORRUPT')
          },
        ),
        { numRuns: 150 },
      )
    }
  })

  it('detects a truncated record and a record of another hash', async () => {
    const raw = randomBytes(1000)
    const hash = hashOf(raw)
    const whole = joinChunkRecord(await encodeChunkRecord(hash, raw))
    expect(await corruptCode(openChunkRecord(whole.subarray(0, whole.length - 1), { hash }))).toBe(
      'CONTENT_CORRUPT',
    )
    expect(await corruptCode(openChunkRecord(whole.subarray(0, 20), { hash }))).toBe(
      'CONTENT_CORRUPT',
    )
    expect(await corruptCode(openChunkRecord(whole, { hash: hashOf(randomBytes(5)) }))).toBe(
      'CONTENT_CORRUPT',
    )
    expect(await corruptCode(openChunkRecord(whole, { hash, rawLength: 999 }))).toBe(
      'CONTENT_CORRUPT',
    )
  })

  it('rejects hashes that are not 32 bytes', async () => {
    await expect(encodeChunkRecord(new Uint8Array(31), new Uint8Array(1))).rejects.toThrow(
      RangeError,
    )
  })
})
