import { describe, expect, it } from 'vitest'
import type uPlot from 'uplot'
import { BYTE_TICK_STEPS, CHART_TONES, tickAxisSize, timeChartOptions } from './time-chart-options'

const base = {
  lines: [
    { label: 'Writes', tone: 'first' },
    { label: 'Reads', tone: 'second' },
  ],
  unit: 'per-second',
  width: 480,
  height: 160,
  axisColour: '#555',
  gridColour: '#ddd',
} as const
const options = timeChartOptions(base)

describe('timeChartOptions', () => {
  it('sizes the chart and reads times in milliseconds', () => {
    expect(options).toMatchObject({ width: 480, height: 160, ms: 1, legend: { show: false } })
  })

  it('draws one coloured line per series after the time series', () => {
    expect(options.series).toHaveLength(3)
    expect(options.series.slice(1)).toMatchObject([
      { label: 'Writes', stroke: CHART_TONES.first },
      { label: 'Reads', stroke: CHART_TONES.second },
    ])
  })

  it('labels the value axis with the unit', () => {
    const values = options.axes?.[1]?.values as (plot: uPlot, splits: number[]) => string[]
    expect(values({} as uPlot, [0, 0.5, 250])).toEqual(['0 /s', '0.5 /s', '250 /s'])
  })

  it('steps a byte axis in powers of two, other axes as uPlot does', () => {
    const bytes = timeChartOptions({ ...base, unit: 'bytes-per-second' })
    expect(bytes.axes?.[1]?.incrs).toEqual(BYTE_TICK_STEPS)
    expect(BYTE_TICK_STEPS).toContain(1024 ** 2)
    const values = bytes.axes?.[1]?.values as (plot: uPlot, splits: number[]) => string[]
    expect(values({} as uPlot, [0, 1024, 2048])).toEqual(['0 B/s', '1 KiB/s', '2 KiB/s'])
    expect(options.axes?.[1]?.incrs).toBeUndefined()
  })

  it('makes the value axis as wide as its widest tick', () => {
    const size = options.axes?.[1]?.size as (plot: uPlot, ticks: string[] | null) => number
    expect(size({} as uPlot, ['0 ms', '1000 ms'])).toBe(tickAxisSize(['1000 ms']))
  })

  it('starts the value scale at 0 and keeps it at least 1 high', () => {
    expect(options.scales?.y?.range).toMatchObject({
      min: { soft: 0, hard: 0 },
      max: { soft: 1 },
    })
  })
})

describe('tickAxisSize', () => {
  it('grows with the longest tick, from a minimum', () => {
    expect(tickAxisSize(null)).toBe(40)
    expect(tickAxisSize(['0 ms', '1000 ms'])).toBeGreaterThan(tickAxisSize(['0 ms', '50 ms']))
  })
})
