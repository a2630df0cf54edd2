/** A column of a human table: its heading and how to show a row's cell. */
export interface Column<T> {
  heading: string
  cell(row: T): string
  /** Right-align (numbers). */
  right?: boolean
}

/**
 * Rows as aligned, space-separated columns under upper-case headings, like `ls -l` or
 * `kubectl get`: easy to read and to cut with `awk`. The last column is not padded.
 */
export function formatTable<T>(rows: readonly T[], columns: readonly Column<T>[]): string {
  const cells = rows.map((row) => columns.map((column) => column.cell(row)))
  const headings = columns.map((column) => column.heading.toUpperCase())
  const widths = columns.map((_, i) =>
    Math.max(headings[i]?.length ?? 0, ...cells.map((line) => line[i]?.length ?? 0)),
  )
  const render = (line: readonly string[]) =>
    line
      .map((text, i) => {
        const last = i === line.length - 1
        if (columns[i]?.right === true) return text.padStart(widths[i] ?? 0)
        return last ? text : text.padEnd(widths[i] ?? 0)
      })
      .join('  ')
      .trimEnd()
  return [render(headings), ...cells.map(render)].join('\n') + '\n'
}

/** Bytes as `1.5 MiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB']
  let value = bytes
  let unit = 0
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024
    unit++
  }
  return unit === 0 ? `${bytes} B` : `${value.toFixed(1)} ${units[unit]}`
}

/** A Unix-millisecond time as an ISO string without milliseconds. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
