/** One sample of a chart: a time (Unix ms) and one value per line of the chart. */
export interface ChartSample {
  readonly time: number
  readonly values: readonly number[]
}

/**
 * The samples as uPlot takes them (its `AlignedData`): the times, then one column of values
 * per line. A sample missing a line's value leaves a gap (null) rather than a false zero.
 */
export function chartColumns(
  samples: readonly ChartSample[],
  lines: number,
): [number[], ...(number | null)[][]] {
  const times = samples.map((s) => s.time)
  const columns = Array.from({ length: lines }, (_, line) =>
    samples.map((s) => s.values[line] ?? null),
  )
  return [times, ...columns]
}

/** The largest value of any line (0 for no samples). */
export function chartMax(samples: readonly ChartSample[]): number {
  let max = 0
  for (const s of samples) for (const value of s.values) if (value > max) max = value
  return max
}

/** The newest value of each line, undefined before the first sample. */
export function latestValues(samples: readonly ChartSample[]): readonly number[] | undefined {
  return samples[samples.length - 1]?.values
}
