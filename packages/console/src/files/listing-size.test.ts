import { describe, expect, it } from 'vitest'
import { reloadSize, shownSummary } from './listing-size'

describe('listing size', () => {
  it('reloads as many entries as were shown, at least a page, at most the API’s limit', () => {
    expect(reloadSize(0, 100)).toBe(100)
    expect(reloadSize(240, 100)).toBe(240)
    expect(reloadSize(25_000, 1000)).toBe(10_000)
  })

  it('says how many entries are shown', () => {
    expect(shownSummary(20, 45)).toBe('Showing 20 of 45 entries')
    expect(shownSummary(45, 45)).toBe('Showing all 45 entries')
    expect(shownSummary(1, 1)).toBe('Showing 1 entry')
  })
})
