import { formatBytes, formatTime } from './table'

/** `created_at`, `expires_at`, `timestamp`, `next_run_at`…: times on the wire. */
const TIME_KEY = /(^|_)at$|^timestamp$/
/** Byte counts by name: `size`, `chunk_size`, `bytes_sent`, `gc_last_reclaimed_bytes`… */
const BYTES_KEY = /^(size|bytes|bytes_sent|chunk_size|chunk_data)$|_bytes$/

/** A rule `{ "/docs/**": "-r--l---" }` as `/docs/**=-r--l---`, like `--rule` takes it. */
function formatRule(rule: unknown): string {
  if (typeof rule === 'object' && rule !== null && !Array.isArray(rule)) {
    const entries = Object.entries(rule)
    if (entries.length === 1 && typeof entries[0]?.[1] === 'string')
      return `${entries[0][0]}=${entries[0][1]}`
    return JSON.stringify(rule)
  }
  return String(rule)
}

/**
 * One field of a record as a person reads it: times in ISO 8601 (UTC, to the second), sizes
 * with binary units, latencies in ms, rates per second, rules as `GLOB=FLAGS`, never
 * `[object Object]`. `section` is the name of the enclosing object (`sizes`, `latency`,
 * `bytes_written_per_sec`…), which gives units to fields named `p50` or `1m`. `--json` output
 * never goes through here: it keeps the raw numbers.
 */
export function humanValue(key: string, value: unknown, section: readonly string[] = []): string {
  if (value === null || value === undefined) return '-'
  if (Array.isArray(value)) {
    if (value.length === 0) return key === 'rules' ? '(none: the user’s own permissions)' : '-'
    return value
      .map((item) => (typeof item === 'object' ? formatRule(item) : String(item)))
      .join(', ')
  }
  if (typeof value === 'object') return JSON.stringify(value)
  const parent = section[section.length - 1] ?? ''
  const top = section[0] ?? ''
  if (typeof value === 'string') {
    // Administrative key times come as ISO strings with milliseconds: one format everywhere.
    if (TIME_KEY.test(key) && !Number.isNaN(Date.parse(value))) return formatTime(Date.parse(value))
    return value
  }
  if (typeof value !== 'number') return String(value)
  if (TIME_KEY.test(key)) return formatTime(value)
  if (top === 'sizes' || BYTES_KEY.test(key)) return formatBytes(value)
  if (top === 'latency' || key.endsWith('_ms')) return `${round(value)} ms`
  if (/^bytes_\w+_per_sec$/.test(parent)) return `${formatBytes(value)}/s`
  if (parent.endsWith('_per_sec')) return `${round(value)}/s`
  if (key.endsWith('_percent')) return `${round(value)} %`
  if (key.endsWith('_seconds')) return `${value} s`
  return String(value)
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2).replace(/\.?0+$/, '')
}
