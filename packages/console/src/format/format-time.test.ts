import { describe, expect, it } from 'vitest'
import { formatTime } from './format-time'

describe('formatTime', () => {
  it('writes the date and minute in the given time zone', () => {
    const ms = Date.UTC(2026, 2, 5, 14, 7, 59)
    expect(formatTime(ms, 'UTC')).toBe('2026-03-05 14:07')
    expect(formatTime(ms, 'Asia/Tokyo')).toBe('2026-03-05 23:07')
    expect(formatTime(Date.UTC(2026, 0, 1, 0, 0), 'UTC')).toBe('2026-01-01 00:00')
  })
})
