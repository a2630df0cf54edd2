import { describe, expect, it } from 'vitest'
import { chartColumns, chartMax, latestValues } from './chart-samples'

const samples = [
  { time: 1000, values: [1, 2] },
  { time: 2000, values: [3, 0.5] },
  { time: 3000, values: [0] },
]

describe('chartColumns', () => {
  it('puts the times first, then one column per line, a missing value as a gap', () => {
    expect(chartColumns(samples, 2)).toEqual([
      [1000, 2000, 3000],
      [1, 3, 0],
      [2, 0.5, null],
    ])
  })

  it('gives empty columns for no samples', () => {
    expect(chartColumns([], 2)).toEqual([[], [], []])
  })
})

describe('chartMax', () => {
  it('is the largest value of any line, 0 for none', () => {
    expect(chartMax(samples)).toBe(3)
    expect(chartMax([])).toBe(0)
  })
})

describe('latestValues', () => {
  it('is the newest sample’s values, undefined for none', () => {
    expect(latestValues(samples)).toEqual([0])
    expect(latestValues([])).toBeUndefined()
  })
})
