import { describe, expect, it } from 'vitest'
import { anyActive, formatEta, isActive, progressPercent } from './task-figures'

describe('task figures', () => {
  it('tells pending and running tasks from ended ones', () => {
    expect(isActive({ status: 'running', progress: 0 })).toBe(true)
    expect(isActive({ status: 'pending', progress: 0 })).toBe(true)
    expect(isActive({ status: 'completed', progress: 1 })).toBe(false)
    expect(anyActive([{ status: 'cancelled', progress: 0 }])).toBe(false)
    expect(
      anyActive([
        { status: 'failed', progress: 0 },
        { status: 'running', progress: 0 },
      ]),
    ).toBe(true)
  })

  it('turns progress into a bounded whole percentage', () => {
    expect(progressPercent({ status: 'running', progress: 0.426 })).toBe(43)
    expect(progressPercent({ status: 'running', progress: 3 })).toBe(100)
    expect(progressPercent({ status: 'running', progress: Number.NaN })).toBe(0)
  })

  it('writes the ETA of running tasks only', () => {
    expect(formatEta({ status: 'running', progress: 0, eta_ms: 4_400 })).toBe('4 s')
    expect(formatEta({ status: 'running', progress: 0, eta_ms: 184_000 })).toBe('3 min 4 s')
    expect(formatEta({ status: 'running', progress: 0, eta_ms: 3_720_000 })).toBe('1 h 2 min')
    expect(formatEta({ status: 'running', progress: 0 })).toBe('')
    expect(formatEta({ status: 'completed', progress: 1, eta_ms: 5000 })).toBe('')
  })
})
