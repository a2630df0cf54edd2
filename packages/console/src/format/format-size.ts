const UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const

/** A byte count for people: `512 B`, `1.5 KiB`, `20 MiB` (binary units, 3 significant digits). */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${bytes} B`
  let value = bytes
  let unit: string = 'B'
  for (const next of UNITS) {
    if (value < 1024) break
    value /= 1024
    unit = next
  }
  const digits = value < 10 ? 1 : 0
  // Trailing `.0` says nothing.
  return `${value.toFixed(digits).replace(/\.0$/, '')} ${unit}`
}
