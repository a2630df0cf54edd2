import { describe, expect, it } from 'vitest'
import { versionChoices } from './version-choices'

const hash = (digit: string) => digit.repeat(64)

describe('versionChoices', () => {
  it('offers HEAD alone when there are no snapshots or forks', () => {
    expect(versionChoices([], [])).toEqual([{ value: 'HEAD', label: 'HEAD (current)' }])
  })

  it('offers HEAD, then snapshots and forks newest first, by hash', () => {
    const choices = versionChoices(
      [
        { name: 'old', version: hash('1'), created_at: 10 },
        { name: 'new', version: hash('2'), created_at: 30 },
      ],
      [{ name: 'draft', version: hash('3'), base: hash('1'), created_at: 20 }],
    )
    expect(choices).toEqual([
      { value: 'HEAD', label: 'HEAD (current)' },
      { value: hash('2'), label: 'snapshot new (222222222222)' },
      { value: hash('3'), label: 'fork draft (333333333333)' },
      { value: hash('1'), label: 'snapshot old (111111111111)' },
    ])
  })

  it('offers a version that several names share once, under all of them', () => {
    const choices = versionChoices(
      [{ name: 'nightly', version: hash('4'), created_at: 20 }],
      [{ name: 'draft', version: hash('4'), base: hash('4'), created_at: 10 }],
    )
    expect(choices).toEqual([
      { value: 'HEAD', label: 'HEAD (current)' },
      { value: hash('4'), label: 'snapshot nightly, fork draft (444444444444)' },
    ])
  })
})
