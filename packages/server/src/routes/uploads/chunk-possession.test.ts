import { describe, expect, it } from 'vitest'
import { createChunkPossession } from './chunk-possession'

describe('chunk possession', () => {
  it('remembers each caller’s chunks apart, with their sizes', () => {
    const p = createChunkPossession(10)
    expect(p.record('key:a', 'AB', 10)).toBe(true)
    expect(p.record('key:a', 'ab', 10)).toBe(false)
    expect(p.sizeOf('key:a', 'ab')).toBe(10)
    expect(p.sizeOf('key:b', 'ab')).toBeUndefined()
  })

  it('forgets the least recently used record past its bound', () => {
    const p = createChunkPossession(2)
    p.record('u', 'h1', 1)
    p.record('u', 'h2', 2)
    expect(p.sizeOf('u', 'h1')).toBe(1) // h1 is now the most recent
    p.record('u', 'h3', 3)
    expect(p.sizeOf('u', 'h2')).toBeUndefined()
    expect(p.sizeOf('u', 'h1')).toBe(1)
    expect(p.sizeOf('u', 'h3')).toBe(3)
    expect(() => createChunkPossession(0)).toThrow(RangeError)
  })
})
