import { describe, expect, it } from 'vitest'
import { parseVersionHash, withVersionHash } from './version-hash'

const hash = (digit: string) => digit.repeat(64)

describe('parseVersionHash', () => {
  it('accepts 64 hex digits, trimmed and lower-cased', () => {
    expect(parseVersionHash(`  ${'AB'.repeat(32)}\n`)).toEqual({ hash: 'ab'.repeat(32) })
  })

  it('refuses an empty field, a short hash, a name and non-hex digits', () => {
    expect(parseVersionHash('  ')).toEqual({ problem: 'Enter a version hash.' })
    for (const text of [
      hash('a').slice(1),
      'HEAD',
      'nightly',
      `${hash('a').slice(1)}g`,
      hash('a') + 'a',
    ]) {
      expect(parseVersionHash(text)).toEqual({
        problem: 'A version hash is 64 hexadecimal digits (0–9, a–f).',
      })
    }
  })
})

describe('withVersionHash', () => {
  const choices = [
    { value: 'HEAD', label: 'HEAD (current)' },
    { value: hash('1'), label: 'snapshot old (111111111111)' },
  ]

  it('offers a new hash after the named versions, shortened in its label', () => {
    expect(withVersionHash(choices, hash('2'))).toEqual([
      ...choices,
      { value: hash('2'), label: 'version 222222222222' },
    ])
  })

  it('offers a hash already named once, under its name', () => {
    expect(withVersionHash(choices, hash('1'))).toEqual(choices)
  })
})
