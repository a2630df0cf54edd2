import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { pseudoRandomBytes } from '../testing/pseudo-random-bytes'
import { smallChunkDeflater } from './deflate-worker'

const text = (i: number) =>
  new TextEncoder().encode(`line ${i} of a small text chunk\n`.repeat(10 + (i % 400)))

describe('smallChunkDeflater', () => {
  it('deflates many chunks staged at once to what deflateRawSync gives, each to its own caller', async () => {
    const inputs = Array.from({ length: 300 }, (_, i) =>
      i % 3 === 0 ? pseudoRandomBytes(1 + i * 37, i) : text(i),
    )
    const options = { level: 1, windowBits: 14 }
    const outputs = await Promise.all(
      inputs.map((bytes) => smallChunkDeflater.deflateRaw(bytes, options)),
    )
    outputs.forEach((out, i) => {
      const input = inputs[i] as Uint8Array
      expect(out).toBeInstanceOf(Uint8Array)
      expect(Buffer.from(out as Uint8Array).equals(deflateRawSync(input, options))).toBe(true)
      expect(Buffer.from(inflateRawSync(out as Uint8Array)).equals(input)).toBe(true)
    })
  })

  it('leaves the caller its bytes and keeps working after a batch', async () => {
    const bytes = text(7)
    const copy = bytes.slice()
    const first = await smallChunkDeflater.deflateRaw(bytes, { level: 6, windowBits: 12 })
    const second = await smallChunkDeflater.deflateRaw(bytes, { level: 6, windowBits: 12 })
    expect(bytes).toEqual(copy)
    expect(second).toEqual(first)
  })

  it('rejects a job the worker cannot do, and the next ones still run', async () => {
    await expect(
      smallChunkDeflater.deflateRaw(text(1), { level: 42, windowBits: 14 }),
    ).rejects.toThrow(/deflate failed/)
    const out = await smallChunkDeflater.deflateRaw(text(2), { level: 1, windowBits: 14 })
    expect(Buffer.from(inflateRawSync(out as Uint8Array)).equals(text(2))).toBe(true)
  })
  it('answers a batch longer than one reply slice: every chunk to its own caller, in order', async () => {
    // 2,000 chunks of 8–16 KiB take the worker well over a millisecond: replies come in slices.
    const inputs = Array.from({ length: 2000 }, (_, i) => text(200 + (i % 200)))
    const options = { level: 4, windowBits: 15 }
    const outputs = await Promise.all(
      inputs.map((bytes) => smallChunkDeflater.deflateRaw(bytes, options)),
    )
    outputs.forEach((out, i) => {
      expect(Buffer.from(inflateRawSync(out as Uint8Array)).equals(inputs[i] as Uint8Array)).toBe(
        true,
      )
    })
  })

  it('fails only the chunk it cannot deflate, not the others of its message', async () => {
    const good = text(3)
    const results = await Promise.allSettled([
      smallChunkDeflater.deflateRaw(good, { level: 4, windowBits: 14 }) as Promise<Uint8Array>,
      smallChunkDeflater.deflateRaw(good, { level: 42, windowBits: 14 }) as Promise<Uint8Array>,
      smallChunkDeflater.deflateRaw(good, { level: 4, windowBits: 14 }) as Promise<Uint8Array>,
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    const first = results[0] as PromiseFulfilledResult<Uint8Array>
    expect(Buffer.from(inflateRawSync(first.value)).equals(good)).toBe(true)
  })
})
