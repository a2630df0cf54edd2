import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeKeySegment } from './key-segment'

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
const utf8Compare = (a: string, b: string) =>
  Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))
// Every UTF-16 code unit, lone surrogates included, weighted towards the edges of the code.
const anyString = fc.string({
  unit: fc.oneof(
    fc.constantFrom('!', '"', '}', '~', '\u007f', '\ud83d', '\ude00', '\uffff', ' ', '/'),
    fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)),
    fc.string({ minLength: 1, maxLength: 1, unit: 'grapheme' }),
  ),
})

describe('encodeKeySegment', () => {
  it('keeps ids made of printable ASCII readable', () => {
    expect(encodeKeySegment('0190f3a2-0000-7000-8000-000000000000')).toBe(
      '0190f3a2-0000-7000-8000-000000000000',
    )
    expect(encodeKeySegment('Backup_2/x')).toBe('Backup_2/x')
    expect(encodeKeySegment('a b!~ü😀')).toBe('a!20b!21~007e~00fc~d83d~de00')
  })

  it('yields ASCII only', () => {
    fc.assert(
      fc.property(anyString, (value) => {
        expect(encodeKeySegment(value)).toMatch(/^[\x21-\x7e]*$/)
      }),
    )
  })

  it('orders encoded bytes exactly as JavaScript orders the strings, and never merges two', () => {
    fc.assert(
      fc.property(anyString, anyString, (a, b) => {
        expect(utf8Compare(encodeKeySegment(a), encodeKeySegment(b))).toBe(compare(a, b))
      }),
      { numRuns: 2000 },
    )
  })
})
