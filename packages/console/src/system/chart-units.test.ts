import { describe, expect, it } from 'vitest'
import { formatChartValue, formatTick } from './chart-units'

describe('formatChartValue', () => {
  it('prints rates and times with two decimals below 100 and whole numbers above', () => {
    expect(formatChartValue(1.234, 'per-second')).toBe('1.23 /s')
    expect(formatChartValue(1234.5, 'ms')).toBe('1235 ms')
  })

  it('prints bytes and byte rates in binary units, whole bytes below a KiB', () => {
    expect(formatChartValue(1536, 'bytes')).toBe('1.5 KiB')
    expect(formatChartValue(12.6, 'bytes-per-second')).toBe('13 B/s')
    expect(formatChartValue(20 * 1024 * 1024, 'bytes-per-second')).toBe('20 MiB/s')
  })

  it('prints a ratio as a percentage with one decimal', () => {
    expect(formatChartValue(0.4567, 'percent')).toBe('45.7 %')
    expect(formatChartValue(0, 'percent')).toBe('0.0 %')
  })
})

describe('formatTick', () => {
  it('drops trailing zeros and appends the unit', () => {
    expect(formatTick(0, 'ms')).toBe('0 ms')
    expect(formatTick(0.25, 'per-second')).toBe('0.25 /s')
    expect(formatTick(50, 'ms')).toBe('50 ms')
  })

  it('prints bytes in binary units and ratios as percentages', () => {
    expect(formatTick(2048, 'bytes')).toBe('2 KiB')
    expect(formatTick(500, 'bytes-per-second')).toBe('500 B/s')
    expect(formatTick(0.4, 'percent')).toBe('40 %')
  })
})
