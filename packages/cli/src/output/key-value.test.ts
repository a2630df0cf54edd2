import { describe, expect, it } from 'vitest'
import { humanValue } from './human-value'
import { formatKeyValue } from './key-value'

describe('humanValue', () => {
  it('shows times as ISO 8601 to the second, from numbers and from ISO strings', () => {
    expect(humanValue('created_at', 1_795_634_233_915)).toBe('2026-11-25T19:17:13Z')
    expect(humanValue('created_at', '2026-11-25T19:17:05.321Z')).toBe('2026-11-25T19:17:05Z')
    expect(humanValue('timestamp', 0)).toBe('1970-01-01T00:00:00Z')
  })

  it('gives sizes, latencies and rates their units', () => {
    expect(humanValue('disk_total', 2_175, ['sizes'])).toBe('2.1 KiB')
    expect(humanValue('gc_last_reclaimed_bytes', 0, ['health'])).toBe('0 B')
    expect(humanValue('p99', 1.256, ['latency', 'write'])).toBe('1.26 ms')
    expect(humanValue('1m', 3_145_728, ['throughput', 'bytes_written_per_sec'])).toBe('3.0 MiB/s')
    expect(humanValue('1m', 12.5, ['throughput', 'writes_per_sec'])).toBe('12.5/s')
    expect(humanValue('disk_usage_percent', 70.54, ['health'])).toBe('70.54 %')
    expect(humanValue('files', 3, ['counts'])).toBe('3')
  })

  it('shows rules as GLOB=FLAGS and never [object Object]', () => {
    expect(humanValue('rules', [{ '/docs/**': '-r--l---' }, { '/**': '--------' }])).toBe(
      '/docs/**=-r--l---, /**=--------',
    )
    expect(humanValue('rules', [])).toContain('own permissions')
    expect(humanValue('other', { a: 1 })).toBe('{"a":1}')
    expect(humanValue('tags', ['eng', 'ops'])).toBe('eng, ops')
    expect(humanValue('email', undefined)).toBe('-')
  })
})

describe('formatKeyValue', () => {
  it('keeps a space between a long name and its value', () => {
    const text = formatKeyValue({ health: { gc_last_reclaimed_bytes: 0, kv_fill_ratio: 1 } })
    expect(text).toContain('  gc_last_reclaimed_bytes  0 B\n')
    expect(text).not.toContain('[object Object]')
  })
})
