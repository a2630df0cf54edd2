import { describe, expect, it } from 'vitest'
import { entryNameProblem } from './entry-name'

describe('entryNameProblem', () => {
  it('accepts ordinary names, spaces and dots included', () => {
    for (const name of ['a', 'my notes', '.hidden', 'été.md', 'a..b'])
      expect(entryNameProblem(name)).toBeUndefined()
  })

  it('explains what is wrong with the others', () => {
    expect(entryNameProblem('')).toMatch(/name/)
    expect(entryNameProblem('  ')).toMatch(/name/)
    expect(entryNameProblem('.')).toMatch(/not a name/)
    expect(entryNameProblem('..')).toMatch(/not a name/)
    expect(entryNameProblem('a/b')).toMatch(/\//)
    expect(entryNameProblem('a\0b')).toMatch(/NUL/)
  })
})
