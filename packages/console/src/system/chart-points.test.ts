import { describe, expect, it } from 'vitest'
import { chartMax, chartPoints } from './chart-points'

const box = { width: 100, height: 50 }

describe('chartPoints', () => {
  it('is empty for no samples', () => {
    expect(chartPoints([], box, 10)).toBe('')
  })

  it('spreads samples over the width and scales values to the height', () => {
    const samples = [
      { time: 1000, value: 0 },
      { time: 2000, value: 5 },
      { time: 3000, value: 10 },
    ]
    expect(chartPoints(samples, box, 10)).toBe('0,50 50,25 100,0')
  })

  it('draws a zero line at the bottom and a lone sample at the right edge', () => {
    expect(chartPoints([{ time: 5, value: 0 }], box, 0)).toBe('100,50')
  })
})

describe('chartMax', () => {
  it('is the largest value over every series', () => {
    expect(chartMax([[{ time: 1, value: 3 }], [{ time: 1, value: 7 }], []])).toBe(7)
    expect(chartMax([])).toBe(0)
  })
})
