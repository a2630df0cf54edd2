import uPlot from 'uplot'
import { timeChartOptions } from './time-chart-options'
import type { ChartUnit } from './chart-units'
import type { ChartLine } from './time-chart-options'

/** What a time chart draws, apart from its data and width. */
export interface TimePlotOptions {
  readonly lines: readonly ChartLine[]
  readonly unit: ChartUnit
  /** The chart's height in CSS pixels (its width follows its box). */
  readonly height: number
}

/** A uPlot chart drawn in a box, following the box's width. */
export interface TimePlot {
  /** Draws new data (the times, then one column per line). */
  setData(columns: uPlot.AlignedData): void
  /** Stops following the box and removes the chart. */
  destroy(): void
}

/**
 * Draws a uPlot time chart into `target`. This module is the only one importing uPlot's code
 * and is itself loaded with `import()`, so screens without charts never download it.
 */
export function createTimePlot(
  target: HTMLElement,
  options: TimePlotOptions,
  columns: uPlot.AlignedData,
): TimePlot {
  // The canvas cannot use CSS variables: the axes take the theme's colours as they are now.
  const theme = getComputedStyle(target)
  const colour = (name: string, fallback: string) => theme.getPropertyValue(name).trim() || fallback
  const plot = new uPlot(
    timeChartOptions({
      ...options,
      width: Math.floor(target.clientWidth),
      axisColour: colour('--muted', '#5f6b76'),
      gridColour: colour('--border', '#d8dde3'),
    }),
    columns,
    target,
  )
  // uPlot draws at a fixed size: redraw at the box's width whenever the layout changes it.
  const observer = new ResizeObserver((entries) => {
    const width = Math.floor(entries[0]?.contentRect.width ?? 0)
    if (width > 0 && width !== plot.width) plot.setSize({ width, height: options.height })
  })
  observer.observe(target)
  return {
    setData: (next) => plot.setData(next),
    destroy: () => {
      observer.disconnect()
      plot.destroy()
    },
  }
}
