import { formatSize } from '../format/format-size'

/**
 * What a chart's values measure, which says how they are printed: operations per second,
 * milliseconds, bytes, bytes per second, or a ratio (0 to 1) shown as a percentage.
 */
export type ChartUnit = 'per-second' | 'ms' | 'bytes' | 'bytes-per-second' | 'percent'

/** A plain number as the charts print it: whole above 100, two decimals below. */
const plain = (n: number): string => (n >= 100 ? n.toFixed(0) : n.toFixed(2))

/** A tick's number: no trailing zeros (`0.5`, `50`). */
const short = (n: number): string => String(+n.toFixed(2))

/** Bytes are whole; rates of them are averages, rounded for people. */
const bytes = (n: number): string => formatSize(Math.round(n))

/**
 * A value with its unit, as a chart's text prints its latest and highest values:
 * `2.50 /s`, `0.75 ms`, `1.5 KiB`, `512 B/s`, `42.0 %`.
 */
export function formatChartValue(n: number, unit: ChartUnit): string {
  switch (unit) {
    case 'per-second':
      return `${plain(n)} /s`
    case 'ms':
      return `${plain(n)} ms`
    case 'bytes':
      return bytes(n)
    case 'bytes-per-second':
      return `${bytes(n)}/s`
    case 'percent':
      return `${(n * 100).toFixed(1)} %`
  }
}

/** A value-axis tick: as short as it can be (`0.5 ms`, `50 /s`, `2 KiB`, `40 %`). */
export function formatTick(n: number, unit: ChartUnit): string {
  switch (unit) {
    case 'per-second':
      return `${short(n)} /s`
    case 'ms':
      return `${short(n)} ms`
    case 'bytes':
      return bytes(n)
    case 'bytes-per-second':
      return `${bytes(n)}/s`
    case 'percent':
      return `${short(n * 100)} %`
  }
}
