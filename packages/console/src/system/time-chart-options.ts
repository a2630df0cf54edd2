import type uPlot from 'uplot'
import { formatTick } from './chart-units'
import type { ChartUnit } from './chart-units'

/** A chart line's colour, shared with its legend key in system.css (`.chart-key.first`…). */
export const CHART_TONES = { first: '#2563eb', second: '#d97706', third: '#059669' } as const

/** Which colour a line takes. */
export type ChartTone = keyof typeof CHART_TONES

/** One line of a chart. */
export interface ChartLine {
  readonly label: string
  readonly tone: ChartTone
}

/** What a time chart shows and at what size (CSS pixels). */
export interface TimeChartOptions {
  readonly lines: readonly ChartLine[]
  /** What the values measure, which says how the value axis prints them. */
  readonly unit: ChartUnit
  readonly width: number
  readonly height: number
  /** The axes' text and grid colours, read from the page's theme. */
  readonly axisColour: string
  readonly gridColour: string
}

/** Room for the value axis' widest tick, in CSS pixels (about 7 per character at 12 px). */
export const tickAxisSize = (ticks: readonly string[] | null): number =>
  Math.max(40, ...(ticks ?? []).map((tick) => tick.length * 7 + 16))

/** Tick steps of a byte axis: powers of two from 1 B to 1 PiB, so ticks fall on whole KiB, MiB… */
export const BYTE_TICK_STEPS: readonly number[] = Array.from({ length: 51 }, (_, i) => 2 ** i)

/**
 * The uPlot options of a live time chart: times in Unix ms, values from 0 up (at least to 1,
 * so a flat zero line stays at the bottom), no legend (the figure's text says the latest
 * values) and no drag-to-zoom (the next sample would reset it).
 */
export function timeChartOptions(options: TimeChartOptions): uPlot.Options {
  const axis = {
    stroke: options.axisColour,
    grid: { stroke: options.gridColour, width: 1 },
    ticks: { stroke: options.gridColour, width: 1 },
  }
  return {
    width: options.width,
    height: options.height,
    ms: 1,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      y: { range: { min: { soft: 0, hard: 0, mode: 1 }, max: { soft: 1, mode: 1, pad: 0.1 } } },
    },
    series: [
      {},
      ...options.lines.map((line) => ({
        label: line.label,
        stroke: CHART_TONES[line.tone],
        width: 2,
        points: { show: false },
      })),
    ],
    axes: [
      axis,
      {
        ...axis,
        size: (_plot: uPlot, ticks: string[] | null) => tickAxisSize(ticks),
        values: (_plot: uPlot, splits: number[]) => splits.map((n) => formatTick(n, options.unit)),
        // uPlot steps in 1, 2, 5 × 10ⁿ by default: 1000 B would be printed as `1000 B`,
        // 2000 B as a misleading `2 KiB`.
        ...(options.unit === 'bytes' || options.unit === 'bytes-per-second'
          ? { incrs: [...BYTE_TICK_STEPS] }
          : {}),
      },
    ],
  }
}
