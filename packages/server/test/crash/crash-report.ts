/** The figures of one run of kill -9 rounds. */
export interface CrashFigures {
  rounds: number
  /** Acknowledged operations, all rounds together. */
  operations: number
  /** Operations in flight at the kills (either outcome accepted). */
  inFlight: number
  lost: number
  torn: number
  resurrected: number
  /** Spawn to the `listening` line plus the first successful health answer, in ms. */
  restartToReadyMs: { p50: number; max: number }
  /** Dedup uploads sent again after an online GC swept a chunk between check and commit. */
  uploadsRetried: number
  /** Acknowledged operations by kind. */
  byKind: Record<string, number>
  seed: number
}

/** The median and maximum of `values` (nearest-rank median), rounded to the millisecond. */
export function p50Max(values: readonly number[]): { p50: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b)
  const p50 = sorted[Math.max(0, Math.ceil(sorted.length / 2) - 1)] ?? 0
  return { p50: Math.round(p50), max: Math.round(sorted.at(-1) ?? 0) }
}

/** The figures as a Markdown table followed by one line of JSON. */
export function formatCrashFigures(figures: CrashFigures): string {
  const rows: [string, string][] = [
    ['rounds', String(figures.rounds)],
    ['operations (acknowledged)', String(figures.operations)],
    ['in flight at the kills', String(figures.inFlight)],
    ['lost', String(figures.lost)],
    ['torn', String(figures.torn)],
    ['resurrected', String(figures.resurrected)],
    ['uploads sent again after a GC race', String(figures.uploadsRetried)],
    [
      'restart-to-ready p50 / max',
      `${figures.restartToReadyMs.p50} ms / ${figures.restartToReadyMs.max} ms`,
    ],
    [
      'by kind',
      Object.entries(figures.byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', '),
    ],
  ]
  const table = ['| figure | value |', '| --- | --- |', ...rows.map(([k, v]) => `| ${k} | ${v} |`)]
  return `${table.join('\n')}\n${JSON.stringify(figures)}\n`
}
