import { describe, expect, it } from 'vitest'
import { parentDirectory, resultSummary } from './result-text'

describe('result text', () => {
  it('says how many answers are shown and whether more remain', () => {
    expect(resultSummary(0, false)).toBe('Showing 0 matching files')
    expect(resultSummary(1, false)).toBe('Showing 1 matching file')
    expect(resultSummary(20, true)).toBe('Showing the first 20 matching files; more remain')
  })

  it('names the directory holding a file', () => {
    expect(parentDirectory('/a/b/c.json')).toBe('/a/b')
    expect(parentDirectory('/c.json')).toBe('/')
  })
})
