/** One sample of a chart: a time (Unix ms) and a value. */
export interface ChartSample {
  readonly time: number
  readonly value: number
}

/** The drawing box of a chart, in SVG user units. */
export interface ChartBox {
  readonly width: number
  readonly height: number
}

/**
 * The `points` attribute of an SVG polyline drawing `samples` in `box`: time across from the
 * first sample to the last, value up from 0 to `max` (the largest value, at least 1 so a flat
 * zero line stays at the bottom). Empty for no samples.
 */
export function chartPoints(samples: readonly ChartSample[], box: ChartBox, max: number): string {
  if (samples.length === 0) return ''
  const first = samples[0]!.time
  const span = samples[samples.length - 1]!.time - first
  const top = Math.max(max, 1)
  return samples
    .map((s) => {
      const x = span === 0 ? box.width : ((s.time - first) / span) * box.width
      const y = box.height - (Math.max(0, s.value) / top) * box.height
      return `${round(x)},${round(y)}`
    })
    .join(' ')
}

/** The largest value of several series (0 for none). */
export function chartMax(series: readonly (readonly ChartSample[])[]): number {
  let max = 0
  for (const samples of series) for (const s of samples) if (s.value > max) max = s.value
  return max
}

const round = (n: number) => Math.round(n * 10) / 10
