import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import {
  baseName,
  hasControlCharacter,
  isWithin,
  normalizePath,
  parentPath,
  pathSegments,
  reservedKind,
} from './db-path'

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/
const validName = fc
  .string({ minLength: 1, maxLength: 20, unit: 'grapheme' })
  .filter((s) => !s.includes('/') && s !== '.' && s !== '..' && !CONTROL.test(s))

function code(path: string): string | undefined {
  try {
    normalizePath(path)
    return undefined
  } catch (err) {
    return isEngineError(err) ? err.code : 'other'
  }
}

describe('normalizePath', () => {
  it('is idempotent and keeps valid names exactly', () => {
    fc.assert(
      fc.property(
        fc.array(validName, { maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        (names, leading, trailing) => {
          const raw = `${leading ? '/' : ''}${names.join('/')}${trailing && names.length > 0 ? '/' : ''}`
          const path = normalizePath(raw === '' ? '/' : raw)
          expect(normalizePath(path)).toBe(path)
          expect(pathSegments(path)).toEqual(names)
        },
      ),
    )
  })

  it('never accepts a path containing a dot-dot, empty or control-character segment', () => {
    fc.assert(
      fc.property(
        fc.array(validName, { maxLength: 4 }),
        fc.constantFrom('..', '.', '', 'a\u0000b', 'x\ny', '\u009b'),
        fc.nat(4),
        (names, bad, at) => {
          const parts = [...names]
          parts.splice(Math.min(at, parts.length), 0, bad)
          const raw = `/${parts.join('/')}/z`
          expect(code(raw)).toBe('INVALID_PATH')
        },
      ),
    )
  })

  it.each([
    ['/', '/'],
    ['', '/'],
    ['a', '/a'],
    ['/a/b/', '/a/b'],
    ['/ünï/çødé', '/ünï/çødé'],
  ])('normalises %j to %j', (raw, expected) => {
    expect(normalizePath(raw)).toBe(expected)
  })

  it('limits names to 255 bytes and paths to 4096 bytes, counted in UTF-8', () => {
    expect(code(`/${'a'.repeat(255)}`)).toBeUndefined()
    expect(code(`/${'a'.repeat(256)}`)).toBe('INVALID_PATH')
    expect(code(`/${'é'.repeat(128)}`)).toBe('INVALID_PATH')
    const exactly4096 = `/${Array.from({ length: 16 }, () => 'a'.repeat(255)).join('/')}`
    expect(Buffer.byteLength(exactly4096)).toBe(4096)
    expect(code(exactly4096)).toBeUndefined()
    expect(code(`${exactly4096}b`)).toBe('INVALID_PATH')
  })
})

describe('hasControlCharacter', () => {
  it('finds C0 controls, DEL and C1 controls and nothing else', () => {
    for (const code of [0x00, 0x0a, 0x1f, 0x7f, 0x80, 0x9f]) {
      expect(hasControlCharacter(`a${String.fromCharCode(code)}b`)).toBe(true)
    }
    for (const text of ['', 'a b', '~', '\u00a0', 'café', '日本', '\\']) {
      expect(hasControlCharacter(text)).toBe(false)
    }
  })

  it('is the rule normalizePath refuses by', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 8 }), (name) => {
        if (hasControlCharacter(name)) expect(code(`/a${name}`)).toBe('INVALID_PATH')
      }),
    )
  })
})

describe('path helpers', () => {
  it('split, join and relate paths', () => {
    expect(parentPath('/a/b')).toBe('/a')
    expect(parentPath('/a')).toBe('/')
    expect(baseName('/a/b')).toBe('b')
    expect(isWithin('/a/b', '/a')).toBe(true)
    expect(isWithin('/ab', '/a')).toBe(false)
    expect(isWithin('/x', '/')).toBe(true)
  })

  it('recognises reserved configuration paths', () => {
    expect(reservedKind('/.svcdb/webhooks.json')).toBe('config')
    expect(reservedKind('/docs/.svcdb/indexes.json')).toBe('index-config')
    expect(reservedKind('/docs/a.svcdb')).toBeUndefined()
  })
})
