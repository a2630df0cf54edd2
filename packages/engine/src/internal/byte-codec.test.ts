import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteReader } from './byte-reader'
import { ByteWriter, utf8Length } from './byte-writer'

describe('ByteWriter and ByteReader', () => {
  it('encode strings exactly as TextEncoder does, lone surrogates included', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (value) => {
        const expected = new TextEncoder().encode(value)
        const bytes = new ByteWriter(4).string(value).finish()
        const r = new ByteReader(bytes)
        expect(r.varint()).toBe(expected.length)
        expect(r.bytes(expected.length)).toEqual(expected)
        expect(utf8Length(value)).toBe(expected.length)
      }),
    )
  })

  it('round-trip strings and varints', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ unit: 'grapheme', maxLength: 50 }), fc.maxSafeNat())),
        (items) => {
          const w = new ByteWriter(1)
          for (const [s, n] of items) w.string(s).varint(n)
          const r = new ByteReader(w.finish())
          for (const [s, n] of items) {
            expect(r.string()).toBe(s)
            expect(r.varint()).toBe(n)
          }
          expect(r.done).toBe(true)
        },
      ),
    )
  })

  it('refuses invalid UTF-8 and truncated input', () => {
    expect(() => new ByteReader(new Uint8Array([2, 0xc3, 0x28])).string()).toThrow(/UTF-8/)
    expect(() => new ByteReader(new Uint8Array([5, 0x61])).string()).toThrow(/end of data/)
    expect(() => new ByteReader(new Uint8Array([0x80, 0x80])).varint()).toThrow(/end of data/)
  })
})
