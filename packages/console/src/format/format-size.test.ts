import { describe, expect, it } from 'vitest'
import { formatSize } from './format-size'

describe('formatSize', () => {
  it('shows small sizes in bytes', () => {
    expect(formatSize(0)).toBe('0 B')
    expect(formatSize(1023)).toBe('1023 B')
  })

  it('shows larger sizes in binary units', () => {
    expect(formatSize(1024)).toBe('1 KiB')
    expect(formatSize(1536)).toBe('1.5 KiB')
    expect(formatSize(20 * 1024 * 1024)).toBe('20 MiB')
    expect(formatSize(5.25 * 1024 ** 3)).toBe('5.3 GiB')
    expect(formatSize(1024 ** 6)).toBe('1024 PiB')
  })
})
